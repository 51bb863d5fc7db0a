Feature: AggregationEdges - aggregates over nulls, mixed numbers, single rows and bad arguments

  Scenario: [1] Nulls are skipped by collect and count of a value, not by count(*)
    Given any graph
    When executing query:
      """
      UNWIND [7, null, 8, null, null] AS x
      RETURN collect(x) AS xs, count(x) AS values, count(*) AS rows
      """
    Then the result should be, in any order:
      | xs     | values | rows |
      | [7, 8] | 2      | 5    |
    And no side effects

  Scenario: [2] Aggregates over nothing but nulls
    Given any graph
    When executing query:
      """
      UNWIND [null, null] AS x
      RETURN collect(x) AS c, sum(x) AS s, avg(x) AS a, min(x) AS lo, max(x) AS hi, count(DISTINCT x) AS d
      """
    Then the result should be, in any order:
      | c  | s | a    | lo   | hi   | d |
      | [] | 0 | null | null | null | 0 |
    And no side effects

  Scenario: [3] sum of integers stays an integer; one float makes it a float
    Given any graph
    When executing query:
      """
      UNWIND [[3, 4, 5], [3, 4.5, 5]] AS xs
      UNWIND xs AS x
      WITH xs, x
      RETURN xs, sum(x) AS s, avg(x) AS a
      """
    Then the result should be, in any order:
      | xs          | s    | a   |
      | [3, 4, 5]   | 12   | 4.0 |
      | [3, 4.5, 5] | 12.5 | 4.166666666666667 |
    And no side effects

  Scenario: [4] Standard deviation of a single row is zero
    Given any graph
    When executing query:
      """
      UNWIND [42] AS x
      RETURN stDev(x) AS sample, stDevP(x) AS population
      """
    Then the result should be, in any order:
      | sample | population |
      | 0.0    | 0.0        |
    And no side effects

  Scenario: [5] Percentiles at the ends of the range and between values
    Given any graph
    When executing query:
      """
      UNWIND [10, 20, 30, 40] AS x
      RETURN percentileDisc(x, 0.0) AS d0, percentileDisc(x, 1.0) AS d1, percentileDisc(x, 0.5) AS dm,
             percentileCont(x, 0.0) AS c0, percentileCont(x, 1.0) AS c1, percentileCont(x, 0.5) AS cm
      """
    Then the result should be, in any order:
      | d0 | d1 | dm | c0   | c1   | cm   |
      | 10 | 40 | 20 | 10.0 | 40.0 | 25.0 |
    And no side effects

  Scenario Outline: [6] A percentile outside 0.0 to 1.0 is refused
    Given any graph
    When executing query:
      """
      UNWIND [10, 20] AS x
      RETURN <fn>(x, <p>) AS v
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

    Examples:
      | fn             | p     |
      | percentileDisc | 1.01  |
      | percentileDisc | -0.5  |
      | percentileCont | 2     |
      | percentileCont | -1    |

  Scenario: [7] DISTINCT aggregates count each value once
    Given any graph
    When executing query:
      """
      UNWIND [2, 2, 3, null, 3, 3] AS x
      RETURN count(DISTINCT x) AS n, sum(DISTINCT x) AS s, collect(DISTINCT x) AS xs
      """
    Then the result should be (ignoring element order for lists):
      | n | s | xs     |
      | 2 | 5 | [2, 3] |
    And no side effects

  Scenario: [8] 1 and 1.0 are one value to DISTINCT
    Given any graph
    When executing query:
      """
      UNWIND [1, 1.0, 2] AS x
      RETURN count(DISTINCT x) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  Scenario: [9] min and max over mixed types follow the global sort order
    Given any graph
    When executing query:
      """
      UNWIND [3, 'pear', [1, 2], false] AS x
      RETURN min(x) AS lo, max(x) AS hi
      """
    Then the result should be, in any order:
      | lo     | hi |
      | [1, 2] | 3  |
    And no side effects

  Scenario: [10] Summing past the largest integer overflows
    Given any graph
    When executing query:
      """
      UNWIND [9223372036854775800, 8] AS x
      RETURN sum(x) AS s
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

  Scenario: [11] Durations can be summed and averaged
    Given any graph
    When executing query:
      """
      UNWIND [duration('PT1H'), duration('PT2H'), duration('P1D')] AS d
      RETURN sum(d) AS total, avg(d) AS mean
      """
    Then the result should be, in any order:
      | total     | mean     |
      | 'P1DT3H'  | 'PT9H'   |
    And no side effects

  Scenario Outline: [12] Aggregating a random value is refused
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x
      RETURN <agg> AS v
      """
    Then a SyntaxError should be raised at compile time: NonConstantExpression

    Examples:
      | agg                       |
      | count(rand())             |
      | sum(x * rand())           |
      | collect(toInteger(rand())) |

  Scenario: [13] Aggregating the statement's timestamp is allowed
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS x
      RETURN count(DISTINCT timestamp()) AS n
      """
    Then the result should be, in any order:
      | n |
      | 1 |
    And no side effects

  Scenario: [14] Aggregates over no rows at all
    Given any graph
    When executing query:
      """
      UNWIND [] AS x
      RETURN count(x) AS n, sum(x) AS s, avg(x) AS a, collect(x) AS c, max(x) AS m
      """
    Then the result should be, in any order:
      | n | s | a    | c  | m    |
      | 0 | 0 | null | [] | null |
    And no side effects
