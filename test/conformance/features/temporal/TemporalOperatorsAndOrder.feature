# Sources: Neo4j Cypher manual 5, expressions/temporal-operators (instant +/- duration, duration +/- duration,
# duration * and / number, month ends), syntax/operators ("Equality and comparison of values", "Ordering
# and comparison of values": instants at one point in time in different zones, durations incomparable,
# the ORDER BY order of durations and of the temporal types), values-and-types/temporal (daylight saving).
Feature: TemporalOperatorsAndOrder - temporal arithmetic, equality, comparison and ordering

  Scenario: [1] Adding and subtracting a duration to and from a local date-time
    Given any graph
    When executing query:
      """
      WITH localdatetime({year: 1984, month: 10, day: 11, hour: 12, minute: 31, second: 14}) AS aDateTime,
           duration({years: 12, nanoseconds: 2}) AS aDuration
      RETURN toString(aDateTime + aDuration) AS addition, toString(aDateTime - aDuration) AS subtraction
      """
    Then the result should be, in any order:
      | addition                        | subtraction                     |
      | '1996-10-11T12:31:14.000000002' | '1972-10-11T12:31:13.999999998' |
    And no side effects

  Scenario Outline: [2] Durations add, subtract, multiply and divide, keeping each unit's sign
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
      | expr                                                  | result        |
      | duration({days: 2, hours: 5}) - duration({days: 3, hours: 1}) | 'P-1DT4H' |
      | duration('P1Y') - duration('P13M')                    | 'P-1M'        |
      | duration('PT1.5S') + duration('-PT2.75S')             | 'PT-1.25S'    |
      | duration('P1DT2H') * -2                               | 'P-2DT-4H'    |
      | duration('P1DT2H') / -2                               | 'PT-13H'      |
      | duration('P1Y') * 0                                   | 'PT0S'        |
      | duration('P3D') / 2.0                                 | 'P1DT12H'     |
      | 2 * duration('PT1H')                                  | 'PT2H'        |
      | duration('P1Y') / 2                                   | 'P6M'         |
      | duration('P1M') / 2                                   | 'P15DT5H14M33S' |
      | duration('PT1S') / 3                                  | 'PT0.333333333S' |
      | -duration('P1DT2H')                                   | 'P-1DT-2H'    |

  Scenario Outline: [3] Daylight saving: days move the wall clock, hours move the instant
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
      | expr                                                                | result                                  |
      | datetime('2024-03-30T02:30[Europe/Berlin]') + duration('P1D')       | '2024-03-31T03:30+02:00[Europe/Berlin]' |
      | datetime('2024-03-30T02:30[Europe/Berlin]') + duration('PT24H')     | '2024-03-31T03:30+02:00[Europe/Berlin]' |
      | datetime('2024-10-26T02:30[Europe/Berlin]') + duration('P1D')       | '2024-10-27T02:30+02:00[Europe/Berlin]' |
      | datetime('2024-10-26T12:00[Europe/Berlin]') + duration('PT24H')     | '2024-10-27T11:00+01:00[Europe/Berlin]' |
      | datetime('2024-03-31T03:30[Europe/Berlin]') - duration('PT1H')      | '2024-03-31T01:30+01:00[Europe/Berlin]' |
      | datetime('2024-03-31T03:30[Europe/Berlin]') - duration('P1D')       | '2024-03-30T03:30+01:00[Europe/Berlin]' |
      | datetime('2024-01-15T12:00[Europe/Berlin]') + duration('P6M')       | '2024-07-15T12:00+02:00[Europe/Berlin]' |
      | datetime('2024-03-31T02:30+01:00') + duration('P1M')                | '2024-04-30T02:30+01:00'                |
      | localdatetime('2024-03-31T02:30') + duration('PT1H')                | '2024-03-31T03:30'                      |
      | date('2024-02-29') - duration('P1Y')                                | '2023-02-28'                            |
      | date('2024-03-31') - duration('P1M1D')                              | '2024-02-28'                            |
      | date('2024-03-31') + duration('P1M1D')                              | '2024-05-01'                            |
      | time('12:00+01:00') + duration('P1Y')                               | '12:00+01:00'                           |
      | localtime('00:00') - duration('PT1S')                               | '23:59:59'                              |

  Scenario Outline: [4] Operands that do not combine are type errors, before the query runs when their types are known
    Given any graph
    When executing query:
      """
      WITH <left> AS a, <right> AS b
      RETURN <op> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | left                | right               | op    |
      | date('2020-01-01')  | date('2020-01-02')  | a + b |
      | date('2020-01-01')  | date('2020-01-02')  | a - b |
      | duration('P1D')     | date('2020-01-02')  | a - b |
      | date('2020-01-01')  | 1                   | a + b |
      | duration('P1D')     | 1                   | a + b |
      | duration('P1D')     | duration('P1D')     | a * b |
      | duration('P1D')     | duration('P1D')     | a / b |
      | localtime('12:00')  | time('12:00Z')      | a - b |

  Scenario Outline: [5] Durations out of range and division by zero are arithmetic errors
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then a ArithmeticError should be raised at runtime: <detail>

    Examples:
      | expr                                                              | detail         |
      | duration('P1D') / 0                                               | DivisionByZero |
      | duration('P1D') / 0.0                                             | DivisionByZero |
      | duration({seconds: 9223372036854775807}) + duration({seconds: 1}) | IntegerOverflow |
      | duration('P1D') * 1e300                                           | IntegerOverflow |

  Scenario: [6] One instant in different zones is not equal and orders west to east, then by zone name
    Given any graph
    When executing query:
      """
      UNWIND [datetime('2020-01-01T12:00[Europe/Paris]'), datetime('2020-01-01T12:00+01:00'),
              datetime('2020-01-01T06:00-05:00'), datetime('2020-01-01T12:00[Africa/Lagos]'),
              datetime('2020-01-01T11:00Z'), datetime('2020-01-01T12:00+01:00')] AS x
      WITH x, count(*) AS n
      ORDER BY x
      RETURN toString(x) AS t, n
      """
    Then the result should be, in order:
      | t                                      | n |
      | '2020-01-01T06:00-05:00'               | 1 |
      | '2020-01-01T11:00Z'                    | 1 |
      | '2020-01-01T12:00+01:00'               | 2 |
      | '2020-01-01T12:00+01:00[Africa/Lagos]' | 1 |
      | '2020-01-01T12:00+01:00[Europe/Paris]' | 1 |
    And no side effects

  Scenario: [7] Equality, IN and DISTINCT see the zone; the instant is compared through epochMillis
    Given any graph
    When executing query:
      """
      WITH [datetime('2020-01-01T12:00+01:00'), datetime('2020-01-01T11:00Z')] AS l,
           [time('12:00+01:00'), time('11:00Z'), time('12:00+01:00')] AS times
      UNWIND times AS t
      WITH l, times, count(DISTINCT t) AS c
      RETURN datetime('2020-01-01T11:00Z') IN l AS a, datetime('2020-01-01T06:00-05:00') IN l AS b,
             c, l[0] = l[1] AS d, l[0].epochMillis = l[1].epochMillis AS e,
             l[0] > l[1] AS f, l[1] <= l[0] AS g, times[0] >= times[1] AS h, times[0] = times[2] AS i
      """
    Then the result should be, in any order:
      | a    | b     | c | d     | e    | f    | g    | h    | i    |
      | true | false | 2 | false | true | true | true | true | true |
    And no side effects

  Scenario: [8] Durations cannot be compared but order by their length for ORDER BY, min and max
    Given any graph
    When executing query:
      """
      UNWIND [duration('P1M'), duration('P30D'), duration('P31D'), duration('PT720H'), duration('P1Y'),
              duration('P365D'), duration('P366D'), duration('-P1D')] AS x
      WITH x ORDER BY x
      RETURN collect(toString(x)) AS sorted, min(x) = duration('-P1D') AS lowest, max(x) = duration('P366D') AS highest,
             duration('P1D') < duration('P2D') AS lt, duration('P1D') >= duration('P1D') AS ge
      """
    Then the result should be, in any order:
      | sorted                                                                     | lowest | highest | lt   | ge   |
      | ['P-1D', 'PT720H', 'P30D', 'P1M', 'P31D', 'P365D', 'P1Y', 'P366D']         | true   | true    | null | null |
    And no side effects

  Scenario: [9] Temporal types order after paths and before strings: zoned date-time first, duration last
    Given any graph
    When executing query:
      """
      UNWIND [localtime('12:00'), 'z', date('2020-01-01'), duration('P1D'), datetime('2020-01-01T00:00Z'),
              time('12:00Z'), [1], localdatetime('2020-01-01T00:00'), 1] AS x
      WITH x ORDER BY x
      RETURN collect(x) AS ordered
      """
    Then the result should be, in any order:
      | ordered |
      | [[1], '2020-01-01T00:00Z', '2020-01-01T00:00', '2020-01-01', '12:00Z', '12:00', 'P1D', 'z', 1] |
    And no side effects

  Scenario: [10] Values of different temporal types are neither equal nor comparable
    Given any graph
    When executing query:
      """
      RETURN date('2020-01-01') = localdatetime('2020-01-01T00:00') AS a, date('2020-01-01') < datetime('2020-01-02T00:00Z') AS b,
             localtime('12:00') = time('12:00Z') AS c, localtime('12:00') <> time('12:00Z') AS d,
             date('2020-01-01') = '2020-01-01' AS e, date('2020-01-01') < null AS f, min(date('2020-01-01')) AS g
      """
    Then the result should be, in any order:
      | a     | b    | c     | d    | e     | f    | g            |
      | false | null | false | true | false | null | '2020-01-01' |
    And no side effects

  Scenario Outline: [11] A temporal value joins a string as its ISO text
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
      | expr                                                   | result                                   |
      | 'due ' + date('2020-01-01')                            | 'due 2020-01-01'                         |
      | datetime('2020-01-01T10:00[Europe/Paris]') + '!'       | '2020-01-01T10:00+01:00[Europe/Paris]!'  |
      | 'took ' + duration('P1DT2H')                           | 'took P1DT2H'                            |
      | localtime('10:00:00.5') + ''                           | '10:00:00.500'                           |
      | 'at ' + time('10:00+01:00') + ' or ' + localdatetime('2020-01-01T10:00') | 'at 10:00+01:00 or 2020-01-01T10:00' |

  Scenario Outline: [12] Stored date-times: equality and ranges see the zone the same with and without an index
    Given an empty graph
    And having executed:
      """
      CREATE (:E {id: 1, t: datetime('2020-01-01T12:00+01:00')}), (:E {id: 2, t: datetime('2020-01-01T11:00Z')}),
             (:E {id: 3, t: datetime('2020-01-01T12:00[Europe/Paris]')}), (:E {id: 4, t: datetime('2020-01-01T13:00Z')})
      """
    And having executed:
      """
      <index>
      """
    When executing query:
      """
      MATCH (e:E) WHERE <predicate>
      RETURN e.id AS id
      """
    Then the result should be, in any order:
      | id   |
      | <id> |
    And no side effects

    Examples:
      | index                                  | predicate                                               | id |
      | RETURN 1                               | e.t = datetime('2020-01-01T11:00Z')                     | 2  |
      | CREATE INDEX e_t FOR (e:E) ON (e.t)    | e.t = datetime('2020-01-01T11:00Z')                     | 2  |
      | RETURN 1                               | e.t = datetime('2020-01-01T12:00+01:00')                | 1  |
      | CREATE INDEX e_t FOR (e:E) ON (e.t)    | e.t = datetime('2020-01-01T12:00+01:00')                | 1  |
      | RETURN 1                               | e.t IN [datetime('2020-01-01T12:00[Europe/Paris]')]     | 3  |
      | CREATE INDEX e_t FOR (e:E) ON (e.t)    | e.t IN [datetime('2020-01-01T12:00[Europe/Paris]')]     | 3  |
      | RETURN 1                               | e.t > datetime('2020-01-01T12:00[Europe/Paris]')        | 4  |
      | CREATE INDEX e_t FOR (e:E) ON (e.t)    | e.t > datetime('2020-01-01T12:00[Europe/Paris]')        | 4  |
      | RETURN 1                               | e.t < datetime('2020-01-01T12:00+01:00')                | 2  |
      | CREATE INDEX e_t FOR (e:E) ON (e.t)    | e.t < datetime('2020-01-01T12:00+01:00')                | 2  |

  Scenario Outline: [13] Operands that do not combine, of types known only when the row runs, are type errors then
    Given any graph
    When executing query:
      """
      UNWIND [[<left>, <right>, 'a list of mixed types']] AS pair
      WITH pair[0] AS a, pair[1] AS b
      RETURN <op> AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | left                | right               | op    |
      | date('2020-01-01')  | date('2020-01-02')  | a - b |
      | date('2020-01-01')  | 1                   | a + b |
      | duration('P1D')     | duration('P1D')     | a * b |
