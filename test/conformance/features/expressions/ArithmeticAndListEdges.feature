Feature: ArithmeticAndListEdges - integer overflow, division by zero, and list functions on nulls and wrong types

  Scenario Outline: [1] Integer arithmetic that leaves 64 bits overflows
    Given any graph
    When executing query:
      """
      WITH -9223372036854775808 AS lowest, 9223372036854775807 AS highest
      RETURN <expr> AS v
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

    Examples:
      | expr          |
      | highest + 1   |
      | lowest - 1    |
      | -lowest       |
      | abs(lowest)   |
      | highest * 3   |
      | lowest / -1   |

  Scenario Outline: [2] Integer division and modulo by zero fail; float division gives infinities
    Given any graph
    When executing query:
      """
      WITH 0 AS zero
      RETURN <expr> AS v
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero

    Examples:
      | expr      |
      | 5 / zero  |
      | 5 % zero  |

  Scenario: [3] Float division by zero, and integer division truncating toward zero
    Given any graph
    When executing query:
      """
      RETURN toString(2.0 / 0) AS a, toString(-2 / 0.0) AS b, toString(0 / 0.0) AS c, 9 / -4 AS d, -9 % 4 AS e, 9 % 2.5 AS f
      """
    Then the result should be, in any order:
      | a          | b           | c     | d  | e  | f   |
      | 'Infinity' | '-Infinity' | 'NaN' | -2 | -1 | 1.5 |
    And no side effects

  Scenario: [4] List functions on null give null
    Given any graph
    When executing query:
      """
      RETURN head(null) AS a, last(null) AS b, tail(null) AS c, size(null) AS d, reverse(null) AS e,
             [1, 2][null] AS f, null[0] AS g, [1, 2, 3][null..1] AS h, reduce(s = 0, x IN null | s + x) AS i
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f    | g    | h    | i    |
      | null | null | null | null | null | null | null | null | null |
    And no side effects

  Scenario: [5] Empty lists and indexes out of range
    Given any graph
    When executing query:
      """
      RETURN head([]) AS a, last([]) AS b, tail([]) AS c, [1, 2][5] AS d, [1, 2][-3] AS e, [1, 2, 3][-2..] AS f,
             [1, 2, 3][2..1] AS g, range(3, 1) AS h, range(9, 1, -4) AS i
      """
    Then the result should be, in any order:
      | a    | b    | c  | d    | e    | f      | g  | h  | i         |
      | null | null | [] | null | null | [2, 3] | [] | [] | [9, 5, 1] |
    And no side effects

  Scenario Outline: [6] List functions on a value that is not a list fail at run time
    Given any graph
    When executing query:
      """
      WITH [<value>, [1]] AS box
      RETURN <fn>(box[0]) AS v
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | fn   | value  |
      | head | 'abc'  |
      | last | 42     |
      | tail | true   |
      | reverse | {a: 1} |

  Scenario Outline: [7] Indexing with the wrong type fails at run time
    Given any graph
    When executing query:
      """
      WITH [<index>, 0] AS box, [10, 20] AS list
      RETURN list[box[0]] AS v
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | index |
      | 1.0   |
      | '1'   |
      | true  |

  Scenario: [8] range needs a non-zero step
    Given any graph
    When executing query:
      """
      RETURN range(1, 5, 0) AS r
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

  Scenario: [9] List concatenation and containment with mixed element types
    Given any graph
    When executing query:
      """
      RETURN [1, 'a'] + [null] AS a, [1] + 2 AS b, 0 + [1] AS c, [[1]] + [[2]] AS d, size([null, null]) AS e
      """
    Then the result should be, in any order:
      | a               | b      | c      | d          | e |
      | [1, 'a', null]  | [1, 2] | [0, 1] | [[1], [2]] | 2 |
    And no side effects
