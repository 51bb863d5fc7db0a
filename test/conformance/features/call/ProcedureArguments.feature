Feature: ProcedureArguments - how arguments reach a procedure, and the checks made before running

  Scenario: [1] A standalone call without parentheses takes its arguments from same-named parameters
    Given an empty graph
    And there exists a procedure test.shelf.find(code :: STRING?) :: (title :: STRING?):
      | code  | title      |
      | 'b12' | 'Dune'     |
      | 'c07' | 'Solaris'  |
    And parameters are:
      | code | 'c07' |
    When executing query:
      """
      CALL test.shelf.find
      """
    Then the result should be, in order:
      | title     |
      | 'Solaris' |
    And no side effects

  Scenario: [2] A standalone call without parentheses needs every parameter it reads
    Given an empty graph
    And there exists a procedure test.shelf.find(code :: STRING?) :: (title :: STRING?):
      | code  | title  |
      | 'b12' | 'Dune' |
    When executing query:
      """
      CALL test.shelf.find
      """
    Then a ParameterMissing should be raised at compile time: MissingParameter

  Scenario: [3] A call inside a larger query must pass its arguments in parentheses
    Given an empty graph
    And there exists a procedure test.shelf.find(code :: STRING?) :: (title :: STRING?):
      | code  | title  |
      | 'b12' | 'Dune' |
    And parameters are:
      | code | 'b12' |
    When executing query:
      """
      CALL test.shelf.find YIELD title
      RETURN title
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentPassingMode

  Scenario: [4] A call inside a larger query to a procedure without inputs needs no parentheses
    Given an empty graph
    And there exists a procedure test.shelf.everything() :: (title :: STRING?):
      | title     |
      | 'Dune'    |
      | 'Solaris' |
    When executing query:
      """
      CALL test.shelf.everything YIELD title
      RETURN title ORDER BY title DESC
      """
    Then the result should be, in order:
      | title     |
      | 'Solaris' |
      | 'Dune'    |
    And no side effects

  Scenario Outline: [5] An argument of a type the procedure does not take is refused before running
    Given an empty graph
    And there exists a procedure test.shelf.byYear(year :: INTEGER?) :: (title :: STRING?):
      | year | title  |
      | 1965 | 'Dune' |
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | query                                                     |
      | CALL test.shelf.byYear('1965')                            |
      | CALL test.shelf.byYear(false) YIELD title RETURN title    |
      | CALL test.shelf.byYear([1965])                            |
      | CALL test.shelf.byYear({y: 1965}) YIELD title RETURN 1 AS x |
      | CALL test.shelf.byYear(19.65)                             |

  Scenario: [6] A null argument is passed through
    Given an empty graph
    And there exists a procedure test.shelf.byYear(year :: INTEGER?) :: (title :: STRING?):
      | year | title      |
      | null | 'Untitled' |
      | 1965 | 'Dune'     |
    When executing query:
      """
      CALL test.shelf.byYear(null)
      """
    Then the result should be, in order:
      | title      |
      | 'Untitled' |
    And no side effects

  Scenario Outline: [7] The number of arguments must match the signature
    Given an empty graph
    And there exists a procedure test.shelf.between(lo :: INTEGER?, hi :: INTEGER?) :: (title :: STRING?):
      | lo   | hi   | title  |
      | 1960 | 1970 | 'Dune' |
    When executing query:
      """
      CALL test.shelf.between(<args>)
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberOfArguments

    Examples:
      | args             |
      | 1960             |
      | 1960, 1970, 1980 |

  Scenario: [8] Arguments may be expressions over the rows of the query
    Given an empty graph
    And there exists a procedure test.shelf.between(lo :: INTEGER?, hi :: INTEGER?) :: (title :: STRING?):
      | lo   | hi   | title     |
      | 1960 | 1970 | 'Dune'    |
      | 1960 | 1970 | 'Solaris' |
      | 1980 | 1990 | 'Neuro'   |
    When executing query:
      """
      UNWIND [1960, 1980] AS start
      CALL test.shelf.between(start, start + 10) YIELD title AS t
      WHERE t <> 'Solaris'
      RETURN start, t
      """
    Then the result should be, in any order:
      | start | t       |
      | 1960  | 'Dune'  |
      | 1980  | 'Neuro' |
    And no side effects

  Scenario: [9] An unknown procedure is reported as such
    Given an empty graph
    When executing query:
      """
      CALL test.shelf.missing()
      """
    Then a ProcedureError should be raised at compile time: ProcedureNotFound

  Scenario: [10] Yielding a variable that is already bound is refused
    Given an empty graph
    And there exists a procedure test.shelf.everything() :: (title :: STRING?):
      | title  |
      | 'Dune' |
    When executing query:
      """
      WITH 'x' AS title
      CALL test.shelf.everything() YIELD title
      RETURN title
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [11] A procedure with no outputs leaves the rows as they were
    Given an empty graph
    And there exists a procedure test.shelf.touch() :: ():
      |
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CALL test.shelf.touch()
      RETURN sum(i) AS s
      """
    Then the result should be, in order:
      | s |
      | 6 |
    And no side effects
