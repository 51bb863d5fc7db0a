# Sources: Neo4j Cypher manual 5, functions/temporal (creating values from maps, strings and other values;
# truncate with the current instant; time zone names), values-and-types/temporal (time zones, offsets with
# named zones), functions/temporal/duration (at least one unit).
Feature: TemporalConstructorRules - which component maps, zone names and strings the constructors accept

  Scenario Outline: [1] A zone name may be written with spaces for underscores
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
      | expr                                                                          | result                                         |
      | datetime({year: 2022, month: 6, day: 14, timezone: 'America/Los Angeles'})    | '2022-06-14T00:00-07:00[America/Los_Angeles]'  |
      | toString(datetime('2022-01-14T10:00[America/Los Angeles]'))                   | '2022-01-14T10:00-08:00[America/Los_Angeles]'  |
      | datetime({timezone: 'America/Los Angeles'}).timezone                          | 'America/Los_Angeles'                          |
      | datetime.statement('America/Los Angeles').timezone                            | 'America/Los_Angeles'                          |
      | datetime.realtime('America/Los Angeles').timezone                             | 'America/Los_Angeles'                          |
      | date({timezone: 'America/Los Angeles'}) = date.statement('America/Los_Angeles') | true                                         |
      | datetime({year: 2022, timezone: 'america/los angeles'}).timezone              | 'America/Los_Angeles'                          |

  Scenario Outline: [2] An offset written beside a zone name must be the zone's offset at that local time
    Given any graph
    When executing query:
      """
      RETURN toString(datetime(<text>)) AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | text                                      | result                                   |
      | '2015-07-21T21:40:32.142-04:00[America/New_York]' | '2015-07-21T21:40:32.142-04:00[America/New_York]' |
      | '2015-01-21T21:40-05:00[America/New_York]'       | '2015-01-21T21:40-05:00[America/New_York]'       |
      | '2021-10-31T02:30+02:00[Europe/Berlin]'          | '2021-10-31T02:30+02:00[Europe/Berlin]'          |
      | '2021-10-31T02:30+01:00[Europe/Berlin]'          | '2021-10-31T02:30+01:00[Europe/Berlin]'          |
      | '2021-10-31T02:30[Europe/Berlin]'                | '2021-10-31T02:30+02:00[Europe/Berlin]'          |

  Scenario Outline: [3] An offset that the zone does not have then is refused
    Given any graph
    When executing query:
      """
      RETURN datetime(<text>) AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | text                                              |
      | '2015-07-21T21:40:32.142+01:00[America/New_York]' |
      | '2015-07-21T21:40-05:00[America/New_York]'        |
      | '2021-03-28T02:30+01:00[Europe/Berlin]'           |
      | '2021-03-28T02:30+02:00[Europe/Berlin]'           |

  Scenario: [4] Truncating without a value truncates the statement's current instant
    Given any graph
    When executing query:
      """
      RETURN date.truncate('month') = date.truncate('month', date.statement()) AS a,
             datetime.truncate('day') = datetime.truncate('day', datetime.statement()) AS b,
             localdatetime.truncate('hour') = localdatetime.truncate('hour', localdatetime.statement()) AS c,
             localtime.truncate('minute') = localtime.truncate('minute', localtime.statement()) AS d,
             time.truncate('second') = time.truncate('second', time.statement()) AS e,
             date.truncate('year').month AS f, date.truncate('year').day AS g
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f | g |
      | true | true | true | true | true | 1 | 1 |
    And no side effects

  Scenario Outline: [5] A map must name a component, and each component the larger one it counts within
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                              |
      | date({})                                          |
      | localtime({})                                     |
      | datetime({})                                      |
      | duration({})                                      |
      | date({year: 2015, day: 3})                        |
      | date({year: 2015, dayOfWeek: 3})                  |
      | date({year: 2015, dayOfQuarter: 3})               |
      | date({day: 3})                                    |
      | date({month: 3})                                  |
      | localtime({minute: 3})                            |
      | localtime({hour: 1, second: 3})                   |
      | localtime({hour: 1, minute: 2, millisecond: 3})   |
      | localdatetime({year: 2015, month: 2, minute: 3})  |
      | date({year: 2015, weekDay: 3, dayOfWeek: 3, week: 1}) |
      | date({year: 2015, month: 2, week: 3})             |
      | date({year: 2015, quarter: 2, ordinalDay: 3})     |
      | date({year: 2015, hour: 3})                       |
      | localtime({hour: 3, day: 3})                      |
      | date({year: 2015, second: 3})                     |
      | date({year: 2015, fortnight: 3})                  |

  Scenario Outline: [6] A base value lends what the map leaves out, so its components need no larger one
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
      | expr                                                               | result                |
      | date({date: date('2015-07-21'), day: 3})                           | '2015-07-03'          |
      | date({date: date('2015-07-21'), dayOfWeek: 7})                     | '2015-07-26'          |
      | date({date: date('2015-07-21'), dayOfQuarter: 1})                  | '2015-07-01'          |
      | localtime({time: localtime('12:31:14.5'), second: 3})              | '12:31:03.500'        |
      | localtime({time: localtime('12:31:14.5'), millisecond: 7})         | '12:31:14.007'        |
      | localdatetime({datetime: localdatetime('2015-07-21T12:31'), minute: 3, day: 1}) | '2015-07-01T12:03' |

  Scenario Outline: [7] weekDay and quarterDay are other names for dayOfWeek and dayOfQuarter
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
      | expr                                                        | result       |
      | toString(date({year: 2015, week: 2, weekDay: 3}))           | '2015-01-07' |
      | toString(date({year: 2015, quarter: 2, quarterDay: 3}))     | '2015-04-03' |
      | toString(date({year: 2015, WEEK: 2, DayOfWeek: 3}))         | '2015-01-07' |
      | date('2015-07-21').quarterDay                               | 21           |
      | date('2015-07-21').weekDay                                  | 2            |
      | localdatetime('2015-05-21T10:00').quarterDay                | 51           |

  Scenario Outline: [8] A time taken from a date-time in a named zone keeps the offset of that date
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
      | expr                                                                                      | result           |
      | time({time: datetime('2015-07-21T12:31:14[Europe/Stockholm]')})                           | '12:31:14+02:00' |
      | time({time: datetime('2015-01-21T12:31:14[Europe/Stockholm]')})                           | '12:31:14+01:00' |
      | time(datetime('2015-07-21T12:31:14[Europe/Stockholm]'))                                   | '12:31:14+02:00' |
      | time({time: datetime('2015-07-21T12:31:14[Europe/Stockholm]'), second: 42, timezone: '-10:00'}) | '00:31:42-10:00' |
      | time.truncate('minute', datetime('2015-07-21T12:31:14[Europe/Stockholm]'))               | '12:31+02:00'    |
      | datetime({date: date('2015-01-21'), time: datetime('2015-07-21T12:31:14[Europe/Stockholm]')}) | '2015-01-21T12:31:14+01:00[Europe/Stockholm]' |

  Scenario Outline: [9] A seconds fraction has at most nine digits
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                          |
      | duration('PT0.0000000001S')                   |
      | localtime('12:00:00.1234567891')              |
      | datetime('2015-07-21T21:40:32.1234567891Z')   |

  Scenario Outline: [10] An epoch map gives an instant; its other components then set the wall clock
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
      | expr                                                         | result                                      |
      | datetime({epochMillis: 424797300000})                        | '1983-06-18T15:15Z'                         |
      | datetime({epochSeconds: 1, nanosecond: 23})                  | '1970-01-01T00:00:01.000000023Z'            |
      | datetime({epochSeconds: 1, timezone: 'Europe/Stockholm'})    | '1970-01-01T01:00:01+01:00[Europe/Stockholm]' |
      | datetime({epochSeconds: -62135596800})                       | '0001-01-01T00:00Z'                         |
      | datetime({epochMillis: -1})                                  | '1969-12-31T23:59:59.999Z'                  |
      | datetime({epochMillis: 1500, nanosecond: 5})                 | '1970-01-01T00:00:01.500000005Z'            |
      | datetime({epochSeconds: 1, millisecond: 5})                  | '1970-01-01T00:00:01.005Z'                  |
      | datetime({epochSeconds: 1, year: 5})                         | '0005-01-01T00:00:01Z'                      |
      | datetime({epochSeconds: 1, hour: 5, timezone: '+01:00'})     | '1970-01-01T05:00:01+01:00'                 |
      | datetime.fromepoch(1, 500000000)                             | '1970-01-01T00:00:01.500Z'                  |
      | datetime.fromEpoch(-1, 0)                                    | '1969-12-31T23:59:59Z'                      |
      | datetime.fromepochmillis(424797300000)                       | '1983-06-18T15:15Z'                         |
      | datetime.fromEpochMillis(-1)                                 | '1969-12-31T23:59:59.999Z'                  |

  Scenario Outline: [11] Epoch maps that mean nothing are refused
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                    |
      | datetime({epochSeconds: 1, epochMillis: 5})             |
      | datetime({epochSeconds: 1, date: date('2020-01-01')})   |
      | date({epochSeconds: 1})                                 |
      | localdatetime({epochMillis: 1})                         |
      | time({epochSeconds: 1})                                 |

  Scenario Outline: [12] Week, quarter and ordinal maps with a time of day and a zone
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
      | expr                                                                                       | result                                          |
      | datetime({year: 1984, week: 10, dayOfWeek: 3, hour: 12, minute: 31, timezone: '+01:00'})  | '1984-03-07T12:31+01:00'                        |
      | datetime({year: 1984, quarter: 3, dayOfQuarter: 45, hour: 12, timezone: 'Europe/Stockholm'}) | '1984-08-14T12:00+02:00[Europe/Stockholm]'    |
      | localdatetime({year: 1984, ordinalDay: 202, hour: 12, minute: 31, second: 14, millisecond: 645}) | '1984-07-20T12:31:14.645'                 |
      | date({year: 2015, week: 1})                                                                | '2014-12-29'                                    |
      | date({year: 2021, week: 1})                                                                | '2021-01-04'                                    |
      | date({year: 2020, week: 53, dayOfWeek: 7})                                                 | '2021-01-03'                                    |
      | date({year: 1984, quarter: 4})                                                             | '1984-10-01'                                    |
      | localtime({hour: 12, minute: 31, second: 14, millisecond: 123, microsecond: 456, nanosecond: 789}) | '12:31:14.123456789'                    |
      | localtime({hour: 12, minute: 31, second: 14, microsecond: 645876})                         | '12:31:14.645876'                               |
      | time({hour: 12, minute: 31, second: 14, nanosecond: 645876123, timezone: '-01:30'})        | '12:31:14.645876123-01:30'                      |
      | time({hour: 12, timezone: 'Z'})                                                            | '12:00Z'                                        |
      | localdatetime({year: -44, month: 3, day: 15})                                              | '-0044-03-15T00:00'                             |

  Scenario Outline: [13] Truncation in a named zone resolves the truncated wall clock in that zone
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
      | expr                                                                                  | result                                      |
      | datetime.truncate('day', datetime('2018-11-04T12:00[America/Sao_Paulo]'))             | '2018-11-04T01:00-02:00[America/Sao_Paulo]' |
      | datetime.truncate('hour', datetime('2021-10-31T02:30+01:00[Europe/Berlin]'))          | '2021-10-31T02:00+02:00[Europe/Berlin]'     |
      | time.truncate('day', datetime('2021-07-31T02:30:45[Europe/Berlin]'))                  | '00:00+02:00'                               |
      | localdatetime.truncate('weekYear', localdatetime('2021-01-02T02:30'), {dayOfWeek: 3}) | '2020-01-01T00:00'                          |
      | date.truncate('year', date('2021-05-20'), {ordinalDay: 100})                          | '2021-04-10'                                |
      | datetime.truncate('millisecond', datetime('2021-05-20T10:00:00.123456789Z'), {microsecond: 5}) | '2021-05-20T10:00:00.123005Z'      |
      | localtime.truncate('second', localtime('10:00:01.999'), {nanosecond: 999999999})      | '10:00:01.999999999'                        |
      | datetime.truncate('week', localdatetime('2021-05-20T10:00'), {timezone: 'Asia/Tokyo'}) | '2021-05-17T00:00+09:00[Asia/Tokyo]'       |
      | date.truncate('day', datetime('2021-05-20T23:30-05:00'))                              | '2021-05-20'                                |

  Scenario Outline: [14] A truncation's map may select a date or a time, then set components
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
      | expr                                                                                          | result                                   |
      | datetime.truncate('week', date('2021-05-20'), {dayOfWeek: 2, time: time('10:00+01:00')})      | '2021-05-18T10:00+01:00'                 |
      | datetime.truncate('week', date('2021-05-20'), {dayOfWeek: 2, time: localtime('10:00')})       | '2021-05-18T10:00Z'                      |
      | datetime.truncate('week', datetime('2021-05-20T10:00[Europe/Paris]'), {time: localtime('11:00')}) | '2021-05-17T11:00+02:00[Europe/Paris]' |
      | datetime.truncate('day', datetime('2021-05-20T10:00[Europe/Paris]'), {time: time('11:00Z'), timezone: '+03:00'}) | '2021-05-20T11:00+03:00' |
      | localdatetime.truncate('decade', localdatetime('2021-05-20T10:00'), {date: date('2000-01-09'), hour: 3}) | '2000-01-09T03:00'     |
      | localtime.truncate('day', localtime('10:30'), {time: localtime('11:11:11')})                  | '11:11:11'                               |
      | date.truncate('month', date() + duration('P2M')) - duration('P1D') = date.truncate('month', date.statement() + duration('P2M')) - duration('P1D') | 'true' |

  Scenario Outline: [15] A truncation's map cannot name what the result type does not have, nor a unit not finer than the one truncated to
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                                    |
      | date.truncate('month', date('2021-05-20'), {time: localtime('10:00')})  |
      | date.truncate('month', date('2021-05-20'), {hour: 3})                   |
      | localtime.truncate('hour', localtime('10:30'), {day: 3})                |
      | time.truncate('hour', time('10:30Z'), {date: date('2021-05-20')})       |
      | date.truncate('month', date('2021-05-20'), {datetime: datetime('2021-05-20T10:00Z')}) |
      | datetime.truncate('day', datetime('2021-05-20T10:00Z'), {epochSeconds: 1}) |
      | date.truncate('month', date('2021-05-20'), {year: 2000})                |
      | datetime.truncate('day', datetime('2021-05-20T10:00Z'), {month: 3})     |
      | localtime.truncate('minute', localtime('10:30'), {hour: 1})             |
      | date.truncate('weekYear', date('2021-05-20'), {year: 2020})             |
      | date.truncate('week', date('2021-05-20'), {week: 2})                    |
      | localdatetime.truncate('month', localdatetime('2021-05-20T10:00'), {date: date('2000-01-01')}) |
      | time.truncate('hour', time('10:30Z'), {time: time('11:00Z')})           |

  Scenario Outline: [16] Beside other components, a time zone is only for the types that keep one
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                                    |
      | date({year: 2015, timezone: '+01:00'})                                  |
      | localtime({hour: 3, timezone: '+01:00'})                                |
      | localdatetime({year: 2015, month: 3, timezone: 'Europe/Paris'})         |
      | localtime({time: localtime('10:00'), timezone: '+01:00'})               |
      | localdatetime.truncate('day', localdatetime('2021-05-20T10:00'), {timezone: '+01:00'}) |
      | date.truncate('day', date('2021-05-20'), {timezone: '+01:00'})          |

  Scenario: [17] Alone, a time zone asks for the current value in that zone, for every type
    Given any graph
    When executing query:
      """
      RETURN date({timezone: '+14:00'}) = date.statement('+14:00') AS a,
             localtime({timezone: '-12:00'}) = localtime.statement('-12:00') AS b,
             localdatetime({timezone: 'Asia/Tokyo'}) = localdatetime.statement('Asia/Tokyo') AS c,
             time({timezone: '+05:30'}).offset AS d, datetime({timezone: 'Asia/Tokyo'}).timezone AS e
      """
    Then the result should be, in any order:
      | a    | b    | c    | d        | e            |
      | true | true | true | '+05:30' | 'Asia/Tokyo' |
    And no side effects

  Scenario Outline: [18] Each type from each other type, directly and through the date, time and datetime selectors
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
      | expr                                                                   | result                                      |
      | date(localdatetime('2015-07-21T21:40:32.142'))                         | '2015-07-21'                                |
      | date(datetime('2017-10-29T04:30[Europe/Stockholm]'))                   | '2017-10-29'                                |
      | localtime(time('10:00+02:00'))                                         | '10:00'                                     |
      | localtime(datetime('2017-10-29T04:30[Europe/Stockholm]'))              | '04:30'                                     |
      | time(localtime('16:30:15.5'))                                          | '16:30:15.500Z'                             |
      | time(localdatetime('2015-07-21T21:40:32.142'))                         | '21:40:32.142Z'                             |
      | time(datetime('2017-10-29T04:30[Europe/Stockholm]'))                   | '04:30+01:00'                               |
      | localdatetime(datetime('2017-10-29T04:30[Europe/Stockholm]'))          | '2017-10-29T04:30'                          |
      | datetime(localdatetime('2015-07-21T21:40:32.142'))                     | '2015-07-21T21:40:32.142Z'                  |
      | date({datetime: datetime('2017-10-29T04:30[Europe/Stockholm]')})       | '2017-10-29'                                |
      | localtime({time: localdatetime('2015-07-21T21:40:32.142')})            | '21:40:32.142'                              |
      | time({datetime: time('10:00+02:00')})                                  | '10:00+02:00'                               |
      | localdatetime({date: datetime('2017-10-29T04:30[Europe/Stockholm]')})  | '2017-10-29T00:00'                          |
      | datetime({date: localdatetime('2015-07-21T21:40:32.142')})             | '2015-07-21T00:00Z'                         |
      | datetime({date: date('1984-10-11'), time: time('10:00+02:00')})        | '1984-10-11T10:00+02:00'                    |
      | datetime({datetime: localdatetime('2015-07-21T21:40'), timezone: 'Europe/Stockholm'}) | '2015-07-21T21:40+02:00[Europe/Stockholm]' |
      | datetime({datetime: datetime('2017-10-29T04:30[Europe/Stockholm]'), hour: 18, minute: 30}) | '2017-10-29T18:30+01:00[Europe/Stockholm]' |

  Scenario Outline: [19] A selector must hand over what the result is built from
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                      |
      | date(localtime('16:30'))                                  |
      | localtime(date('1984-10-11'))                             |
      | datetime(time('10:00+02:00'))                             |
      | date({time: localtime('16:30')})                          |
      | localtime({date: date('1984-10-11')})                     |
      | time({date: datetime('2017-10-29T04:30Z')})               |
      | localtime({datetime: date('1984-10-11')})                 |
      | localdatetime({datetime: date('1984-10-11')})             |
      | date({datetime: localtime('16:30')})                      |
      | datetime({time: time('10:00+02:00')})                     |

  Scenario Outline: [20] Map components of the wrong type, and a FLOAT where an INTEGER is needed, are type errors when the row runs
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                          |
      | date({date: '1984-10-11'})                    |
      | date({year: '2015'})                          |
      | date({year: 2015.5})                          |
      | datetime({year: 2015, timezone: 1})           |
      | datetime({epochSeconds: 1.5})                 |
      | datetime.fromepochmillis(1.9)                 |
      | duration({days: '1'})                         |

  Scenario Outline: [21] A date that a time of day follows names its day in full
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                   |
      | datetime({year: 1984, hour: 12})                       |
      | localdatetime({year: 1984, month: 10, hour: 12})       |
      | datetime({year: 1984, week: 10, hour: 12})             |
      | datetime({year: 1984, quarter: 3, minute: 1, hour: 2}) |
      | datetime({year: 1984, time: localtime('10:00')})       |
      | localdatetime({month: 1, day: 1, hour: 12})            |

  Scenario Outline: [22] A date alone may leave out its smaller components; a base date lends them
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
      | expr                                                                     | result              |
      | datetime({year: 1984, month: 2})                                         | '1984-02-01T00:00Z' |
      | localdatetime({year: 1984, ordinalDay: 3, hour: 12})                     | '1984-01-03T12:00'  |
      | datetime({date: date('1984-10-11'), hour: 12})                           | '1984-10-11T12:00Z' |
      | datetime({datetime: localdatetime('1984-10-11T01:00'), month: 2, hour: 12}) | '1984-02-11T12:00Z' |

  Scenario Outline: [23] Arguments of a type the function never takes are refused before the query runs
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | expr                                          |
      | date(123)                                     |
      | localtime(true)                               |
      | datetime([2020, 1, 1])                        |
      | datetime.fromepoch('1', 0)                    |
      | duration(1)                                   |
      | date.truncate('day', '2020-01-01')            |
      | date.truncate(1, date('2020-01-01'))          |
      | duration.between(date('2020-01-01'), 'x')     |
      | duration.inDays(1, date('2020-01-01'))        |
