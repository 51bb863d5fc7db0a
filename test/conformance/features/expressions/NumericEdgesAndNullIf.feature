# Sources: Neo4j Cypher manual 5, values-and-types/ordering-equality-comparison (NaN is not equal to
# itself yet sorts above every number; infinities compare with integers; -0.0 equals 0.0) and
# functions/scalar (nullIf, coalesce); openCypher 9 reference, comparability of INTEGER and FLOAT.
Feature: NumericEdgesAndNullIf - NaN and infinities in comparisons and aggregates, exact integer-float comparison, nullIf

  Scenario: [1] Infinities compare with every integer; NaN compares with nothing
    Given any graph
    When executing query:
      """
      WITH 1.0 / 0.0 AS inf, 0.0 / 0.0 AS nan
      RETURN inf > 9223372036854775807 AS a, -inf < -9223372036854775807 - 1 AS b, inf = inf AS c, nan IN [nan] AS d,
             nan = 1 AS e, nan <> nan AS f, isNaN(inf - inf) AS g, inf >= inf AS h, nan >= nan AS i
      """
    Then the result should be, in any order:
      | a    | b    | c    | d     | e     | f    | g    | h    | i     |
      | true | true | true | false | false | true | true | true | false |
    And no side effects

  Scenario: [2] max takes NaN as the largest number; DISTINCT takes all NaNs as one
    Given any graph
    When executing query:
      """
      WITH 0.0 / 0.0 AS nan
      UNWIND [1, nan, 2, nan] AS v
      RETURN min(v) AS mn, isNaN(max(v)) AS mxIsNaN, count(DISTINCT v) AS c
      """
    Then the result should be, in any order:
      | mn | mxIsNaN | c |
      | 1  | true    | 3 |
    And no side effects

  Scenario: [3] Integers and floats compare exactly, beyond the precision of a double
    Given any graph
    When executing query:
      """
      RETURN 9007199254740993 = 9007199254740992.0 AS a, 9007199254740993 > 9007199254740992.0 AS b, 1 = 1.0 AS c,
             9223372036854775807 = 9223372036854775807.0 AS d, 9223372036854775807 < 9223372036854775807.0 AS e
      """
    Then the result should be, in any order:
      | a     | b    | c    | d     | e    |
      | false | true | true | false | true |
    And no side effects

  Scenario: [4] Negative zero equals zero and is one value to DISTINCT
    Given any graph
    When executing query:
      """
      UNWIND [0.0, -0.0] AS z
      RETURN count(DISTINCT z) AS c, -0.0 = 0.0 AS a, -0.0 < 0.0 AS b, 0 = -0.0 AS d
      """
    Then the result should be, in any order:
      | c | a    | b     | d    |
      | 1 | true | false | true |
    And no side effects

  Scenario: [5] nullIf gives null when its arguments are equal, else the first
    Given any graph
    When executing query:
      """
      RETURN nullIf(1, 1) AS a, nullIf(1, 2) AS b, nullIf(1, 1.0) AS c, nullIf(null, 1) AS d, nullIf(1, null) AS e,
             nullIf([1, null], [1, null]) AS f, nullIf('', '') AS g, coalesce(nullIf('', ''), 'empty') AS h
      """
    Then the result should be, in any order:
      | a    | b | c    | d    | e | f         | g    | h       |
      | null | 1 | null | null | 1 | [1, null] | null | 'empty' |
    And no side effects
