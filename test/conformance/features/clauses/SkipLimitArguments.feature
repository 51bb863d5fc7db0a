Feature: SkipLimitArguments - what SKIP and LIMIT accept

  Scenario Outline: [1] Constant integer expressions and parameters are accepted
    Given any graph
    And parameters are:
      | two | 2 |
    When executing query:
      """
      UNWIND range(1, 6) AS i
      RETURN i ORDER BY i SKIP <skip> LIMIT <limit>
      """
    Then the result should be, in order:
      | i |
      | 3 |
      | 4 |
    And no side effects

    Examples:
      | skip               | limit              |
      | 2                  | 2                  |
      | $two               | $two               |
      | 1 + 1              | 4 / 2              |
      | toInteger('2')     | size(['a', 'b'])   |
      | $two * 1           | abs(-2)            |

  Scenario: [2] LIMIT 0 gives no rows, yet an aggregate after it still answers
    Given any graph
    When executing query:
      """
      UNWIND range(1, 3) AS i
      WITH i LIMIT 0
      RETURN count(i) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  Scenario: [3] A SKIP past the end gives no rows
    Given any graph
    When executing query:
      """
      UNWIND range(1, 3) AS i
      WITH i SKIP 9223372036854775807
      RETURN collect(i) AS skipped
      """
    Then the result should be, in any order:
      | skipped |
      | []      |
    And no side effects

  Scenario Outline: [4] Negative literals are refused before running
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      RETURN i <clause>
      """
    Then a SyntaxError should be raised at compile time: NegativeIntegerArgument

    Examples:
      | clause   |
      | SKIP -1  |
      | LIMIT -3 |

  Scenario Outline: [5] Float, string and boolean literals are refused before running
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      RETURN i <clause>
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | clause      |
      | SKIP 1.0    |
      | LIMIT 2.5   |
      | LIMIT '2'   |
      | SKIP true   |

  Scenario Outline: [6] A negative or fractional parameter is refused at run time
    Given any graph
    And parameters are:
      | n | <value> |
    When executing query:
      """
      UNWIND [1, 2] AS i
      RETURN i <clause> $n
      """
    Then a ArgumentError should be raised at runtime: <detail>

    Examples:
      | clause | value | detail                  |
      | SKIP   | -2    | NegativeIntegerArgument |
      | LIMIT  | -1    | NegativeIntegerArgument |
      | LIMIT  | 1.5   | InvalidArgumentType     |
      | SKIP   | 'x'   | InvalidArgumentType     |

  Scenario Outline: [7] SKIP and LIMIT cannot read the rows they limit
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      RETURN i <clause>
      """
    Then a SyntaxError should be raised at compile time: NonConstantExpression

    Examples:
      | clause        |
      | LIMIT i       |
      | SKIP i - 1    |
      | LIMIT size([i]) |
