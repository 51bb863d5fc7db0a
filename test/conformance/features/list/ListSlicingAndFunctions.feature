# Sources: openCypher 9 reference, list expressions (index, slice with negative and null bounds, IN with
# three-valued equality, concatenation); Neo4j Cypher manual 5, functions/list (range, reduce, head, last,
# tail, toIntegerList, toFloatList, toStringList, toBooleanList) and functions/scalar (isEmpty, size).
Feature: ListSlicingAndFunctions - slices, ranges, reduce, list conversion and IN with nulls

  Scenario: [1] Negative slice bounds count from the end; bounds past the ends are clamped
    Given any graph
    When executing query:
      """
      WITH ['a', 'b', 'c', 'd', 'e'] AS l
      RETURN l[-2..] AS a, l[..-2] AS b, l[-10..2] AS c, l[3..1] AS d, l[1..1] AS e, l[2..100] AS f, l[-3..-1] AS g
      """
    Then the result should be, in any order:
      | a          | b               | c          | d  | e  | f               | g          |
      | ['d', 'e'] | ['a', 'b', 'c'] | ['a', 'b'] | [] | [] | ['c', 'd', 'e'] | ['c', 'd'] |
    And no side effects

  Scenario: [2] A null slice bound gives null
    Given any graph
    When executing query:
      """
      WITH [1, 2, 3] AS l
      RETURN l[null..] AS a, l[..null] AS b, l[1..null] AS c, l[null..null] AS d
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    |
      | null | null | null | null |
    And no side effects

  Scenario: [3] Indexes out of range, at the extremes of 64 bits, give null
    Given any graph
    When executing query:
      """
      WITH [1, 2, 3] AS l
      RETURN l[-1] AS a, l[-3] AS b, l[-4] AS c, l[3] AS d, l[9223372036854775807] AS e,
             l[-9223372036854775808] AS f, l[1..9223372036854775807] AS g
      """
    Then the result should be, in any order:
      | a | b | c    | d    | e    | f    | g      |
      | 3 | 1 | null | null | null | null | [2, 3] |
    And no side effects

  Scenario Outline: [4] A slice bound that is not an integer is refused
    Given any graph
    When executing query:
      """
      WITH [1, 2, 3] AS l RETURN l[<bounds>] AS s
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | bounds     |
      | 0..1.5     |
      | '0'..1     |
      | 0..true    |

  Scenario: [5] range with negative steps, empty ranges and single elements
    Given any graph
    When executing query:
      """
      RETURN range(5, 1, -2) AS a, range(1, 5, -1) AS b, range(0, 0) AS c, range(3, 1) AS d,
             range(-1, -4, -1) AS e, range(10, 1, -3) AS f, range(1, 10, 4) AS g
      """
    Then the result should be, in any order:
      | a         | b  | c   | d  | e                | f              | g          |
      | [5, 3, 1] | [] | [0] | [] | [-1, -2, -3, -4] | [10, 7, 4, 1]  | [1, 5, 9]  |
    And no side effects

  Scenario: [6] range up to the largest integer does not overflow
    Given any graph
    When executing query:
      """
      RETURN range(9223372036854775806, 9223372036854775807) AS a, range(-9223372036854775807, -9223372036854775808, -1) AS b
      """
    Then the result should be, in any order:
      | a                                          | b                                            |
      | [9223372036854775806, 9223372036854775807] | [-9223372036854775807, -9223372036854775808] |
    And no side effects

  Scenario Outline: [7] range with a zero step is refused
    Given any graph
    When executing query:
      """
      WITH 0 AS zero RETURN range(<args>) AS r
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

    Examples:
      | args          |
      | 1, 5, zero    |
      | 5, 1, zero    |
      | 0, 0, zero    |

  Scenario Outline: [8] range needs integer arguments
    Given any graph
    When executing query:
      """
      WITH <value> AS v RETURN range(v, 3) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | value |
      | 1.0   |
      | 'a'   |
      | true  |

  Scenario: [9] reduce over strings, over an empty list, and through a null element
    Given any graph
    When executing query:
      """
      RETURN reduce(acc = '', s IN ['x', 'y', 'z'] | acc + s) AS a,
             reduce(acc = 0, x IN [] | acc + x) AS b,
             reduce(acc = 1, x IN [1, null, 2] | acc + x) AS c,
             reduce(acc = [], x IN [1, 2, 3] | [x] + acc) AS d,
             reduce(acc = 0, x IN [1, 2] | acc + reduce(inner = 0, y IN range(1, x) | inner + y)) AS e
      """
    Then the result should be, in any order:
      | a     | b | c    | d         | e |
      | 'xyz' | 0 | null | [3, 2, 1] | 4 |
    And no side effects

  Scenario: [10] head, last and tail on empty lists and lists with nulls
    Given any graph
    When executing query:
      """
      RETURN head([]) AS a, last([]) AS b, tail([]) AS c, head([null, 1]) AS d, last([1, null]) AS e,
             tail([1]) AS f, tail([null, null]) AS g
      """
    Then the result should be, in any order:
      | a    | b    | c  | d    | e    | f  | g      |
      | null | null | [] | null | null | [] | [null] |
    And no side effects

  Scenario: [11] Concatenating with null, nested lists and single values
    Given any graph
    When executing query:
      """
      RETURN [1] + null AS a, null + [1] AS b, [1] + [null] AS c, [1, 2] + 3 AS d, 0 + [1] AS e,
             [[1]] + [[2]] AS f, [1] + [[2]] AS g, [] + [] AS h, ['a'] + 'b' AS i
      """
    Then the result should be, in any order:
      | a    | b    | c         | d         | e      | f          | g        | h  | i          |
      | null | null | [1, null] | [1, 2, 3] | [0, 1] | [[1], [2]] | [1, [2]] | [] | ['a', 'b'] |
    And no side effects

  Scenario: [12] IN compares whole nested lists, with nulls inside making it unknown
    Given any graph
    When executing query:
      """
      RETURN [1, 2] IN [[1, 2], 3] AS a, [1] IN [[1, null]] AS b, [1, null] IN [[1, null]] AS c,
             null IN [] AS d, 1 IN [null, 2] AS e, 1 IN [1, null] AS f, [null] IN [[null]] AS g,
             [1, 2] IN [[1, 3], [1, null]] AS h, [2, 1] IN [[1, 2]] AS i
      """
    Then the result should be, in any order:
      | a    | b     | c    | d     | e    | f    | g    | h    | i     |
      | true | false | null | false | null | true | null | null | false |
    And no side effects

  Scenario: [13] The list conversion functions convert element by element
    Given any graph
    When executing query:
      """
      RETURN toIntegerList([1, '2', 2.7, 'x', null, true]) AS i,
             toFloatList([1, '2.5', 'x', null]) AS f,
             toStringList([1, 2.5, true, null, [1]]) AS s,
             toBooleanList(['true', 'no', 0, 1, null, 1.0]) AS b
      """
    Then the result should be, in any order:
      | i                        | f                      | s                                 | b                                    |
      | [1, 2, 2, null, null, 1] | [1.0, 2.5, null, null] | ['1', '2.5', 'true', null, null]  | [true, null, false, true, null, null] |
    And no side effects

  Scenario: [14] The list conversion functions on null and on empty lists
    Given any graph
    When executing query:
      """
      RETURN toIntegerList(null) AS a, toFloatList([]) AS b, toStringList(null) AS c, toBooleanList([]) AS d
      """
    Then the result should be, in any order:
      | a    | b  | c    | d  |
      | null | [] | null | [] |
    And no side effects

  Scenario Outline: [15] The list conversion functions need a list
    Given any graph
    When executing query:
      """
      WITH [<value>, [1]] AS box RETURN <function>(box[0]) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | function      | value |
      | toIntegerList | 'x'   |
      | toFloatList   | 1     |
      | toStringList  | {a: 1} |
      | toBooleanList | true  |

  Scenario: [16] isEmpty on lists, strings and maps
    Given any graph
    When executing query:
      """
      RETURN isEmpty([]) AS a, isEmpty('') AS b, isEmpty({}) AS c, isEmpty(null) AS d, isEmpty([null]) AS e, isEmpty(' ') AS f
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e     | f     |
      | true | true | true | null | false | false |
    And no side effects

  Scenario: [17] Comprehensions nest and see outer variables
    Given any graph
    When executing query:
      """
      WITH 10 AS k
      RETURN [x IN range(1, 3) | [y IN range(1, x) | y * k]] AS l, [x IN [1, null, 3] WHERE x IS NOT NULL] AS m
      """
    Then the result should be, in any order:
      | l                                 | m      |
      | [[10], [10, 20], [10, 20, 30]]    | [1, 3] |
    And no side effects
