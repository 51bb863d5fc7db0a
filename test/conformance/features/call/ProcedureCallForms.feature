Feature: ProcedureCallForms - standalone and in-query calls, YIELD forms and the results they give

  Background:
    Given an empty graph
    And there exists a procedure test.tide.levels(port :: STRING?) :: (hour :: INTEGER?, metres :: FLOAT?):
      | port   | hour | metres |
      | 'Brest' | 6   | 7.1    |
      | 'Brest' | 12  | 1.4    |
      | 'Cadiz' | 3   | 2.2    |

  Scenario: [1] A standalone call without YIELD returns every output, in signature order
    When executing query:
      """
      CALL test.tide.levels('Brest')
      """
    Then the result should be, in order:
      | hour | metres |
      | 6    | 7.1    |
      | 12   | 1.4    |
    And no side effects

  Scenario: [2] A standalone call with YIELD returns only the yielded outputs, renamed
    When executing query:
      """
      CALL test.tide.levels('Brest') YIELD metres AS m
      """
    Then the result should be, in order:
      | m   |
      | 7.1 |
      | 1.4 |
    And no side effects

  Scenario: [3] A standalone call with YIELD * returns every output
    When executing query:
      """
      CALL test.tide.levels('Cadiz') YIELD *
      """
    Then the result should be, in order:
      | hour | metres |
      | 3    | 2.2    |
    And no side effects

  Scenario: [4] A standalone call may filter what it yields
    When executing query:
      """
      CALL test.tide.levels('Brest') YIELD hour, metres WHERE metres > 2.0
      """
    Then the result should be, in order:
      | hour | metres |
      | 6    | 7.1    |
    And no side effects

  Scenario: [5] An in-query call joins its rows to each incoming row
    When executing query:
      """
      UNWIND ['Cadiz', 'Brest', 'Oslo'] AS p
      CALL test.tide.levels(p) YIELD hour
      RETURN p, count(hour) AS readings
      """
    Then the result should be, in any order:
      | p       | readings |
      | 'Cadiz' | 1        |
      | 'Brest' | 2        |
    And no side effects

  Scenario: [6] An in-query call can feed aggregation and ordering
    When executing query:
      """
      CALL test.tide.levels('Brest') YIELD hour, metres
      WITH hour, metres ORDER BY metres
      RETURN collect(hour) AS hours, max(metres) AS highest
      """
    Then the result should be, in any order:
      | hours   | highest |
      | [12, 6] | 7.1     |
    And no side effects

  Scenario: [7] An integer argument is widened for a FLOAT input
    Given an empty graph
    And there exists a procedure test.tide.over(limit :: FLOAT?) :: (ok :: BOOLEAN?):
      | limit | ok   |
      | 2.0   | true |
    When executing query:
      """
      CALL test.tide.over(2)
      """
    Then the result should be, in order:
      | ok   |
      | true |
    And no side effects

  Scenario: [8] Yielding an output the procedure does not have is refused
    When executing query:
      """
      CALL test.tide.levels('Brest') YIELD depth
      RETURN depth
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [9] A call inside a query needs YIELD to use its outputs
    When executing query:
      """
      CALL test.tide.levels('Brest')
      RETURN hour
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [10] Procedure names are matched with their namespace exactly
    When executing query:
      """
      CALL test.tides.levels('Brest')
      """
    Then a ProcedureError should be raised at compile time: ProcedureNotFound

  Scenario: [11] Name segments may be reserved words
    Given an empty graph
    And there exists a procedure test.create.all() :: (made :: INTEGER?):
      | made |
      | 3    |
    When executing query:
      """
      CALL test.create.all() YIELD made
      RETURN made
      """
    Then the result should be, in order:
      | made |
      | 3    |
    And no side effects
