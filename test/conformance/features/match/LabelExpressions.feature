# Sources: Neo4j Cypher manual 5, patterns/reference (label expressions: disjunction |, conjunction &,
# negation !, wildcard %, grouping; a WHERE inside a node pattern) and expressions/predicates
# (label expressions as predicates in WHERE).
Feature: LabelExpressions - |, &, ! and % on nodes in MATCH and WHERE, and WHERE inside a node pattern

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:A {x: 1})-[:T]->(:B {x: 2}), (:A:B {x: 3}), ({x: 4}), (:C {x: 5})-[:T]->(:B {x: 6})
      """

  Scenario Outline: [1] A label expression on a node in MATCH
    When executing query:
      """
      MATCH (n<labels>) WITH n.x AS x ORDER BY x RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs     |
      | <xs>   |
    And no side effects

    Examples:
      | labels         | xs              |
      | :A\|C          | [1, 3, 5]       |
      | :A\|:C         | [1, 3, 5]       |
      | :A&B           | [3]             |
      | :!B&!A         | [4, 5]          |
      | :%             | [1, 2, 3, 5, 6] |
      | :!%            | [4]             |
      | :(A\|C)&!B     | [1, 5]          |
      | :!(A\|B)       | [4, 5]          |

  Scenario Outline: [2] The same label expressions as predicates in WHERE
    When executing query:
      """
      MATCH (n) WHERE n<labels> WITH n.x AS x ORDER BY x RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs     |
      | <xs>   |
    And no side effects

    Examples:
      | labels         | xs              |
      | :A\|C          | [1, 3, 5]       |
      | :A&B           | [3]             |
      | :!A            | [2, 4, 5, 6]    |
      | :%             | [1, 2, 3, 5, 6] |
      | :(A\|C)&!B     | [1, 5]          |

  Scenario: [3] An unnamed node with a label expression, along a relationship
    When executing query:
      """
      MATCH (:A|C)-[:T]->(b) RETURN b.x AS x
      """
    Then the result should be, in any order:
      | x |
      | 2 |
      | 6 |
    And no side effects

  Scenario: [4] RETURN * does not list the name an unnamed node was given
    When executing query:
      """
      MATCH (:C)-[:T]->(b:B|A) RETURN *
      """
    Then the result should be, in any order:
      | b            |
      | (:B {x: 6})  |
    And no side effects

  Scenario: [5] A WHERE inside a node pattern, with and without labels
    When executing query:
      """
      MATCH (a:A|C WHERE a.x > 1)-[:T]->(b WHERE b.x < 10) RETURN a.x AS a, b.x AS b
      """
    Then the result should be, in any order:
      | a | b |
      | 5 | 6 |
    And no side effects

  Scenario: [6] In OPTIONAL MATCH the node's WHERE belongs to the optional part
    When executing query:
      """
      MATCH (a:A {x: 1}) OPTIONAL MATCH (a)-[:T]->(b:B WHERE b.x > 5) RETURN a.x AS a, b.x AS b
      """
    Then the result should be, in any order:
      | a | b    |
      | 1 | null |
    And no side effects

  Scenario Outline: [7] Label expressions and node WHERE are refused where a pattern creates
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | query                          |
      | CREATE (n:A\|B)                |
      | MERGE (n:!A)                   |
      | CREATE (n WHERE n.x = 1)       |

  Scenario: [5] IS stands for the colon of a label expression in a node pattern
    When executing query:
      """
      MATCH (n IS A|C) WITH n.x AS x ORDER BY x RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs        |
      | [1, 3, 5] |
    And no side effects

  Scenario: [6] IS with a negation and a WHERE inside the node pattern
    When executing query:
      """
      MATCH (n IS !A WHERE n.x > 2) WITH n.x AS x ORDER BY x RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs        |
      | [4, 5, 6] |
    And no side effects

  Scenario: [7] CREATE takes IS with labels joined by &
    When executing query:
      """
      CREATE (n IS D&E {x: 7})
      RETURN labels(n) AS labels
      """
    Then the result should be (ignoring element order for lists):
      | labels     |
      | ['D', 'E'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 2 |
      | +properties | 1 |

  Scenario: [8] IS NULL in a parenthesised predicate is still a null test
    When executing query:
      """
      MATCH (n)
      WHERE (n.x IS NULL) OR (n IS NOT NULL AND n.x = 4)
      RETURN n.x AS x
      """
    Then the result should be, in any order:
      | x |
      | 4 |
    And no side effects

  Scenario: [9] IS stands for the colon of relationship types too
    When executing query:
      """
      MATCH (a IS A)-[r IS T|U]->(b)
      RETURN a.x AS from, type(r) AS type, b.x AS to
      """
    Then the result should be, in any order:
      | from | type | to |
      | 1    | 'T'  | 2  |
    And no side effects
