# Sources: Cypher manual (Cypher 25), clauses/let (LET binds expressions to new variables, each
# binding seeing those before it) and clauses/filter (FILTER [WHERE] keeps the rows whose
# condition is true), both standing for a WITH * that passes every variable on.
Feature: LetAndFilter - LET binds new variables and FILTER keeps rows, between other clauses

  Scenario: [1] LET adds a variable to every row and keeps the others
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS x
      LET y = x * 2
      RETURN x, y
      """
    Then the result should be, in order:
      | x | y |
      | 1 | 2 |
      | 2 | 4 |
      | 3 | 6 |
    And no side effects

  Scenario: [2] A binding may use the bindings written before it in the same LET
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x
      LET y = x * 10, z = y + x
      RETURN *
      """
    Then the result should be, in order:
      | x | y  | z  |
      | 1 | 10 | 11 |
      | 2 | 20 | 22 |
    And no side effects

  Scenario: [3] LET may start a query
    Given any graph
    When executing query:
      """
      LET greeting = 'hello'
      RETURN greeting || ' world' AS g
      """
    Then the result should be, in any order:
      | g             |
      | 'hello world' |
    And no side effects

  Scenario: [4] FILTER keeps the rows whose condition is true, with or without WHERE
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3, null] AS x
      FILTER x > 1
      FILTER WHERE x <> 3
      RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs  |
      | [2] |
    And no side effects

  Scenario: [5] LET and FILTER over graph elements, between MATCH and an update
    Given an empty graph
    And having executed:
      """
      CREATE (:P {name: 'Ada', born: 1815}), (:P {name: 'Bo', born: 1990})
      """
    When executing query:
      """
      MATCH (p:P)
      LET age = 2000 - p.born
      FILTER age > 100
      SET p.old = true
      RETURN p.name AS name, age
      """
    Then the result should be, in any order:
      | name  | age |
      | 'Ada' | 185 |
    And the side effects should be:
      | +properties | 1 |

  Scenario Outline: [6] LET cannot rebind a name
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

    Examples:
      | query                                   |
      | UNWIND [1] AS x LET x = 2 RETURN x      |
      | LET a = 1, a = 2 RETURN a               |

  Scenario: [7] LET binds one value per row: an aggregate is refused
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x LET c = count(*) RETURN c
      """
    Then a SyntaxError should be raised at compile time: InvalidAggregation

  Scenario: [8] A FILTER condition must be able to be a boolean
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x FILTER 'yes' RETURN x
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [9] A query cannot end with LET or FILTER
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x LET y = x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [10] let and filter remain usable as variable names
    Given any graph
    When executing query:
      """
      WITH 1 AS let, 2 AS filter
      RETURN let + filter AS s
      """
    Then the result should be, in any order:
      | s |
      | 3 |
    And no side effects
