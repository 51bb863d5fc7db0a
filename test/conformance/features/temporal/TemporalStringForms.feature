# Sources: Neo4j Cypher manual 5, values-and-types/temporal ("Specifying dates", "Specifying times",
# "Specifying time zones": every format of the tables, the rules for years beyond four digits, the `T`
# before a time alone, offsets and zone names per type), openCypher 9 temporal CIP.
Feature: TemporalStringForms - every ISO 8601 form the temporal types are written in

  Scenario Outline: [1] Every date format of the manual's table
    Given any graph
    When executing query:
      """
      RETURN toString(date(<text>)) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | text            | result          |
      | '2015-07-21'    | '2015-07-21'    |
      | '20150721'      | '2015-07-21'    |
      | '2015-07'       | '2015-07-01'    |
      | '201507'        | '2015-07-01'    |
      | '2015-W30-2'    | '2015-07-21'    |
      | '2015W302'      | '2015-07-21'    |
      | '2015-W30'      | '2015-07-20'    |
      | '2015W30'       | '2015-07-20'    |
      | '2015-Q2-60'    | '2015-05-30'    |
      | '2015Q260'      | '2015-05-30'    |
      | '2015-Q2'       | '2015-04-01'    |
      | '2015Q2'        | '2015-04-01'    |
      | '2015-202'      | '2015-07-21'    |
      | '2015202'       | '2015-07-21'    |
      | '2015'          | '2015-01-01'    |
      | '+2015-W13-4'   | '2015-03-26'    |
      | '-3000-01-01'   | '-3000-01-01'   |
      | '+11000-01'     | '+11000-01-01'  |
      | '+11000-123'    | '+11000-05-03'  |
      | '+999999999-12-31' | '+999999999-12-31' |
      | '-999999999-01-01' | '-999999999-01-01' |
      | '0000-01-01'    | '0000-01-01'    |
      | '2016-366'      | '2016-12-31'    |
      | '2016-Q1-91'    | '2016-03-31'    |
      | '2015-W53-7'    | '2016-01-03'    |
      | '2020-W53'      | '2020-12-28'    |

  Scenario Outline: [2] Dates that do not exist, and texts that are not dates
    Given any graph
    When executing query:
      """
      RETURN date(<text>) AS d
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | text                |
      | '2015-366'          |
      | '2015-Q1-91'        |
      | '2015-Q2-93'        |
      | '2016-W53'          |
      | '2015-W54'          |
      | '2015-W30-8'        |
      | '2015-W30-0'        |
      | '2015-13'           |
      | '2015-00'           |
      | '2015-07-32'        |
      | '2015-02-29'        |
      | '015-07-21'         |
      | '12015-07-21'       |
      | '+1000000000-01-01' |
      | '2015-1-1'          |
      | '2015/07/21'        |
      | ''                  |
      | 'today'             |
      | '2015-07-21T10:00'  |

  Scenario Outline: [3] Every time format, alone or after the T that separates it from a date
    Given any graph
    When executing query:
      """
      RETURN toString(localtime(<text>)) AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | text                   | result               |
      | '21:40:32.142'         | '21:40:32.142'       |
      | '214032.142'           | '21:40:32.142'       |
      | '21:40:32'             | '21:40:32'           |
      | '214032'               | '21:40:32'           |
      | '21:40'                | '21:40'              |
      | '2140'                 | '21:40'              |
      | '21'                   | '21:00'              |
      | '21:40:32,5'           | '21:40:32.500'       |
      | '21:40:32.000000001'   | '21:40:32.000000001' |
      | '21:40:32.1'           | '21:40:32.100'       |
      | 'T21:40:32.142'        | '21:40:32.142'       |
      | 'T2140'                | '21:40'              |
      | 't21'                  | '21:00'              |
      | '00:00'                | '00:00'              |
      | '23:59:59.999999999'   | '23:59:59.999999999' |

  Scenario Outline: [4] Times that do not exist, and texts that are not times of day
    Given any graph
    When executing query:
      """
      RETURN localtime(<text>) AS t
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | text          |
      | '24:00'       |
      | '23:60'       |
      | '23:59:60'    |
      | '21:4'        |
      | '21:40:3'     |
      | '2140.5'      |
      | '21:40.5'     |
      | '21:40Z'      |
      | '21:40+01:00' |
      | 'T'           |
      | 'noon'        |

  Scenario Outline: [5] Offsets of a time: Z, hours and minutes with or without a colon, hours alone
    Given any graph
    When executing query:
      """
      RETURN toString(time(<text>)) AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | text                 | result             |
      | '21:40:32Z'          | '21:40:32Z'        |
      | '21:40:32z'          | '21:40:32Z'        |
      | '21:40:32+09:30'     | '21:40:32+09:30'   |
      | '21:40:32+0100'      | '21:40:32+01:00'   |
      | '21:40:32-08'        | '21:40:32-08:00'   |
      | '21:40:32+00:00'     | '21:40:32Z'        |
      | '21:40:32-00:00'     | '21:40:32Z'        |
      | '21:40:32+18:00'     | '21:40:32+18:00'   |
      | '21:40:32-18:00'     | '21:40:32-18:00'   |
      | 'T21:40:32+01:00'    | '21:40:32+01:00'   |
      | 'T2140-0130'         | '21:40-01:30'      |

  Scenario Outline: [6] A time takes no zone name, and no offset beyond eighteen hours
    Given any graph
    When executing query:
      """
      RETURN time(<text>) AS t
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | text                         |
      | '21:40:32[Europe/Paris]'     |
      | '21:40:32+01:00[Europe/Paris]' |
      | '21:40:32+18:01'             |
      | '21:40:32+19'                |
      | '21:40:32+1'                 |
      | '21:40:32+01:0'              |
      | '21:40:32 +01:00'            |

  Scenario Outline: [7] Every zone format of a date-time: offset, offset and name, name alone
    Given any graph
    When executing query:
      """
      RETURN toString(datetime(<text>)) AS t
      """
    Then the result should be, in any order:
      | t        |
      | <result> |
    And no side effects

    Examples:
      | text                                             | result                                             |
      | '2015-07-21T21:40:32.142Z'                       | '2015-07-21T21:40:32.142Z'                         |
      | '2015-07-21T21:40:32.142+09:30'                  | '2015-07-21T21:40:32.142+09:30'                    |
      | '2015-07-21T21:40:32.142+08:45[Australia/Eucla]' | '2015-07-21T21:40:32.142+08:45[Australia/Eucla]'   |
      | '2015-07-21T21:40:32.142+0100'                   | '2015-07-21T21:40:32.142+01:00'                    |
      | '2015-07-21T21:40:32.142+0200[Africa/Johannesburg]' | '2015-07-21T21:40:32.142+02:00[Africa/Johannesburg]' |
      | '2015-07-21T21:40:32.142-08'                     | '2015-07-21T21:40:32.142-08:00'                    |
      | '2015-07-21T21:40:32.142+08[Asia/Singapore]'     | '2015-07-21T21:40:32.142+08:00[Asia/Singapore]'    |
      | '2015-07-21T21:40:32.142[America/Regina]'        | '2015-07-21T21:40:32.142-06:00[America/Regina]'    |
      | '2015-07-21T21:40:32.142Z[UTC]'                  | '2015-07-21T21:40:32.142Z[UTC]'                    |
      | '2015-07-21T21:40:32.142[Etc/GMT-14]'            | '2015-07-21T21:40:32.142+14:00[Etc/GMT-14]'        |
      | '1818-07-21T21:40:32.142[Europe/Stockholm]'      | '1818-07-21T21:40:32.142+00:53:28[Europe/Stockholm]' |
      | '2015-W30-2T214032.142Z'                         | '2015-07-21T21:40:32.142Z'                         |
      | '2015T214032-0100'                               | '2015-01-01T21:40:32-01:00'                        |
      | '20150721T21:40-01:30'                           | '2015-07-21T21:40-01:30'                           |
      | '2015-W30T2140-02'                               | '2015-07-20T21:40-02:00'                           |
      | '2015202T21+18:00'                               | '2015-07-21T21:00+18:00'                           |
      | '2015-Q3-21T21:40Z'                              | '2015-07-21T21:40Z'                                |
      | '2015-07-21t21:40z'                              | '2015-07-21T21:40Z'                                |
      | '2015-07-21T21:40'                               | '2015-07-21T21:40Z'                                |
      | '2015-07-21'                                     | '2015-07-21T00:00Z'                                |

  Scenario Outline: [8] A local date-time takes no offset or zone; a date-time no unknown zone
    Given any graph
    When executing query:
      """
      RETURN <expr> AS t
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | expr                                                  |
      | localdatetime('2015-07-21T21:40Z')                    |
      | localdatetime('2015-07-21T21:40+01:00')               |
      | localdatetime('2015-07-21T21:40[Europe/London]')      |
      | localdatetime('2015-07-21 21:40')                     |
      | datetime('2015-07-21T21:40[Europe/Nowhere]')          |
      | datetime('2015-07-21T21:40[GMT+01:00]')               |
      | datetime('2015-07-21T21:40:32.142+00:00[Europe/London]') |
      | datetime('2015-07-21Z')                               |
      | datetime('2015-07-21T24:00Z')                         |
