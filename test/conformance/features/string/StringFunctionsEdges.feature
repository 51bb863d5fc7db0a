Feature: StringFunctionsEdges - string functions on null, on wrong types and on characters outside the BMP

  Scenario: [1] A null string gives null
    Given any graph
    When executing query:
      """
      RETURN toUpper(null) AS a, toLower(null) AS b, trim(null) AS c, lTrim(null) AS d, rTrim(null) AS e,
             substring(null, 0) AS f, left(null, 2) AS g, right(null, 2) AS h, split(null, '-') AS i,
             replace(null, 'a', 'b') AS j, reverse(null) AS k, size(null) AS l
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f    | g    | h    | i    | j    | k    | l    |
      | null | null | null | null | null | null | null | null | null | null | null | null |
    And no side effects

  Scenario Outline: [2] A null position or length is an error
    Given any graph
    When executing query:
      """
      RETURN <call> AS v
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | call                      |
      | substring('kayak', null)  |
      | substring('kayak', 1, null) |
      | left('kayak', null)       |
      | right('kayak', null)      |

  Scenario Outline: [3] A negative position or length is out of range
    Given any graph
    When executing query:
      """
      RETURN <call> AS v
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

    Examples:
      | call                     |
      | substring('kayak', -2)   |
      | substring('kayak', 0, -1) |
      | left('kayak', -3)        |
      | right('kayak', -3)       |

  Scenario Outline: [4] A value that is not a string is refused at run time
    Given any graph
    When executing query:
      """
      WITH [<value>, 'x'] AS box
      RETURN <fn>(box[0]) AS v
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | fn      | value   |
      | toUpper | 12      |
      | trim    | true    |
      | lTrim   | [' x']  |
      | toLower | {a: 1}  |

  Scenario: [5] Characters outside the Basic Multilingual Plane count once
    Given any graph
    When executing query:
      """
      WITH 'x🎲y🎲' AS s
      RETURN size(s) AS n, substring(s, 1, 2) AS mid, left(s, 2) AS l, right(s, 1) AS r, reverse(s) AS rev
      """
    Then the result should be, in any order:
      | n | mid   | l     | r    | rev      |
      | 4 | '🎲y' | 'x🎲' | '🎲' | '🎲y🎲x' |
    And no side effects

  Scenario: [6] Positions past the end give what is there
    Given any graph
    When executing query:
      """
      RETURN substring('kayak', 9) AS a, substring('kayak', 3, 10) AS b, left('kayak', 10) AS c, right('kayak', 10) AS d
      """
    Then the result should be, in any order:
      | a  | b    | c       | d       |
      | '' | 'ak' | 'kayak' | 'kayak' |
    And no side effects

  Scenario: [7] String predicates with a null or a non-string operand are null
    Given any graph
    When executing query:
      """
      RETURN 'kayak' STARTS WITH null AS a, null ENDS WITH 'k' AS b, 'kayak' CONTAINS 1 AS c, 2 STARTS WITH 'k' AS d
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    |
      | null | null | null | null |
    And no side effects

  Scenario: [8] Splitting on the empty string gives the characters
    Given any graph
    When executing query:
      """
      RETURN split('ab🎲', '') AS parts, split('a--b-', '-') AS pieces
      """
    Then the result should be, in any order:
      | parts            | pieces              |
      | ['a', 'b', '🎲'] | ['a', '', 'b', '']  |
    And no side effects
