Feature: TemporalParsingAndAccess - the string forms, map forms and accessors of the temporal types

  Scenario Outline: [1] Dates from their ISO 8601 string forms
    Given any graph
    When executing query:
      """
      RETURN date(<text>) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | text          | result       |
      | '1999-12-31'  | '1999-12-31' |
      | '19991231'    | '1999-12-31' |
      | '1999-12'     | '1999-12-01' |
      | '1999'        | '1999-01-01' |
      | '1999-W52-5'  | '1999-12-31' |
      | '1999W52'     | '1999-12-27' |
      | '1999-365'    | '1999-12-31' |
      | '1999Q4'      | '1999-10-01' |
      | '1999-Q4-92'  | '1999-12-31' |

  Scenario Outline: [2] Times and date-times with offsets and zones
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | expr                                             | result                                      |
      | localtime('0705')                                | '07:05'                                     |
      | localtime('070509.5')                            | '07:05:09.500'                              |
      | time('07:05-0330')                               | '07:05-03:30'                               |
      | time('07:05:09Z')                                | '07:05:09Z'                                 |
      | localdatetime('1999-12-31T23:59:59.999999999')   | '1999-12-31T23:59:59.999999999'             |
      | datetime('1999-12-31T23:59+14:00')               | '1999-12-31T23:59+14:00'                    |
      | datetime('2003-07-04T12:00[America/Chicago]')    | '2003-07-04T12:00-05:00[America/Chicago]'   |
      | datetime('2003-01-04T12:00[America/Chicago]')    | '2003-01-04T12:00-06:00[America/Chicago]'   |
      | datetime('2019-03-31T02:30[Europe/Paris]')       | '2019-03-31T03:30+02:00[Europe/Paris]'      |

  Scenario Outline: [3] Constructing from maps: weeks, quarters, ordinal days, epochs
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                              | result                           |
      | date({year: 2021, week: 1, dayOfWeek: 1})                         | '2021-01-04'                     |
      | date({year: 2021, quarter: 2, dayOfQuarter: 1})                   | '2021-04-01'                     |
      | date({year: 2021, ordinalDay: 60})                                | '2021-03-01'                     |
      | datetime({epochSeconds: 86400})                                   | '1970-01-02T00:00Z'              |
      | datetime({epochMillis: 1500, timezone: '+02:00'})                 | '1970-01-01T02:00:01.500+02:00'  |
      | localdatetime({year: 2000, month: 2, day: 29, hour: 23, minute: 59}) | '2000-02-29T23:59'            |
      | date({date: date('2010-10-10'), month: 1})                        | '2010-01-10'                     |
      | datetime({datetime: datetime('2010-10-10T10:00Z'), timezone: '+03:00'}) | '2010-10-10T13:00+03:00'   |

  Scenario Outline: [4] Impossible dates and times are refused
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                       |
      | date({year: 2021, month: 2, day: 29})      |
      | date('2021-00-10')                         |
      | localtime({hour: 25})                      |
      | time({hour: 1, minute: 60})                |
      | date({month: 3, day: 1})                   |
      | datetime('2021-01-01T10:00[Nowhere/City]') |
      | duration('P1Q')                            |

  Scenario: [5] Components of a date-time in a named zone
    Given any graph
    When executing query:
      """
      WITH datetime('2016-02-29T18:07:05.123456789[Australia/Sydney]') AS d
      RETURN d.year AS y, d.quarter AS q, d.month AS m, d.week AS w, d.weekYear AS wy, d.dayOfQuarter AS dq,
             d.ordinalDay AS od, d.dayOfWeek AS dow, d.hour AS h, d.millisecond AS ms, d.microsecond AS us,
             d.nanosecond AS ns, d.timezone AS tz, d.offset AS o, d.offsetMinutes AS om, d.epochSeconds AS es
      """
    Then the result should be, in any order:
      | y    | q | m | w | wy   | dq | od | dow | h  | ms  | us     | ns        | tz                 | o        | om  | es         |
      | 2016 | 1 | 2 | 9 | 2016 | 60 | 60 | 1   | 18 | 123 | 123456 | 123456789 | 'Australia/Sydney' | '+11:00' | 660 | 1456729625 |
    And no side effects

  Scenario: [6] Components of a duration
    Given any graph
    When executing query:
      """
      WITH duration('P2Y5M17DT30H7M8.25S') AS d
      RETURN d.years AS y, d.months AS m, d.monthsOfYear AS moy, d.quarters AS q, d.weeks AS w, d.days AS dd,
             d.daysOfWeek AS dow, d.hours AS h, d.minutesOfHour AS moh, d.seconds AS s, d.secondsOfMinute AS som,
             d.millisecondsOfSecond AS ms
      """
    Then the result should be, in any order:
      | y | m  | moy | q | w | dd | dow | h  | moh | s      | som | ms  |
      | 2 | 29 | 5   | 9 | 2 | 17 | 3   | 30 | 7   | 108428 | 8   | 250 |
    And no side effects

  Scenario Outline: [7] Truncation to every unit
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                                        | result                                   |
      | date.truncate('millennium', date('1987-06-05'))                             | '1000-01-01'                             |
      | date.truncate('century', date('1987-06-05'))                                | '1900-01-01'                             |
      | date.truncate('decade', date('1987-06-05'))                                 | '1980-01-01'                             |
      | date.truncate('quarter', date('1987-06-05'))                                | '1987-04-01'                             |
      | date.truncate('week', date('1987-06-05'))                                   | '1987-06-01'                             |
      | date.truncate('weekYear', date('1987-01-02'))                               | '1986-12-29'                             |
      | localtime.truncate('minute', localtime('10:11:12.5'))                       | '10:11'                                  |
      | localtime.truncate('millisecond', localtime('10:11:12.123456'))             | '10:11:12.123'                           |
      | time.truncate('second', time('10:11:12.9+01:00'))                           | '10:11:12+01:00'                         |
      | localdatetime.truncate('month', localdatetime('1987-06-05T04:03'), {day: 2}) | '1987-06-02T00:00'                      |
      | datetime.truncate('day', datetime('1987-06-05T04:03[Europe/Rome]'))         | '1987-06-05T00:00+02:00[Europe/Rome]'    |
      | datetime.truncate('hour', localdatetime('1987-06-05T04:03'), {timezone: '+05:00'}) | '1987-06-05T04:00+05:00'          |

  Scenario Outline: [8] Arithmetic between instants and durations
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | expr                                                                  | result                                |
      | date('2019-01-31') + duration('P1M')                                  | '2019-02-28'                          |
      | date('2019-03-31') - duration('P1M1D')                                | '2019-02-27'                          |
      | date('2019-01-01') + duration('PT36H')                                | '2019-01-02'                          |
      | localtime('22:30') + duration('PT3H')                                 | '01:30'                               |
      | time('00:15+04:00') - duration('PT30M')                               | '23:45+04:00'                         |
      | localdatetime('2019-12-31T23:00') + duration('P1DT2H')                | '2020-01-02T01:00'                    |
      | datetime('2019-10-26T12:00[Europe/Paris]') + duration('P1D')          | '2019-10-27T12:00+01:00[Europe/Paris]' |
      | datetime('2019-10-26T12:00[Europe/Paris]') + duration('PT24H')        | '2019-10-27T11:00+01:00[Europe/Paris]' |
      | duration('P1M2D') + duration('P3MT4H')                                | 'P4M2DT4H'                            |
      | duration('PT1H') * 2.5                                                | 'PT2H30M'                             |
      | duration('P2D') / 4                                                   | 'PT12H'                               |
      | duration('PT0.25S') - duration('PT1S')                                | 'PT-0.75S'                            |

  Scenario: [9] Comparisons within a type and across types
    Given any graph
    When executing query:
      """
      RETURN date('2020-01-01') < date('2020-01-02') AS a,
             time('10:00+02:00') = time('10:00+02:00') AS b,
             datetime('2020-01-01T10:00+02:00') = datetime('2020-01-01T10:00+02:00') AS c,
             localtime('10:00') < localtime('09:59') AS d,
             date('2020-01-01') < localdatetime('2020-01-02T00:00') AS e,
             duration('P1D') = duration('PT24H') AS f,
             duration('PT60M') = duration('PT1H') AS g,
             duration('P1D') < duration('P2D') AS h,
             date('2020-01-01') = '2020-01-01' AS i
      """
    Then the result should be, in any order:
      | a    | b    | c    | d     | e    | f     | g    | h    | i     |
      | true | true | true | false | null | false | true | null | false |
    And no side effects
