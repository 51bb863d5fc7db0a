Feature: LiteralErrors - number and string literals at the edges of what they can hold

  Scenario Outline: [1] Integers at the 64-bit bounds in every base
    Given any graph
    When executing query:
      """
      RETURN <literal> AS v
      """
    Then the result should be, in any order:
      | v       |
      | <value> |
    And no side effects

    Examples:
      | literal                  | value                |
      | -9223372036854775808     | -9223372036854775808 |
      | 9223372036854775807      | 9223372036854775807  |
      | 0x7FFFFFFFFFFFFFFF       | 9223372036854775807  |
      | -0x8000000000000000      | -9223372036854775808 |
      | 0o777777777777777777777  | 9223372036854775807  |
      | 0xff                     | 255                  |
      | 0o17                     | 15                   |
      | .25                      | 0.25                 |
      | 2E2                      | 200.0                |
      | 1e-400                   | 0.0                  |

  Scenario Outline: [2] An integer past the 64-bit bounds is an overflow
    Given any graph
    When executing query:
      """
      RETURN <literal> AS v
      """
    Then a SyntaxError should be raised at compile time: IntegerOverflow

    Examples:
      | literal                  |
      | 9223372036854775808      |
      | -9223372036854775809     |
      | 0x8000000000000000       |
      | -0x8000000000000001      |
      | 0o1000000000000000000000 |
      | [1, 18446744073709551616] |

  Scenario: [3] A float past the largest double is an overflow
    Given any graph
    When executing query:
      """
      RETURN 2.5e308 AS v
      """
    Then a SyntaxError should be raised at compile time: FloatingPointOverflow

  Scenario Outline: [4] Malformed numbers are reported as such
    Given any graph
    When executing query:
      """
      RETURN <literal> AS v
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberLiteral

    Examples:
      | literal    |
      | 4711k2     |
      | 3.25z      |
      | 7e         |
      | 0x12fg     |
      | 0o78       |
      | 0x         |
      | 10_000     |

  Scenario Outline: [5] Unicode escapes in strings
    Given any graph
    When executing query:
      """
      RETURN <literal> AS v
      """
    Then the result should be, in any order:
      | v       |
      | <value> |
    And no side effects

    Examples:
      | literal           | value   |
      | 'gr\u00fcn'       | 'grün'  |
      | "\u0041\u0042"    | 'AB'    |
      | 'tab\there'       | 'tab	here' |

  Scenario Outline: [6] A unicode escape needs four hexadecimal digits
    Given any graph
    When executing query:
      """
      RETURN <literal> AS v
      """
    Then a SyntaxError should be raised at compile time: InvalidUnicodeLiteral

    Examples:
      | literal     |
      | 'x\u12'     |
      | 'x\uXYZW'   |
      | "\u00g1"    |

  Scenario Outline: [7] A non-ASCII look-alike of an operator or quote is refused
    Given any graph
    When executing query:
      """
      RETURN <expression> AS v
      """
    Then a SyntaxError should be raised at compile time: InvalidUnicodeCharacter

    Examples:
      | expression |
      | 10 – 3     |
      | 10 — 3     |
      | ‘quoted’   |
      | 2 × 3      |
