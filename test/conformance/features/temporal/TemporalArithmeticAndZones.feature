# Sources: Neo4j Cypher manual 5, values-and-types/temporal (adding durations: months then days then time,
# clamping to the last day of the month; named zones, daylight-saving gaps and overlaps), functions/temporal
# (truncate units per type, epochSeconds/epochMillis, datetime.fromepoch), functions/temporal/duration
# (duration.between, inMonths, inDays, inSeconds); openCypher 9 reference, temporal comparison.
Feature: TemporalArithmeticAndZones - month ends, leap days, named zones and DST, truncation, epochs, comparisons

  Scenario Outline: [1] Adding months clamps to the end of the shorter month
    Given any graph
    When executing query:
      """
      RETURN toString(<expr>) AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                     | result             |
      | date('2020-01-31') + duration('P1M')                     | '2020-02-29'       |
      | date('2021-01-31') + duration('P1M')                     | '2021-02-28'       |
      | date('2020-02-29') + duration('P1Y')                     | '2021-02-28'       |
      | date('2020-03-31') - duration('P1M')                     | '2020-02-29'       |
      | date('2019-01-31') + duration({months: 1, days: 1})      | '2019-03-01'       |
      | date('2024-02-29') + duration('P4Y')                     | '2028-02-29'       |
      | localdatetime('2020-02-28T12:00') + duration('PT24H')    | '2020-02-29T12:00' |
      | date('2020-02-29') + duration('PT36H')                   | '2020-03-01'       |
      | duration('P1M') + date('2020-01-31')                     | '2020-02-29'       |
      | date('2020-01-01') + duration('PT1H')                    | '2020-01-01'       |

  Scenario Outline: [2] Named zones across daylight-saving changes
    Given any graph
    When executing query:
      """
      RETURN toString(<expr>) AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                                     | result                                     |
      | datetime('2021-03-28T01:30[Europe/Berlin]') + duration('PT1H')           | '2021-03-28T03:30+02:00[Europe/Berlin]'    |
      | datetime('2021-03-27T02:30[Europe/Berlin]') + duration('P1D')            | '2021-03-28T03:30+02:00[Europe/Berlin]'    |
      | datetime('2021-10-31T01:30[Europe/Berlin]') + duration('PT2H')           | '2021-10-31T02:30+01:00[Europe/Berlin]'    |
      | datetime('2021-03-28T02:30[Europe/Berlin]')                              | '2021-03-28T03:30+02:00[Europe/Berlin]'    |
      | datetime('2021-10-31T02:30[Europe/Berlin]')                              | '2021-10-31T02:30+02:00[Europe/Berlin]'    |
      | datetime('2020-03-08T01:59:59[America/New_York]') + duration('PT1S')     | '2020-03-08T03:00-04:00[America/New_York]' |
      | datetime('2020-03-08T01:00[America/New_York]') + duration('P1D')         | '2020-03-09T01:00-04:00[America/New_York]' |
      | datetime.truncate('day', datetime('2021-03-28T05:00[Europe/Berlin]'))    | '2021-03-28T00:00+01:00[Europe/Berlin]'    |

  Scenario: [3] Durations between dates, and in whole units
    Given any graph
    When executing query:
      """
      RETURN duration.between(date('2020-01-01'), date('2021-03-15')) AS a, duration.inDays(date('2020-01-01'), date('2021-03-15')) AS b,
             duration.inMonths(date('2020-01-31'), date('2020-02-29')) AS c, duration.inSeconds(date('2020-01-01'), date('2020-01-02')) AS d,
             duration.between(date('2021-03-15'), date('2020-01-01')) AS e, duration.inDays(date('2024-02-28'), date('2024-03-01')) AS f,
             duration.between(datetime('2020-03-08T00:00[America/New_York]'), datetime('2020-03-09T00:00[America/New_York]')) AS g,
             duration.inSeconds(datetime('2020-03-08T00:00[America/New_York]'), datetime('2020-03-09T00:00[America/New_York]')) AS h
      """
    Then the result should be, in any order:
      | a          | b      | c      | d       | e             | f     | g     | h       |
      | 'P1Y2M14D' | 'P439D' | 'PT0S' | 'PT24H' | 'P-1Y-2M-14D' | 'P2D' | 'P1D' | 'PT23H' |
    And no side effects

  Scenario: [4] Truncating a date-time to every unit keeps its offset
    Given any graph
    When executing query:
      """
      WITH datetime('2021-06-15T13:45:30.123456789+02:00') AS d
      UNWIND ['millennium', 'century', 'decade', 'year', 'weekYear', 'quarter', 'month', 'week', 'day',
              'hour', 'minute', 'second', 'millisecond', 'microsecond'] AS unit
      RETURN unit, toString(datetime.truncate(unit, d)) AS t
      """
    Then the result should be, in any order:
      | unit          | t                                  |
      | 'millennium'  | '2000-01-01T00:00+02:00'           |
      | 'century'     | '2000-01-01T00:00+02:00'           |
      | 'decade'      | '2020-01-01T00:00+02:00'           |
      | 'year'        | '2021-01-01T00:00+02:00'           |
      | 'weekYear'    | '2021-01-04T00:00+02:00'           |
      | 'quarter'     | '2021-04-01T00:00+02:00'           |
      | 'month'       | '2021-06-01T00:00+02:00'           |
      | 'week'        | '2021-06-14T00:00+02:00'           |
      | 'day'         | '2021-06-15T00:00+02:00'           |
      | 'hour'        | '2021-06-15T13:00+02:00'           |
      | 'minute'      | '2021-06-15T13:45+02:00'           |
      | 'second'      | '2021-06-15T13:45:30+02:00'        |
      | 'millisecond' | '2021-06-15T13:45:30.123+02:00'    |
      | 'microsecond' | '2021-06-15T13:45:30.123456+02:00' |
    And no side effects

  Scenario: [5] Truncating dates, local date-times and times
    Given any graph
    When executing query:
      """
      RETURN toString(date.truncate('week', date('2021-01-01'))) AS a, toString(date.truncate('weekYear', date('2021-01-01'))) AS b,
             toString(date.truncate('quarter', date('2021-08-20'))) AS c, toString(localdatetime.truncate('hour', localdatetime('2021-08-20T10:59:59'))) AS d,
             toString(localtime.truncate('minute', localtime('13:45:30.5'))) AS e, toString(time.truncate('second', time('13:45:30.5+01:00'))) AS f,
             toString(localtime.truncate('day', localtime('10:00'))) AS g, toString(date.truncate('month', datetime('2021-08-20T10:00Z'))) AS h
      """
    Then the result should be, in any order:
      | a            | b            | c            | d                  | e       | f                | g       | h            |
      | '2020-12-28' | '2019-12-30' | '2021-07-01' | '2021-08-20T10:00' | '13:45' | '13:45:30+01:00' | '00:00' | '2021-08-01' |
    And no side effects

  Scenario Outline: [6] A date cannot be truncated to a unit finer than a day
    Given any graph
    When executing query:
      """
      RETURN date.truncate('<unit>', date('2020-01-01')) AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | unit        |
      | hour        |
      | minute      |
      | millisecond |

  Scenario: [7] Epoch construction and accessors
    Given any graph
    When executing query:
      """
      RETURN toString(datetime({epochSeconds: 0})) AS a, toString(datetime({epochMillis: 1500})) AS b,
             toString(datetime.fromepoch(1, 500000000)) AS c, toString(datetime.fromepochmillis(-1)) AS d,
             datetime({epochSeconds: 1, nanosecond: 5}).epochMillis AS e, datetime('1970-01-01T00:00:01.999Z').epochSeconds AS f,
             datetime('2020-01-01T00:00+01:00').epochMillis AS g
      """
    Then the result should be, in any order:
      | a                   | b                         | c                         | d                          | e    | f | g             |
      | '1970-01-01T00:00Z' | '1970-01-01T00:00:01.500Z' | '1970-01-01T00:00:01.500Z' | '1969-12-31T23:59:59.999Z' | 1000 | 1 | 1577833200000 |
    And no side effects

  Scenario: [8] Instants compare across offsets and zones; one instant in two zones is two values
    Given any graph
    When executing query:
      """
      RETURN datetime('2020-01-01T12:00+02:00') = datetime('2020-01-01T10:00Z') AS a,
             datetime('2020-01-01T12:00+02:00') < datetime('2020-01-01T11:00Z') AS b,
             time('12:00+02:00') = time('10:00Z') AS c, time('12:00+02:00') < time('11:00Z') AS d,
             datetime('2020-01-01T12:00[Europe/Paris]') = datetime('2020-01-01T12:00+01:00') AS e,
             datetime('2020-07-01T12:00[Europe/Paris]').epochMillis = datetime('2020-07-01T10:00Z').epochMillis AS f,
             datetime('2020-01-01T12:00+02:00') > datetime('2020-01-01T10:00Z') AS g,
             time('12:00+02:00') >= time('10:00Z') AS h,
             datetime('2020-01-01T12:00[Europe/Paris]') = datetime('2020-01-01T12:00[Europe/Paris]') AS i
      """
    Then the result should be, in any order:
      | a     | b    | c     | d    | e     | f    | g    | h    | i    |
      | false | true | false | true | false | true | true | true | true |
    And no side effects

  Scenario: [9] Values of different temporal types and durations do not order
    Given any graph
    When executing query:
      """
      RETURN date('2020-01-01') < localdatetime('2020-01-02T00:00') AS a, date('2020-01-01') = localdatetime('2020-01-01T00:00') AS b,
             duration('P1D') < duration('PT25H') AS c, duration('P1D') = duration('PT24H') AS d, duration('PT60M') = duration('PT1H') AS e
      """
    Then the result should be, in any order:
      | a    | b     | c    | d     | e    |
      | null | false | null | false | true |
    And no side effects

  Scenario: [10] Times wrap around midnight
    Given any graph
    When executing query:
      """
      RETURN toString(time('10:00+01:00') + duration('PT15H')) AS a, toString(localtime('23:30') + duration('PT1H')) AS b,
             toString(localtime('00:30') - duration('P1DT1H')) AS c, toString(localtime('12:00') + duration('P1M')) AS d
      """
    Then the result should be, in any order:
      | a             | b       | c       | d       |
      | '01:00+01:00' | '00:30' | '23:30' | '12:00' |
    And no side effects

  Scenario: [11] Fractional duration components cascade into smaller units
    Given any graph
    When executing query:
      """
      RETURN toString(duration({days: 1.5})) AS a, toString(duration({months: 1.5})) AS b, toString(duration({hours: -1.5})) AS c,
             toString(duration('P0.5Y')) AS d, toString(duration({weeks: 1, days: 1})) AS e
      """
    Then the result should be, in any order:
      | a         | b                  | c            | d    | e     |
      | 'P1DT12H' | 'P1M15DT5H14M33S'  | 'PT-1H-30M'  | 'P6M' | 'P8D' |
    And no side effects

  Scenario Outline: [12] Impossible dates and unknown zones are refused
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                              |
      | date('2020-02-30')                                |
      | date('2021-02-29')                                |
      | datetime('2020-01-01T00:00[Mars/Olympus]')        |
      | date({year: 2021, ordinalDay: 366})               |
      | date({year: 2021, week: 53})                      |
      | localtime('24:01')                                |
