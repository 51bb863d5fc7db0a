# Sources: openCypher 9 reference, WITH/RETURN projection scope, ORDER BY scope after DISTINCT and
# aggregation, aggregation placement, relationship isomorphism within a MATCH; Neo4j Cypher manual 5,
# clauses/with, clauses/order-by, clauses/return, clauses/create (error conditions).
Feature: ScopingAndSemanticErrors - what WITH hides, what ORDER BY can see, where aggregates may stand

  Scenario Outline: [1] WITH hides every variable it does not project
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

    Examples:
      | query                                                  |
      | MATCH (a) WITH a.x AS x RETURN a                        |
      | MATCH (n) WITH n AS m RETURN n                          |
      | UNWIND [1] AS a WITH a AS b WITH b AS c RETURN a        |

  Scenario: [2] A renamed variable can take back the old name
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x WITH x AS y WITH y AS x RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 2 |
    And no side effects

  Scenario: [3] ORDER BY after a plain projection may use a variable it dropped
    Given any graph
    When executing query:
      """
      UNWIND [1, 3, 2] AS a RETURN a * 10 AS b ORDER BY a DESC
      """
    Then the result should be, in order:
      | b  |
      | 30 |
      | 20 |
      | 10 |
    And no side effects

  Scenario Outline: [4] ORDER BY after DISTINCT or aggregation sees only what was projected
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

    Examples:
      | query                                                                  |
      | UNWIND [1, 2] AS a WITH DISTINCT a AS b RETURN b ORDER BY a            |
      | UNWIND [1, 2] AS a RETURN count(*) AS n ORDER BY a                     |
      | UNWIND [1, 2] AS a WITH count(*) AS n ORDER BY a RETURN n              |
      | UNWIND [1, 2, 3] AS a RETURN a % 2 AS p, count(*) AS c ORDER BY a      |

  Scenario: [5] ORDER BY after aggregation may repeat a grouping expression
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS a RETURN a % 2 AS p, count(*) AS c ORDER BY a % 2 DESC
      """
    Then the result should be, in order:
      | p | c |
      | 1 | 2 |
      | 0 | 1 |
    And no side effects

  Scenario Outline: [6] An aggregate outside WITH and RETURN items is refused
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: InvalidAggregation

    Examples:
      | query                                                 |
      | MATCH (n) WHERE count(n) > 1 RETURN n                 |
      | UNWIND [1, 2] AS a WITH a WHERE sum(a) > 1 RETURN a   |
      | UNWIND [1] AS a CREATE ({v: count(a)})                |

  Scenario Outline: [7] An aggregate inside another aggregate is refused
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x RETURN <expr> AS v
      """
    Then a SyntaxError should be raised at compile time: NestedAggregation

    Examples:
      | expr                 |
      | count(count(x))      |
      | sum(max(x))          |
      | collect(avg(x) + 1)  |

  Scenario: [8] Mixing an aggregate with a non-grouping variable is ambiguous
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS a RETURN a + count(*) AS c
      """
    Then a SyntaxError should be raised at compile time: AmbiguousAggregationExpression

  Scenario: [9] An aggregate beside its grouping key may use that key
    Given any graph
    When executing query:
      """
      UNWIND [1, 1, 2] AS a RETURN a, count(*) * 10 + a AS c
      """
    Then the result should be, in any order:
      | a | c  |
      | 1 | 21 |
      | 2 | 12 |
    And no side effects

  Scenario Outline: [10] CREATE cannot create a variable that is already bound
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

    Examples:
      | query                                           |
      | CREATE (a) CREATE (a)                           |
      | MATCH (a) CREATE (a:Extra)                      |
      | MATCH (a) CREATE (a {p: 1})                     |
      | CREATE (a)-[r:T]->(b), (c)-[r:T]->(d)           |
      | MATCH ()-[r]->() CREATE ()-[r:T]->()            |
      | UNWIND [1] AS x UNWIND [2] AS x RETURN x        |

  Scenario: [11] A relationship used twice in one pattern can never match
    Given any graph
    When executing query:
      """
      MATCH (a)-[r]->(b), (b)-[r]->(c) RETURN r
      """
    Then a SyntaxError should be raised at compile time: RelationshipUniquenessViolation

  Scenario: [12] Within one MATCH a relationship is used once; across two MATCH clauses it may repeat
    Given an empty graph
    And having executed:
      """
      CREATE (:A)-[:T]->(:B)
      """
    When executing query:
      """
      MATCH (a)-[r1]-(b)-[r2]-(c)
      WITH count(*) AS one
      MATCH (a)-[r1]-(b) MATCH (b)-[r2]-(c)
      RETURN one, count(*) AS two
      """
    Then the result should be, in any order:
      | one | two |
      | 0   | 2   |
    And no side effects

  Scenario Outline: [13] A variable of one kind cannot be used as another
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: VariableTypeConflict

    Examples:
      | query                                      |
      | MATCH (n)-[n]->() RETURN n                  |
      | MATCH ()-[r]->() MATCH (r) RETURN r         |

  Scenario Outline: [14] RETURN * needs a variable in scope
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: NoVariablesInScope

    Examples:
      | query                     |
      | RETURN *                  |
      | MATCH () RETURN *         |
      | MATCH () WITH * RETURN *  |

  Scenario: [15] RETURN * lists the variables in name order
    Given any graph
    When executing query:
      """
      WITH 2 AS b, 1 AS a, 3 AS c RETURN *
      """
    Then the result should be, in any order:
      | a | b | c |
      | 1 | 2 | 3 |
    And no side effects

  Scenario Outline: [16] Two columns with one name are refused
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: ColumnNameConflict

    Examples:
      | query                                 |
      | RETURN 1 AS a, 2 AS a                 |
      | WITH 1 AS a, 2 AS a RETURN a          |
      | RETURN 1, 1                           |
      | UNWIND [1] AS x RETURN x, x           |
      | WITH 1 AS a RETURN *, a               |
      | WITH 1 AS a RETURN *, 2 AS a          |

  Scenario: [17] LIMIT 0 still performs the writes before it
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS i CREATE (n:Made {i: i}) RETURN n LIMIT 0
      """
    Then the result should be, in any order:
      | n |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [18] A write before WITH ... LIMIT happens for every row
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS i CREATE (n:Made {i: i}) WITH n ORDER BY n.i LIMIT 1 RETURN n.i AS i
      """
    Then the result should be, in any order:
      | i |
      | 1 |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario Outline: [19] Undefined variables anywhere in a clause are reported
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

    Examples:
      | query                                           |
      | RETURN x                                         |
      | MATCH (n) WHERE m.p = 1 RETURN n                 |
      | UNWIND [1] AS a RETURN a ORDER BY b              |
      | CREATE (n {p: q})                                |
      | MATCH (n) SET n.p = q                            |
      | MERGE (a:A) ON CREATE SET b.x = 1                |
      | RETURN [x IN [1] \| y] AS l                      |
