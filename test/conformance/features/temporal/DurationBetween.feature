Feature: DurationBetween - the distance between two temporal values of any two kinds

  # A value lacking a time of day, a date or a zone is given the other operand's before measuring:
  # midnight, the other's date, the other's zone. Calendar units count only when both operands are dated.

  Scenario Outline: [1] duration.between across kinds
    Given any graph
    When executing query:
      """
      RETURN duration.between(<from>, <to>) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | from                                        | to                                          | result          |
      | date('2001-03-15')                          | date('2003-01-10')                          | 'P1Y9M26D'      |
      | date('2001-03-15')                          | localdatetime('2001-04-15T06:00')           | 'P1MT6H'        |
      | localdatetime('2001-04-15T06:00')           | date('2001-03-15')                          | 'P-1MT-6H'      |
      | localtime('09:15:30')                       | date('2001-03-15')                          | 'PT-9H-15M-30S' |
      | date('2001-03-15')                          | time('09:15:30-0300')                       | 'PT9H15M30S'    |
      | time('09:15:30-0300')                       | time('23:45+0100')                          | 'PT10H29M30S'   |
      | time('23:00+0000')                          | time('01:00+0500')                          | 'PT-27H'        |
      | localtime('09:15:30')                       | datetime('2002-01-31T23:10+0530')           | 'PT13H54M30S'   |
      | datetime('2002-01-31T23:10+0530')           | localdatetime('2002-03-01T00:00')           | 'P28DT50M'      |
      | datetime('2021-03-28T01:30[Europe/Berlin]') | localdatetime('2021-03-28T04:30')           | 'PT2H'          |
      | datetime('2021-10-30T12:00[Europe/Berlin]') | datetime('2021-10-31T12:00[Europe/Berlin]') | 'P1D'           |
      | datetime('2020-06-01T10:00+0200')           | datetime('2020-06-02T09:00+0000')           | 'P1DT1H'        |

  Scenario Outline: [2] duration.inMonths counts whole months only between dated values
    Given any graph
    When executing query:
      """
      RETURN duration.inMonths(<from>, <to>) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | from                              | to                                | result  |
      | date('2001-03-15')                | date('2003-01-10')                | 'P1Y9M' |
      | localdatetime('2001-04-15T06:00') | date('2001-03-15')                | 'P-1M'  |
      | date('2020-01-31')                | date('2020-02-29')                | 'PT0S'  |
      | localtime('10:00')                | localtime('12:00')                | 'PT0S'  |
      | datetime('2002-01-31T23:10+0530') | date('2002-03-31')                | 'P1M'   |
      | date('2002-03-31')                | localtime('12:00')                | 'PT0S'  |

  Scenario Outline: [3] duration.inDays keeps whole days and drops the time left
    Given any graph
    When executing query:
      """
      RETURN duration.inDays(<from>, <to>) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | from                                        | to                                          | result  |
      | date('2001-03-15')                          | localdatetime('2001-04-15T06:00')           | 'P31D'  |
      | localdatetime('2001-04-15T06:00')           | date('2001-03-15')                          | 'P-31D' |
      | datetime('2002-01-31T23:10+0530')           | localdatetime('2002-03-01T00:00')           | 'P28D'  |
      | localtime('09:00')                          | datetime('2010-05-05T08:00+0100')           | 'PT0S'  |
      | time('09:00+0100')                          | localtime('08:00')                          | 'PT0S'  |
      | datetime('2021-10-30T12:00[Europe/Berlin]') | datetime('2021-10-31T12:00[Europe/Berlin]') | 'P1D'   |

  Scenario Outline: [4] duration.inSeconds measures elapsed time, across daylight-saving changes
    Given any graph
    When executing query:
      """
      RETURN duration.inSeconds(<from>, <to>) AS d
      """
    Then the result should be, in any order:
      | d        |
      | <result> |
    And no side effects

    Examples:
      | from                                        | to                                          | result        |
      | date('2001-03-15')                          | date('2001-03-17')                          | 'PT48H'       |
      | localdatetime('2001-04-15T06:00')           | date('2001-03-15')                          | 'PT-750H'     |
      | time('09:15:30-0300')                       | localtime('09:00')                          | 'PT-15M-30S'  |
      | datetime('2021-03-28T01:30[Europe/Berlin]') | localtime('04:30')                          | 'PT2H'        |
      | datetime('2021-03-28T01:30[Europe/Berlin]') | localdatetime('2021-03-28T04:30')           | 'PT2H'        |
      | date('2021-10-31')                          | datetime('2021-10-31T12:00[Europe/Berlin]') | 'PT13H'       |
      | datetime('2021-10-30T12:00[Europe/Berlin]') | datetime('2021-10-31T12:00[Europe/Berlin]') | 'PT25H'       |
      | localtime('10:00:00.75')                    | localtime('10:00:00.25')                    | 'PT-0.5S'     |
      | localdatetime('2000-01-01T00:00:01.2')      | localdatetime('1999-12-31T23:59:59.9')      | 'PT-1.3S'     |

  Scenario Outline: [5] A null operand gives null
    Given any graph
    When executing query:
      """
      RETURN <fn>(<from>, <to>) AS d
      """
    Then the result should be, in any order:
      | d    |
      | null |
    And no side effects

    Examples:
      | fn                 | from               | to                 |
      | duration.between   | null               | date('2000-01-01') |
      | duration.inMonths  | localtime('10:00') | null               |
      | duration.inDays    | null               | null               |
      | duration.inSeconds | datetime()         | null               |

  Scenario: [6] An operand that is not a temporal value is refused
    Given any graph
    When executing query:
      """
      RETURN duration.between(date('2000-01-01'), 'tomorrow') AS d
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [7] An operand whose type is known only when the row runs is refused then
    Given any graph
    When executing query:
      """
      UNWIND [[date('2000-01-01'), 'tomorrow']] AS pair
      RETURN duration.between(pair[0], pair[1]) AS d
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue
