# Sources: Neo4j Cypher manual 5, expressions/conditional-expressions (simple CASE with several values per
# WHEN; extended simple CASE with comparison operators, IS [NOT] NULL, IS [NOT] TYPED, IS NORMALIZED,
# STARTS WITH, ENDS WITH and =~) and clauses/skip (OFFSET as a synonym of SKIP).
Feature: ExtendedCaseAndOffset - several values and comparison operators per WHEN, and OFFSET

  Scenario: [1] A simple CASE may list several values per WHEN
    Given any graph
    When executing query:
      """
      UNWIND ['blue', 'brown', 'hazel', 'green'] AS eyes
      RETURN eyes, CASE eyes WHEN 'blue' THEN 1 WHEN 'brown', 'hazel' THEN 2 ELSE 3 END AS r
      """
    Then the result should be, in any order:
      | eyes    | r |
      | 'blue'  | 1 |
      | 'brown' | 2 |
      | 'hazel' | 2 |
      | 'green' | 3 |
    And no side effects

  Scenario: [2] Comparison operators, IS NULL and IS TYPED in an extended simple CASE
    Given any graph
    When executing query:
      """
      UNWIND [null, 0, 1, 7, 15, 'x', 2.5] AS age
      RETURN age, CASE age
        WHEN IS NULL, IS NOT TYPED INTEGER THEN 'unknown'
        WHEN = 0, = 1 THEN 'baby'
        WHEN <= 13 THEN 'child'
        ELSE 'older'
      END AS r
      """
    Then the result should be, in any order:
      | age  | r         |
      | null | 'unknown' |
      | 0    | 'baby'    |
      | 1    | 'baby'    |
      | 7    | 'child'   |
      | 15   | 'older'   |
      | 'x'  | 'unknown' |
      | 2.5  | 'unknown' |
    And no side effects

  Scenario: [3] String operators in an extended simple CASE
    Given any graph
    When executing query:
      """
      UNWIND ['abc', 'xbz', 'q'] AS s
      RETURN s, CASE s WHEN STARTS WITH 'a' THEN 'a..' WHEN ENDS WITH 'z' THEN '..z' WHEN =~ '[a-z]' THEN 'one' END AS r
      """
    Then the result should be, in any order:
      | s     | r     |
      | 'abc' | 'a..' |
      | 'xbz' | '..z' |
      | 'q'   | 'one' |
    And no side effects

  Scenario: [4] A null subject matches only IS NULL, never a value
    Given any graph
    When executing query:
      """
      RETURN CASE null WHEN null, 1 THEN 'eq' ELSE 'no' END AS a, CASE null WHEN IS NOT NULL THEN 'x' WHEN IS NULL THEN 'null' END AS b,
             CASE 5 WHEN <> 5 THEN 'ne' WHEN > 4 THEN 'gt' END AS c
      """
    Then the result should be, in any order:
      | a    | b      | c    |
      | 'no' | 'null' | 'gt' |
    And no side effects

  Scenario: [5] A generic CASE takes one condition per WHEN
    Given any graph
    When executing query:
      """
      RETURN CASE WHEN true, false THEN 1 END AS r
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [6] OFFSET skips like SKIP, and stays usable as a name
    Given any graph
    When executing query:
      """
      UNWIND [3, 1, 2] AS offset
      RETURN offset ORDER BY offset OFFSET 1 LIMIT 1
      """
    Then the result should be, in order:
      | offset |
      | 2      |
    And no side effects
