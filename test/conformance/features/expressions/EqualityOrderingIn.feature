Feature: EqualityOrderingIn - equality, comparability and the global sort order across types, and IN with nulls

  Scenario: [1] Equality across types and inside containers
    Given any graph
    When executing query:
      """
      RETURN 2 = 2.0 AS a, [2] = [2.0] AS b, {k: 2} = {k: 2.0} AS c, [2, null] = [2, null] AS d,
             [2, 3] = [2, null] AS e, [2, 3] = [4, null] AS f, {k: null} = {k: null} AS g,
             'two' = 2 AS h, {k: 1} = {j: 1} AS i, {k: 1} = {k: 1, j: null} AS j, null = null AS k
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f     | g    | h     | i     | j     | k    |
      | true | true | true | null | null | false | null | false | false | false | null |
    And no side effects

  Scenario: [2] NaN is unequal to everything, itself included
    Given any graph
    When executing query:
      """
      WITH 0.0 / 0.0 AS nan
      RETURN nan = nan AS a, nan <> nan AS b, nan < 1 AS c, nan > 1 AS d, [nan] = [nan] AS e
      """
    Then the result should be, in any order:
      | a     | b    | c     | d     | e     |
      | false | true | false | false | false |
    And no side effects

  Scenario: [3] Values of different types are not comparable
    Given any graph
    When executing query:
      """
      RETURN 1 < 'one' AS a, true < 1 AS b, [1] < 'x' AS c, {a: 1} < {a: 2} AS d,
             [1, 'x'] < [1, 2] AS e, [1, null] < [2, 1] AS f, [1, null] < [1, 2] AS g, [] < [null] AS h
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f    | g    | h    |
      | null | null | null | null | null | true | null | true |
    And no side effects

  Scenario: [4] ORDER BY follows one order over all types, null last
    Given any graph
    When executing query:
      """
      UNWIND [7, 'kiwi', null, [3], {z: 1}, false, 1.5, date('2001-01-01'), duration('PT1S'),
              localtime('08:00'), 'Apple', true, [], [1, 'x'], -2] AS v
      RETURN v ORDER BY v
      """
    Then the result should be, in order:
      | v            |
      | {z: 1}       |
      | []           |
      | [1, 'x']     |
      | [3]          |
      | '2001-01-01' |
      | '08:00'      |
      | 'PT1S'       |
      | 'Apple'      |
      | 'kiwi'       |
      | false        |
      | true         |
      | -2           |
      | 1.5          |
      | 7            |
      | null         |
    And no side effects

  Scenario: [5] Descending order puts null first, and lists order element by element
    Given any graph
    When executing query:
      """
      UNWIND [[2], [1, 5], null, [1], [1, null], [null]] AS v
      RETURN v ORDER BY v DESC
      """
    Then the result should be, in order:
      | v         |
      | null      |
      | [null]    |
      | [2]       |
      | [1, null] |
      | [1, 5]    |
      | [1]       |
    And no side effects

  Scenario: [6] Infinities and NaN among numbers
    Given any graph
    When executing query:
      """
      UNWIND [1.0 / 0.0, 3, -1.0 / 0.0, 0.0 / 0.0, -0.5] AS v
      RETURN toString(v) AS s ORDER BY v
      """
    Then the result should be, in order:
      | s           |
      | '-Infinity' |
      | '-0.5'      |
      | '3'         |
      | 'Infinity'  |
      | 'NaN'       |
    And no side effects

  Scenario: [7] IN is true on a match, null when a null could have matched, false otherwise
    Given any graph
    When executing query:
      """
      RETURN 1 IN [1, null] AS a, 2 IN [1, null] AS b, null IN [1] AS c, null IN [] AS d,
             [1] IN [[1], null] AS e, [1, null] IN [[1, null]] AS f, 1 IN null AS g, 3 IN [] AS h,
             [2] IN [[1, null]] AS i, 1.0 IN [1] AS j
      """
    Then the result should be, in any order:
      | a    | b    | c    | d     | e    | f    | g    | h     | i     | j    |
      | true | null | null | false | true | null | null | false | false | true |
    And no side effects

  Scenario: [8] IN needs a list on its right
    Given any graph
    When executing query:
      """
      WITH [1, 'x'] AS box
      RETURN 1 IN box[1] AS v
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType
