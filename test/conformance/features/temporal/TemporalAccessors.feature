# Sources: Neo4j Cypher manual 5, values-and-types/temporal ("Components of temporal instants": which
# component each type has, the weekDay and quarterDay aliases, epochSeconds and epochMillis; "Components
# of durations": the whole-unit and "of" accessors, negative durations).
Feature: TemporalAccessors - every component of every temporal type

  Scenario: [1] Components of a date
    Given any graph
    When executing query:
      """
      WITH date({year: 1984, month: 10, day: 11}) AS d
      RETURN d.year, d.quarter, d.month, d.week, d.weekYear, d.day, d.ordinalDay, d.dayOfWeek, d.weekDay,
             d.dayOfQuarter, d.quarterDay
      """
    Then the result should be, in any order:
      | d.year | d.quarter | d.month | d.week | d.weekYear | d.day | d.ordinalDay | d.dayOfWeek | d.weekDay | d.dayOfQuarter | d.quarterDay |
      | 1984   | 4         | 10      | 41     | 1984       | 11    | 285          | 4           | 4         | 11             | 11           |
    And no side effects

  Scenario: [2] Components of a date-time in a named zone
    Given any graph
    When executing query:
      """
      WITH datetime({year: 1984, month: 11, day: 11, hour: 12, minute: 31, second: 14, nanosecond: 645876123,
                     timezone: 'Europe/Stockholm'}) AS d
      RETURN d.year, d.quarter, d.month, d.week, d.weekYear, d.day, d.ordinalDay, d.dayOfWeek, d.dayOfQuarter,
             d.hour, d.minute, d.second, d.millisecond, d.microsecond, d.nanosecond,
             d.timezone, d.offset, d.offsetMinutes, d.offsetSeconds, d.epochSeconds, d.epochMillis
      """
    Then the result should be, in any order:
      | d.year | d.quarter | d.month | d.week | d.weekYear | d.day | d.ordinalDay | d.dayOfWeek | d.dayOfQuarter | d.hour | d.minute | d.second | d.millisecond | d.microsecond | d.nanosecond | d.timezone         | d.offset | d.offsetMinutes | d.offsetSeconds | d.epochSeconds | d.epochMillis |
      | 1984   | 4         | 11      | 45     | 1984       | 11    | 316          | 7           | 42             | 12     | 31       | 14       | 645           | 645876        | 645876123    | 'Europe/Stockholm' | '+01:00' | 60              | 3600            | 469020674      | 469020674645  |
    And no side effects

  Scenario: [3] Components of a date-time at an offset, of a local date-time, a time and a local time
    Given any graph
    When executing query:
      """
      WITH datetime('2015-07-21T21:40:32.142-04:00') AS dt, localdatetime('2015-07-21T21:40:32.142') AS ldt,
           time('21:40:32.142+05:45') AS t, localtime('21:40:32.142') AS lt
      RETURN dt.timezone, dt.offset, dt.offsetMinutes, dt.offsetSeconds, dt.epochSeconds, dt.epochMillis,
             ldt.year, ldt.week, ldt.ordinalDay, ldt.hour, ldt.millisecond,
             t.hour, t.minute, t.second, t.millisecond, t.timezone, t.offset, t.offsetMinutes, t.offsetSeconds,
             lt.hour, lt.minute, lt.second, lt.microsecond, lt.nanosecond
      """
    Then the result should be, in any order:
      | dt.timezone | dt.offset | dt.offsetMinutes | dt.offsetSeconds | dt.epochSeconds | dt.epochMillis | ldt.year | ldt.week | ldt.ordinalDay | ldt.hour | ldt.millisecond | t.hour | t.minute | t.second | t.millisecond | t.timezone | t.offset | t.offsetMinutes | t.offsetSeconds | lt.hour | lt.minute | lt.second | lt.microsecond | lt.nanosecond |
      | '-04:00'    | '-04:00'  | -240             | -14400           | 1437529232      | 1437529232142  | 2015     | 30       | 202            | 21       | 142             | 21     | 40       | 32       | 142           | '+05:45'   | '+05:45' | 345             | 20700           | 21      | 40        | 32        | 142000         | 142000000     |
    And no side effects

  Scenario Outline: [4] Week years around the new year, UTC and epochs before 1970
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                | result       |
      | date('2021-01-01').week                             | 53           |
      | date('2021-01-01').weekYear                         | 2020         |
      | date('2021-01-01').year                             | 2021         |
      | date('2024-12-30').weekYear                         | 2025         |
      | date('2024-12-30').week                             | 1            |
      | date('2017-01-01').dayOfWeek                        | 7            |
      | date('2020-12-31').ordinalDay                       | 366          |
      | date('2020-03-31').dayOfQuarter                     | 91           |
      | date('-0001-12-31').year                            | -1           |
      | datetime('2015-07-21T21:40Z').timezone              | 'Z'          |
      | datetime('2015-07-21T21:40Z[UTC]').timezone         | 'UTC'        |
      | datetime('2015-07-21T21:40Z[UTC]').offset           | 'Z'          |
      | datetime('1969-12-31T23:59:59.999Z').epochSeconds   | -1           |
      | datetime('1969-12-31T23:59:59.999Z').epochMillis    | -1           |
      | datetime('1970-01-01T01:00+01:00').epochMillis      | 0            |
      | datetime().epochMillis = timestamp()                | true         |
      | datetime('1818-07-21T12:00[Europe/Stockholm]').offsetSeconds | 3208 |

  Scenario Outline: [5] A component the type does not have is an error
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                     |
      | date('2015-07-21').hour                  |
      | date('2015-07-21').timezone              |
      | date('2015-07-21').epochSeconds          |
      | localtime('12:00').year                  |
      | localtime('12:00').offset                |
      | time('12:00Z').day                       |
      | time('12:00Z').epochMillis               |
      | localdatetime('2015-07-21T12:00').timezone |
      | localdatetime('2015-07-21T12:00').epochSeconds |
      | datetime('2015-07-21T12:00Z').years      |
      | duration('P1D').year                     |
      | duration('P1D').day                      |
      | date('2015-07-21').centuries             |

  Scenario: [6] Components are named case-insensitively, and null has none
    Given any graph
    When executing query:
      """
      WITH date('2015-07-21') AS d, null AS n
      RETURN d.YEAR AS y, d.dayofweek AS dow, duration('P1D').Days AS days, n.year AS none
      """
    Then the result should be, in any order:
      | y    | dow | days | none |
      | 2015 | 2   | 1    | null |
    And no side effects

  Scenario: [7] Components of a duration, whole units and units within the next larger one
    Given any graph
    When executing query:
      """
      WITH duration({years: 1, months: 4, days: 111, hours: 1, minutes: 1, seconds: 1, nanoseconds: 111111111}) AS d
      RETURN d.years, d.quarters, d.months, d.weeks, d.days, d.hours, d.minutes, d.seconds, d.milliseconds,
             d.microseconds, d.nanoseconds, d.quartersOfYear, d.monthsOfQuarter, d.monthsOfYear, d.daysOfWeek,
             d.minutesOfHour, d.secondsOfMinute, d.millisecondsOfSecond, d.microsecondsOfSecond, d.nanosecondsOfSecond
      """
    Then the result should be, in any order:
      | d.years | d.quarters | d.months | d.weeks | d.days | d.hours | d.minutes | d.seconds | d.milliseconds | d.microseconds | d.nanoseconds | d.quartersOfYear | d.monthsOfQuarter | d.monthsOfYear | d.daysOfWeek | d.minutesOfHour | d.secondsOfMinute | d.millisecondsOfSecond | d.microsecondsOfSecond | d.nanosecondsOfSecond |
      | 1       | 5          | 16       | 15      | 111    | 1       | 61        | 3661      | 3661111        | 3661111111     | 3661111111111 | 1                | 1                 | 4              | 6            | 1               | 1                 | 111                    | 111111                 | 111111111             |
    And no side effects

  Scenario: [8] Components of a negative duration keep its sign
    Given any graph
    When executing query:
      """
      WITH duration('-P1Y4M15DT2H30M') AS d
      RETURN d.years, d.months, d.monthsOfYear, d.quartersOfYear, d.weeks, d.days, d.daysOfWeek,
             d.hours, d.minutes, d.minutesOfHour, d.seconds
      """
    Then the result should be, in any order:
      | d.years | d.months | d.monthsOfYear | d.quartersOfYear | d.weeks | d.days | d.daysOfWeek | d.hours | d.minutes | d.minutesOfHour | d.seconds |
      | -1      | -16      | -4             | -1               | -2      | -15    | -1           | -2      | -150      | -30             | -9000     |
    And no side effects

  Scenario: [9] The components of the distance between two instants rebuild it
    Given any graph
    When executing query:
      """
      WITH date('1984-10-11') AS a, date('2015-06-24') AS b
      WITH a, b, duration.between(a, b) AS d
      RETURN d.years, d.monthsOfYear, d.days, a + d = b AS back
      """
    Then the result should be, in any order:
      | d.years | d.monthsOfYear | d.days | back |
      | 30      | 8              | 13     | true |
    And no side effects
