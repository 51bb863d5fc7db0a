# Written from the Neo4j 5 Cypher Manual's temporal function pages ("Temporal functions - instant types",
# "Duration functions") and "Casting data values": a temporal value made by a temporal function has a type
# known before the query runs, so an argument or operand of a kind the function or operator never takes is
# refused at compile time (docs/cypher.md section 2.4); what it does take still runs.
Feature: TemporalArgumentTypes - temporal values checked before the query runs

  Scenario Outline: [1] A temporal argument a function never takes
    Given any graph
    When executing query:
      """
      WITH <value> AS t RETURN <call> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | value                          | call              |
      | date('2020-01-01')             | toFloat(t)        |
      | datetime('2020-01-01T10:00Z')  | toInteger(t)      |
      | duration('P1D')                | toBoolean(t)      |
      | localtime('12:00')             | trim(t)           |
      | time('12:00Z')                 | size(t)           |
      | localdatetime('2020-01-01T10:00') | abs(t)         |
      | date.statement()               | head(t)           |
      | datetime.truncate('day', datetime('2020-01-01T10:00Z')) | sqrt(t) |
      | duration.between(date('2020-01-01'), date('2020-02-01')) | stDev(t) |
      | datetime.fromEpoch(1, 0)       | keys(t)           |
      | duration('P1D')                | date(t)           |
      | date('2020-01-01')             | duration(t)       |
      | duration('P1D')                | duration.inDays(t, date('2020-01-01')) |
      | duration('P1D')                | date.truncate('day', t) |

  Scenario Outline: [2] Operators a temporal value never takes
    Given any graph
    When executing query:
      """
      WITH <value> AS t RETURN <expr> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | value                 | expr      |
      | date('2020-01-01')    | -t        |
      | date('2020-01-01')    | t + 1     |
      | date('2020-01-01')    | t * 2     |
      | duration('P1D')       | t % 2     |
      | duration('P1D')       | t ^ 2     |
      | duration('P1D')       | 2 / t     |
      | localtime('12:00')    | t - date('2020-01-01') |

  Scenario: [3] What temporal values do take still runs
    Given any graph
    When executing query:
      """
      WITH date('2020-01-31') AS d, duration('P1M') AS p
      RETURN toString(d) AS text, 'on ' + d AS joined, d + p AS later, -p AS back, p * 2 AS twice, p / 2 AS half,
             d.year AS year, date(datetime('2020-01-01T10:00Z')) AS day, duration(p) AS same,
             duration.inDays(d, d + p).days AS days, toStringOrNull(p) AS maybe
      """
    Then the result should be, in any order:
      | text         | joined          | later        | back    | twice  | half          | year | day          | same   | days | maybe  |
      | '2020-01-31' | 'on 2020-01-31' | '2020-02-29' | 'P-1M'  | 'P2M'  | 'P15DT5H14M33S' | 2020 | '2020-01-01' | 'P1M'  | 29   | 'P1M'  |
    And no side effects

  Scenario: [4] Aggregates over durations
    Given any graph
    When executing query:
      """
      UNWIND [duration('P1D'), duration('PT12H')] AS d RETURN sum(d) AS total, avg(d) AS mean, min(d) AS least
      """
    Then the result should be, in any order:
      | total        | mean        | least    |
      | 'P1DT12H'    | 'PT18H'     | 'PT12H'  |
    And no side effects

  Scenario: [5] A value whose type is known only when the row runs is checked then
    Given any graph
    And parameters are:
      | d | '2020-01-01' |
    When executing query:
      """
      WITH date($d) AS fromParameter, [date('2020-01-01'), 'x'][0] AS fromMixedList
      RETURN toFloat(fromMixedList) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue
