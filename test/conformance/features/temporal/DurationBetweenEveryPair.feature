# Sources: Neo4j Cypher manual 5, functions/temporal/duration (duration.between, inMonths, inDays, inSeconds:
# a value without a time of day is taken at midnight, without a date on the other's date, without a zone in
# the other's zone; months and days only between dated values; inDays drops what is less than a day).
# The results follow java.time's until(), which the reference implementation measures with: calendar units
# on the wall clock of `from`'s zone, the rest as elapsed time, so a daylight-saving change shows in it.
Feature: DurationBetweenEveryPair - the four distance functions between every pair of temporal types

  Scenario Outline: [1] Every pair of a date, a local time, a time, a local date-time and a zoned date-time
    Given any graph
    When executing query:
      """
      RETURN toString(<fn>(<from>, <to>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | fn                 | from                                           | to                                             | result                          |
      | duration.between   | date('1984-10-11')                             | date('1984-10-11')                             | 'PT0S'                          |
      | duration.between   | date('1984-10-11')                             | localtime('16:30:15.5')                        | 'PT16H30M15.5S'                 |
      | duration.between   | date('1984-10-11')                             | time('10:00+02:00')                            | 'PT10H'                         |
      | duration.between   | date('1984-10-11')                             | localdatetime('2015-07-21T21:40:32.142')       | 'P30Y9M10DT21H40M32.142S'       |
      | duration.between   | date('1984-10-11')                             | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P33Y18DT5H30M'                 |
      | duration.between   | localtime('16:30:15.5')                        | date('1984-10-11')                             | 'PT-16H-30M-15.5S'              |
      | duration.between   | localtime('16:30:15.5')                        | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.between   | localtime('16:30:15.5')                        | time('10:00+02:00')                            | 'PT-6H-30M-15.5S'               |
      | duration.between   | localtime('16:30:15.5')                        | localdatetime('2015-07-21T21:40:32.142')       | 'PT5H10M16.642S'                |
      | duration.between   | localtime('16:30:15.5')                        | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT-12H-15.5S'                  |
      | duration.between   | time('10:00+02:00')                            | date('1984-10-11')                             | 'PT-10H'                        |
      | duration.between   | time('10:00+02:00')                            | localtime('16:30:15.5')                        | 'PT6H30M15.5S'                  |
      | duration.between   | time('10:00+02:00')                            | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.between   | time('10:00+02:00')                            | localdatetime('2015-07-21T21:40:32.142')       | 'PT11H40M32.142S'               |
      | duration.between   | time('10:00+02:00')                            | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT-4H-30M'                     |
      | duration.between   | localdatetime('2015-07-21T21:40:32.142')       | date('1984-10-11')                             | 'P-30Y-9M-10DT-21H-40M-32.142S' |
      | duration.between   | localdatetime('2015-07-21T21:40:32.142')       | localtime('16:30:15.5')                        | 'PT-5H-10M-16.642S'             |
      | duration.between   | localdatetime('2015-07-21T21:40:32.142')       | time('10:00+02:00')                            | 'PT-11H-40M-32.142S'            |
      | duration.between   | localdatetime('2015-07-21T21:40:32.142')       | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.between   | localdatetime('2015-07-21T21:40:32.142')       | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P2Y3M7DT7H49M27.858S'          |
      | duration.between   | datetime('2017-10-29T04:30[Europe/Stockholm]') | date('1984-10-11')                             | 'P-33Y-18DT-4H-30M'             |
      | duration.between   | datetime('2017-10-29T04:30[Europe/Stockholm]') | localtime('16:30:15.5')                        | 'PT12H15.5S'                    |
      | duration.between   | datetime('2017-10-29T04:30[Europe/Stockholm]') | time('10:00+02:00')                            | 'PT4H30M'                       |
      | duration.between   | datetime('2017-10-29T04:30[Europe/Stockholm]') | localdatetime('2015-07-21T21:40:32.142')       | 'P-2Y-3M-7DT-6H-49M-27.858S'    |
      | duration.between   | datetime('2017-10-29T04:30[Europe/Stockholm]') | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inMonths  | date('1984-10-11')                             | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inMonths  | date('1984-10-11')                             | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inMonths  | date('1984-10-11')                             | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inMonths  | date('1984-10-11')                             | localdatetime('2015-07-21T21:40:32.142')       | 'P30Y9M'                        |
      | duration.inMonths  | date('1984-10-11')                             | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P33Y'                          |
      | duration.inMonths  | localtime('16:30:15.5')                        | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inMonths  | localtime('16:30:15.5')                        | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inMonths  | localtime('16:30:15.5')                        | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inMonths  | localtime('16:30:15.5')                        | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inMonths  | localtime('16:30:15.5')                        | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inMonths  | time('10:00+02:00')                            | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inMonths  | time('10:00+02:00')                            | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inMonths  | time('10:00+02:00')                            | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inMonths  | time('10:00+02:00')                            | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inMonths  | time('10:00+02:00')                            | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inMonths  | localdatetime('2015-07-21T21:40:32.142')       | date('1984-10-11')                             | 'P-30Y-9M'                      |
      | duration.inMonths  | localdatetime('2015-07-21T21:40:32.142')       | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inMonths  | localdatetime('2015-07-21T21:40:32.142')       | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inMonths  | localdatetime('2015-07-21T21:40:32.142')       | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inMonths  | localdatetime('2015-07-21T21:40:32.142')       | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P2Y3M'                         |
      | duration.inMonths  | datetime('2017-10-29T04:30[Europe/Stockholm]') | date('1984-10-11')                             | 'P-33Y'                         |
      | duration.inMonths  | datetime('2017-10-29T04:30[Europe/Stockholm]') | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inMonths  | datetime('2017-10-29T04:30[Europe/Stockholm]') | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inMonths  | datetime('2017-10-29T04:30[Europe/Stockholm]') | localdatetime('2015-07-21T21:40:32.142')       | 'P-2Y-3M'                       |
      | duration.inMonths  | datetime('2017-10-29T04:30[Europe/Stockholm]') | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inDays    | date('1984-10-11')                             | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inDays    | date('1984-10-11')                             | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inDays    | date('1984-10-11')                             | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inDays    | date('1984-10-11')                             | localdatetime('2015-07-21T21:40:32.142')       | 'P11240D'                       |
      | duration.inDays    | date('1984-10-11')                             | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P12071D'                       |
      | duration.inDays    | localtime('16:30:15.5')                        | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inDays    | localtime('16:30:15.5')                        | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inDays    | localtime('16:30:15.5')                        | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inDays    | localtime('16:30:15.5')                        | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inDays    | localtime('16:30:15.5')                        | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inDays    | time('10:00+02:00')                            | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inDays    | time('10:00+02:00')                            | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inDays    | time('10:00+02:00')                            | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inDays    | time('10:00+02:00')                            | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inDays    | time('10:00+02:00')                            | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inDays    | localdatetime('2015-07-21T21:40:32.142')       | date('1984-10-11')                             | 'P-11240D'                      |
      | duration.inDays    | localdatetime('2015-07-21T21:40:32.142')       | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inDays    | localdatetime('2015-07-21T21:40:32.142')       | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inDays    | localdatetime('2015-07-21T21:40:32.142')       | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inDays    | localdatetime('2015-07-21T21:40:32.142')       | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'P830D'                         |
      | duration.inDays    | datetime('2017-10-29T04:30[Europe/Stockholm]') | date('1984-10-11')                             | 'P-12071D'                      |
      | duration.inDays    | datetime('2017-10-29T04:30[Europe/Stockholm]') | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inDays    | datetime('2017-10-29T04:30[Europe/Stockholm]') | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inDays    | datetime('2017-10-29T04:30[Europe/Stockholm]') | localdatetime('2015-07-21T21:40:32.142')       | 'P-830D'                        |
      | duration.inDays    | datetime('2017-10-29T04:30[Europe/Stockholm]') | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |
      | duration.inSeconds | date('1984-10-11')                             | date('1984-10-11')                             | 'PT0S'                          |
      | duration.inSeconds | date('1984-10-11')                             | localtime('16:30:15.5')                        | 'PT16H30M15.5S'                 |
      | duration.inSeconds | date('1984-10-11')                             | time('10:00+02:00')                            | 'PT10H'                         |
      | duration.inSeconds | date('1984-10-11')                             | localdatetime('2015-07-21T21:40:32.142')       | 'PT269781H40M32.142S'           |
      | duration.inSeconds | date('1984-10-11')                             | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT289708H30M'                  |
      | duration.inSeconds | localtime('16:30:15.5')                        | date('1984-10-11')                             | 'PT-16H-30M-15.5S'              |
      | duration.inSeconds | localtime('16:30:15.5')                        | localtime('16:30:15.5')                        | 'PT0S'                          |
      | duration.inSeconds | localtime('16:30:15.5')                        | time('10:00+02:00')                            | 'PT-6H-30M-15.5S'               |
      | duration.inSeconds | localtime('16:30:15.5')                        | localdatetime('2015-07-21T21:40:32.142')       | 'PT5H10M16.642S'                |
      | duration.inSeconds | localtime('16:30:15.5')                        | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT-12H-15.5S'                  |
      | duration.inSeconds | time('10:00+02:00')                            | date('1984-10-11')                             | 'PT-10H'                        |
      | duration.inSeconds | time('10:00+02:00')                            | localtime('16:30:15.5')                        | 'PT6H30M15.5S'                  |
      | duration.inSeconds | time('10:00+02:00')                            | time('10:00+02:00')                            | 'PT0S'                          |
      | duration.inSeconds | time('10:00+02:00')                            | localdatetime('2015-07-21T21:40:32.142')       | 'PT11H40M32.142S'               |
      | duration.inSeconds | time('10:00+02:00')                            | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT-4H-30M'                     |
      | duration.inSeconds | localdatetime('2015-07-21T21:40:32.142')       | date('1984-10-11')                             | 'PT-269781H-40M-32.142S'        |
      | duration.inSeconds | localdatetime('2015-07-21T21:40:32.142')       | localtime('16:30:15.5')                        | 'PT-5H-10M-16.642S'             |
      | duration.inSeconds | localdatetime('2015-07-21T21:40:32.142')       | time('10:00+02:00')                            | 'PT-11H-40M-32.142S'            |
      | duration.inSeconds | localdatetime('2015-07-21T21:40:32.142')       | localdatetime('2015-07-21T21:40:32.142')       | 'PT0S'                          |
      | duration.inSeconds | localdatetime('2015-07-21T21:40:32.142')       | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT19927H49M27.858S'            |
      | duration.inSeconds | datetime('2017-10-29T04:30[Europe/Stockholm]') | date('1984-10-11')                             | 'PT-289708H-30M'                |
      | duration.inSeconds | datetime('2017-10-29T04:30[Europe/Stockholm]') | localtime('16:30:15.5')                        | 'PT12H15.5S'                    |
      | duration.inSeconds | datetime('2017-10-29T04:30[Europe/Stockholm]') | time('10:00+02:00')                            | 'PT4H30M'                       |
      | duration.inSeconds | datetime('2017-10-29T04:30[Europe/Stockholm]') | localdatetime('2015-07-21T21:40:32.142')       | 'PT-19927H-49M-27.858S'         |
      | duration.inSeconds | datetime('2017-10-29T04:30[Europe/Stockholm]') | datetime('2017-10-29T04:30[Europe/Stockholm]') | 'PT0S'                          |

  Scenario Outline: [2] Across a daylight-saving change, in two zones, and backwards
    Given any graph
    When executing query:
      """
      RETURN toString(<fn>(<from>, <to>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | fn                 | from                                           | to                                               | result          |
      | duration.between   | datetime('2021-03-27T12:00[Europe/Berlin]')    | datetime('2021-03-28T12:00[Europe/Berlin]')      | 'P1D'           |
      | duration.inSeconds | datetime('2021-03-27T12:00[Europe/Berlin]')    | datetime('2021-03-28T12:00[Europe/Berlin]')      | 'PT23H'         |
      | duration.inDays    | datetime('2021-03-27T12:00[Europe/Berlin]')    | datetime('2021-03-28T11:59[Europe/Berlin]')      | 'PT0S'          |
      | duration.between   | datetime('2021-03-28T12:00[Europe/Berlin]')    | datetime('2021-03-27T12:00[Europe/Berlin]')      | 'P-1D'          |
      | duration.between   | datetime('2021-03-28T01:00[Europe/Berlin]')    | datetime('2021-03-28T03:00[Europe/Berlin]')      | 'PT1H'          |
      | duration.between   | datetime('2021-01-01T00:00[Europe/Berlin]')    | datetime('2021-07-01T00:00[Europe/Berlin]')      | 'P6M'           |
      | duration.inSeconds | datetime('2021-01-01T00:00[Europe/Berlin]')    | datetime('2021-07-01T00:00[Europe/Berlin]')      | 'PT4343H'       |
      | duration.between   | datetime('2021-01-01T00:00[Europe/Berlin]')    | datetime('2021-07-01T00:00[America/New_York]')   | 'P6MT6H'        |
      | duration.between   | datetime('2021-01-01T00:00Z')                  | datetime('2021-01-01T01:00+01:00')               | 'PT0S'          |
      | duration.between   | date('2020-02-29')                             | date('2021-02-28')                               | 'P11M30D'       |
      | duration.between   | date('2021-02-28')                             | date('2020-02-29')                               | 'P-11M-28D'     |
      | duration.between   | date('2021-01-31')                             | date('2021-02-28')                               | 'P28D'          |
      | duration.between   | localdatetime('2021-01-01T01:00')              | localdatetime('2021-02-01T00:00')                | 'P30DT23H'      |
      | duration.between   | localdatetime('2021-02-01T00:00')              | localdatetime('2021-01-01T01:00')                | 'P-30DT-23H'    |
      | duration.between   | time('23:00-01:00')                            | time('01:00+01:00')                              | 'PT-24H'        |
      | duration.inMonths  | date('2021-01-31')                             | date('2021-03-01')                               | 'P1M'           |
      | duration.inMonths  | date('2021-03-31')                             | date('2021-02-28')                               | 'P-1M'          |
      | duration.inDays    | localdatetime('2021-01-03T11:59')              | localdatetime('2021-01-01T12:00')                | 'P-1D'          |
      | duration.inSeconds | localtime('12:00')                             | localtime('11:00:00.5')                          | 'PT-59M-59.5S'  |
      | duration.between   | date('-0001-01-01')                            | date('0001-01-01')                               | 'P2Y'           |
      | duration.between   | date('-999999999-01-01')                       | date('+999999999-12-31')                         | 'P1999999998Y11M30D' |
      | duration.inSeconds | date('-999999999-01-01')                       | date('+999999999-12-31')                         | 'PT17531639991192H' |

  Scenario: [3] An instant plus the distance to another is that other
    Given any graph
    When executing query:
      """
      UNWIND [[date('2021-01-31'), date('2024-02-29')], [localdatetime('2021-01-01T23:00'), localdatetime('2020-02-29T01:00')],
              [datetime('2021-03-27T12:00[Europe/Berlin]'), datetime('2021-10-31T02:30+01:00[Europe/Berlin]')]] AS pair
      RETURN pair[0] + duration.between(pair[0], pair[1]) = pair[1] AS back
      """
    Then the result should be, in any order:
      | back |
      | true |
      | true |
      | true |
    And no side effects
