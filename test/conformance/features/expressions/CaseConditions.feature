# Sources: Neo4j Cypher manual 5, queries/case (a generic CASE tests boolean predicates; the first
# true one wins, null counts as not true) and the openCypher 9 reference (a condition of another
# type is a type error found before running when the type is known).
Feature: CaseConditions - the WHEN of a generic CASE is a boolean condition

  Scenario: [1] A null or false condition is passed over
    Given any graph
    When executing query:
      """
      RETURN CASE WHEN null THEN 1 ELSE 2 END AS a, CASE WHEN false THEN 1 WHEN 1 = 1 THEN 3 END AS b,
             CASE WHEN null = null THEN 'eq' END AS c
      """
    Then the result should be, in any order:
      | a | b | c    |
      | 2 | 3 | null |
    And no side effects

  Scenario Outline: [2] A condition that can never be a boolean is refused before running
    Given any graph
    When executing query:
      """
      WITH 'x' AS s, [true] AS l RETURN CASE WHEN <condition> THEN 1 ELSE 2 END AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | condition |
      | 'x'       |
      | 1         |
      | s         |
      | l         |
      | {a: true} |

  Scenario: [3] A condition of unknown type is checked when it is reached
    Given any graph
    And parameters are:
      | p | 'yes' |
    When executing query:
      """
      RETURN CASE WHEN $p THEN 1 ELSE 2 END AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [4] A simple CASE compares its subject with any value
    Given any graph
    When executing query:
      """
      WITH 'x' AS s RETURN CASE s WHEN 'x' THEN 1 WHEN 1 THEN 2 END AS r
      """
    Then the result should be, in any order:
      | r |
      | 1 |
    And no side effects
