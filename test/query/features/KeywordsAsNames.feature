# Written from the Neo4j 5 Cypher Manual, "Syntax: Naming rules and recommendations" and "Keywords" (keywords
# may be used as names where the grammar allows them; backticks quote any other name), checked against the
# openCypher 9 grammar (whose ReservedWord list these words are on: openCypher would refuse them as variables).
Feature: KeywordsAsNames - keywords as unquoted variable, property-key, label and parameter names

  Scenario: [1] A node variable named end
    Given an empty graph
    And having executed:
      """
      CREATE ({name: 'a'})
      """
    When executing query:
      """
      MATCH (end) RETURN end.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'a'  |
    And no side effects

  Scenario: [2] Keywords of ORDER BY, SKIP and LIMIT as projected names
    Given any graph
    When executing query:
      """
      WITH 1 AS asc, 2 AS desc, 3 AS order, 4 AS by, 5 AS limit, 6 AS skip
      RETURN asc, desc, order, by, limit, skip
      """
    Then the result should be, in any order:
      | asc | desc | order | by | limit | skip |
      | 1   | 2    | 3     | 4  | 5     | 6    |
    And no side effects

  Scenario: [3] A variable named like a keyword in ORDER BY with a direction
    Given any graph
    When executing query:
      """
      UNWIND [2, 3, 1] AS desc
      RETURN desc ORDER BY desc DESC LIMIT 2
      """
    Then the result should be, in order:
      | desc |
      | 3    |
      | 2    |
    And no side effects

  Scenario: [4] Function and predicate words as variables
    Given any graph
    When executing query:
      """
      WITH 1 AS count, 2 AS exists, 3 AS all, 4 AS any, 5 AS none, 6 AS single, 7 AS contains
      RETURN count + exists + all + any + none + single + contains AS total
      """
    Then the result should be, in any order:
      | total |
      | 28    |
    And no side effects

  Scenario: [5] count as a variable and count(*) in one projection
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS count
      RETURN count(*) AS rows, count(count) AS values, sum(count) AS total
      """
    Then the result should be, in any order:
      | rows | values | total |
      | 3    | 3      | 6     |
    And no side effects

  Scenario: [6] Keywords as map keys and property keys
    Given an empty graph
    And having executed:
      """
      CREATE (:Order {count: 2, end: 'x', order: 1})
      """
    When executing query:
      """
      MATCH (o:Order)
      RETURN {end: 1}.end AS e, o.count AS c, o.end AS oe, o.order AS oo, o {.count} AS m
      """
    Then the result should be, in any order:
      | e | c | oe  | oo | m          |
      | 1 | 2 | 'x' | 1  | {count: 2} |
    And no side effects

  Scenario: [7] Keywords as labels and relationship types
    Given an empty graph
    When executing query:
      """
      CREATE (:Order)-[:LIMIT]->(:Match:Return)
      WITH 1 AS one
      MATCH (a:Order)-[r:LIMIT]->(b:Match)
      RETURN labels(a) AS la, type(r) AS t, b:Return AS isReturn
      """
    Then the result should be, in any order:
      | la        | t       | isReturn |
      | ['Order'] | 'LIMIT' | true     |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 3 |

  Scenario: [8] Keywords as parameter names
    Given any graph
    And parameters are:
      | end   | 1 |
      | limit | 2 |
      | match | 3 |
    When executing query:
      """
      RETURN $end + $limit + $match AS total
      """
    Then the result should be, in any order:
      | total |
      | 6     |
    And no side effects

  Scenario: [9] Keywords as list comprehension, reduce and quantifier variables
    Given any graph
    When executing query:
      """
      WITH [1, 2, 3] AS in
      RETURN [where IN in WHERE where > 1 | where * 10] AS big,
             reduce(set = 0, remove IN in | set + remove) AS total,
             all(case IN in WHERE case > 0) AS positive
      """
    Then the result should be, in any order:
      | big      | total | positive |
      | [20, 30] | 6     | true     |
    And no side effects

  Scenario: [10] A keyword variable in a relationship, a path and a CASE subject
    Given an empty graph
    And having executed:
      """
      CREATE (:A {v: 1})-[:T {w: 2}]->(:B {v: 3})
      """
    When executing query:
      """
      MATCH match = (when)-[then]->(else)
      RETURN length(match) AS len, CASE when.v WHEN 1 THEN then.w ELSE else.v END AS w
      """
    Then the result should be, in any order:
      | len | w |
      | 1   | 2 |
    And no side effects

  Scenario: [11] The keyword itself still starts its construct
    Given any graph
    When executing query:
      """
      WITH 1 AS not, 2 AS distinct
      RETURN DISTINCT NOT not = 2 AS negated, distinct
      """
    Then the result should be, in any order:
      | negated | distinct |
      | true    | 2        |
    And no side effects

  Scenario: [12] null, true and false stay literals and cannot name a pattern or UNWIND variable
    Given any graph
    When executing query:
      """
      UNWIND [1] AS null RETURN null
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [12b] A projection may name a column null, true or false, read again only in backticks
    Given any graph
    When executing query:
      """
      WITH 1 AS null, 2 AS true RETURN null AS n, `null` AS a, true AS t, `true` AS b
      """
    Then the result should be, in any order:
      | n    | a | t    | b |
      | null | 1 | true | 2 |
    And no side effects

  Scenario: [13] A keyword variable that is not in scope is an undefined variable
    Given any graph
    When executing query:
      """
      RETURN end
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [14] A keyword bound twice is already bound
    Given any graph
    When executing query:
      """
      UNWIND [1] AS limit UNWIND [2] AS limit RETURN limit
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound
