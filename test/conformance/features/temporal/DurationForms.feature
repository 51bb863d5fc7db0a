# Sources: Neo4j Cypher manual 5, functions/temporal/duration (duration() from maps and strings: at least one
# unit, fractions cascading to smaller units, arbitrarily large and negative values), values-and-types/temporal
# ("Specifying durations": the unit-based form and the date-and-time-based alternative), openCypher 9 temporal
# CIP (units convert only within their group: months, days, seconds).
Feature: DurationForms - durations from strings and maps, and how they print

  Scenario Outline: [1] The unit-based form: units stay in their group, fractions cascade down
    Given any graph
    When executing query:
      """
      RETURN toString(duration(<text>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | text                        | result                   |
      | 'P1Y2M3W4DT5H6M7S'          | 'P1Y2M25DT5H6M7S'        |
      | 'P1Y2M10DT2H30M'            | 'P1Y2M10DT2H30M'         |
      | 'P14DT16H12M'               | 'P14DT16H12M'            |
      | 'P5M1.5D'                   | 'P5M1DT12H'              |
      | 'P0.75M'                    | 'P22DT19H51M49.5S'       |
      | 'PT0.75M'                   | 'PT45S'                  |
      | 'P2.5W'                     | 'P17DT12H'               |
      | 'P1.5Y'                     | 'P1Y6M'                  |
      | 'PT36H'                     | 'PT36H'                  |
      | 'PT1,5S'                    | 'PT1.5S'                 |
      | 'PT0.000000001S'            | 'PT0.000000001S'         |
      | 'PT-0.5S'                   | 'PT-0.5S'                |
      | 'PT-1H30M'                  | 'PT-30M'                 |
      | '-P1Y2M10DT2H30M'           | 'P-1Y-2M-10DT-2H-30M'    |
      | 'P-1Y-2M'                   | 'P-1Y-2M'                |
      | '+P1D'                      | 'P1D'                    |
      | 'p1dt2h'                    | 'P1DT2H'                 |
      | 'PT0S'                      | 'PT0S'                   |
      | 'P0D'                       | 'PT0S'                   |

  Scenario Outline: [2] The alternative form: a date and a time of day as amounts
    Given any graph
    When executing query:
      """
      RETURN toString(duration(<text>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | text                        | result                       |
      | 'P2012-02-02T14:37:21.545'  | 'P2012Y2M2DT14H37M21.545S'   |
      | 'P0001-02-03T04:05:06.7'    | 'P1Y2M3DT4H5M6.7S'           |
      | 'P00010203T040506'          | 'P1Y2M3DT4H5M6S'             |
      | 'P0000-00-00T00:00:00'      | 'PT0S'                       |
      | '-P0001-02-03T04:05:06'     | 'P-1Y-2M-3DT-4H-5M-6S'       |

  Scenario Outline: [3] Texts that are not durations
    Given any graph
    When executing query:
      """
      RETURN duration(<text>) AS d
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | text              |
      | 'P'               |
      | 'PT'              |
      | 'P1DT'            |
      | 'P1S'             |
      | 'P1D2H'           |
      | '1D'              |
      | 'P1M1Y'           |
      | 'PT1M1H'          |
      | 'P1Q'             |
      | 'PT0.0000000001S' |
      | 'P1 D'            |
      | ''                |

  Scenario Outline: [4] From a map: any units, fractional, negative, beyond the next larger unit
    Given any graph
    When executing query:
      """
      RETURN toString(duration(<map>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | map                                                                             | result              |
      | {days: 14, hours: 16, minutes: 12}                                              | 'P14DT16H12M'       |
      | {months: 5, days: 1.5}                                                          | 'P5M1DT12H'         |
      | {months: 0.75}                                                                  | 'P22DT19H51M49.5S'  |
      | {weeks: 2.5}                                                                    | 'P17DT12H'          |
      | {minutes: 1.5, seconds: 1, milliseconds: 123, microseconds: 456, nanoseconds: 789} | 'PT1M31.123456789S' |
      | {years: 1, months: 14}                                                          | 'P2Y2M'             |
      | {quarters: 1.5}                                                                 | 'P4M15DT5H14M33S'   |
      | {weeks: 1.5, hours: 0.25}                                                       | 'P10DT12H15M'       |
      | {minutes: -1.5}                                                                 | 'PT-1M-30S'         |
      | {days: 1, hours: -36}                                                           | 'P1DT-36H'          |
      | {days: 62, seconds: 180000}                                                     | 'P62DT50H'          |
      | {microseconds: 1.5}                                                             | 'PT0.0000015S'      |
      | {nanoseconds: -1}                                                               | 'PT-0.000000001S'   |
      | {seconds: 1, nanoseconds: -1}                                                   | 'PT0.999999999S'    |
      | {seconds: 9223372036854775807}                                                  | 'PT2562047788015215H30M7S' |
      | {Days: 2, HOURS: 1}                                                             | 'P2DT1H'            |
      | {seconds: null, days: 1}                                                        | 'P1D'               |

  Scenario Outline: [5] Maps that are not durations
    Given any graph
    When executing query:
      """
      RETURN duration(<map>) AS d
      """
    Then a ArgumentError should be raised at runtime: <detail>

    Examples:
      | map                        | detail               |
      | {}                         | InvalidArgumentValue |
      | {day: 2}                   | InvalidArgumentValue |
      | {days: 1, DAYS: 2}         | InvalidArgumentValue |
      | {seconds: 1e30}            | NumberOutOfRange     |

  Scenario: [6] A duration and null
    Given any graph
    When executing query:
      """
      RETURN duration(null) AS a, duration(duration('P1D')) = duration('P1D') AS b, duration('P1D') + null AS c
      """
    Then the result should be, in any order:
      | a    | b    | c    |
      | null | true | null |
    And no side effects
