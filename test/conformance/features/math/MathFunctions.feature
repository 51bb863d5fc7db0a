# Sources: Neo4j Cypher manual 5, functions/mathematical-numeric (round with precision and rounding mode,
# ties, sign, abs, ceil, floor, isNaN), functions/mathematical-logarithmic (sqrt, log, log10, exp of
# negatives and zero), functions/mathematical-trigonometric; openCypher 9 reference, arithmetic operators
# (integer overflow, division and modulo by zero, exponentiation always FLOAT).
Feature: MathFunctions - rounding, signs, logarithms of edge values, and integer versus float arithmetic

  Scenario: [1] round without precision sends ties toward positive infinity
    Given any graph
    When executing query:
      """
      RETURN round(2.5) AS a, round(-2.5) AS b, round(-1.5) AS c, round(0.49999) AS d, round(3) AS e, round(null) AS f
      """
    Then the result should be, in any order:
      | a   | b    | c    | d   | e   | f    |
      | 3.0 | -2.0 | -1.0 | 0.0 | 3.0 | null |
    And no side effects

  Scenario: [2] round with a precision rounds ties away from zero
    Given any graph
    When executing query:
      """
      RETURN round(3.14159, 2) AS a, round(-1.55, 1) AS b, round(1.55, 1) AS c, round(1234.5, -2) AS d,
             round(5, 1) AS e, round(null, 1) AS f, round(1.5, null) AS g
      """
    Then the result should be, in any order:
      | a    | b    | c   | d      | e   | f    | g    |
      | 3.14 | -1.6 | 1.6 | 1200.0 | 5.0 | null | null |
    And no side effects

  Scenario Outline: [3] round with a rounding mode
    Given any graph
    When executing query:
      """
      RETURN round(<value>, <precision>, '<mode>') AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | value  | precision | mode      | result |
      | 2.345  | 2         | HALF_EVEN | 2.34   |
      | 2.355  | 2         | HALF_EVEN | 2.36   |
      | -1.5   | 0         | HALF_DOWN | -1.0   |
      | -1.5   | 0         | HALF_UP   | -2.0   |
      | 1.21   | 1         | UP        | 1.3    |
      | -1.21  | 1         | UP        | -1.3   |
      | 1.29   | 1         | DOWN      | 1.2    |
      | -1.21  | 1         | CEILING   | -1.2   |
      | -1.21  | 1         | FLOOR     | -1.3   |

  Scenario: [4] An unknown rounding mode is refused
    Given any graph
    When executing query:
      """
      RETURN round(1.5, 0, 'SIDEWAYS') AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [5] sign of integers, floats, zeros and null
    Given any graph
    When executing query:
      """
      RETURN sign(-3) AS a, sign(0) AS b, sign(2.5) AS c, sign(-0.0) AS d, sign(null) AS e, sign(-0.001) AS f
      """
    Then the result should be, in any order:
      | a  | b | c | d | e    | f  |
      | -1 | 0 | 1 | 0 | null | -1 |
    And no side effects

  Scenario: [6] abs keeps the type, and abs of the smallest integer overflows
    Given any graph
    When executing query:
      """
      WITH -9223372036854775807 - 1 AS lowest
      RETURN abs(lowest) AS r
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

  Scenario: [7] Logarithms and roots of negatives are NaN; of zero, minus infinity
    Given any graph
    When executing query:
      """
      RETURN isNaN(sqrt(-1)) AS a, isNaN(log(-1)) AS b, isNaN(log10(-1)) AS c, log(0) < -1e308 AS d,
             log10(0) < -1e308 AS e, sqrt(4) AS f, exp(0) AS g, log10(1000) AS h, abs(-3.5) AS i, abs(-3) AS j
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f   | g   | h   | i   | j |
      | true | true | true | true | true | 2.0 | 1.0 | 3.0 | 3.5 | 3 |
    And no side effects

  Scenario: [8] Float division and modulo by zero give infinities and NaN
    Given any graph
    When executing query:
      """
      RETURN 7 / 0.0 > 1e308 AS a, -7 / 0.0 < -1e308 AS b, isNaN(7 % 0.0) AS c, isNaN(0 / 0.0) AS d, isNaN(0.0 % 0) AS e
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    |
      | true | true | true | true | true |
    And no side effects

  Scenario Outline: [9] Integer division and modulo by zero are errors
    Given any graph
    When executing query:
      """
      WITH <left> AS l, 0 AS zero RETURN l <op> zero AS r
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero

    Examples:
      | left | op |
      | 0    | /  |
      | -7   | /  |
      | 7    | %  |
      | 0    | %  |

  Scenario Outline: [10] Integer results past 64 bits overflow
    Given any graph
    When executing query:
      """
      WITH 9223372036854775807 AS highest, -9223372036854775807 - 1 AS lowest RETURN <expr> AS r
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

    Examples:
      | expr              |
      | highest * 2       |
      | lowest * -1       |
      | lowest + -1       |
      | highest - -1      |
      | -lowest           |
      | lowest / -1       |

  Scenario: [11] The edges that stay in range
    Given any graph
    When executing query:
      """
      WITH 9223372036854775807 AS highest, -9223372036854775807 - 1 AS lowest
      RETURN lowest % -1 AS a, lowest / 1 AS b, highest + lowest AS c, -highest AS d
      """
    Then the result should be, in any order:
      | a | b                    | c  | d                    |
      | 0 | -9223372036854775808 | -1 | -9223372036854775807 |
    And no side effects

  Scenario: [12] Exponentiation is always a float, left to right, and unary minus binds tighter
    Given any graph
    When executing query:
      """
      RETURN 2 ^ 3 AS a, 2 ^ -1 AS b, 0 ^ 0 AS c, 2 ^ 3 ^ 2 AS d, -2 ^ 2 AS e, 4 ^ 0.5 AS f, 2 ^ 1024 > 1e308 AS g
      """
    Then the result should be, in any order:
      | a   | b   | c   | d    | e   | f   | g    |
      | 8.0 | 0.5 | 1.0 | 64.0 | 4.0 | 2.0 | true |
    And no side effects

  Scenario: [13] Integer division truncates toward zero and modulo takes the sign of the dividend
    Given any graph
    When executing query:
      """
      RETURN 7 / 2 AS a, -7 / 2 AS b, 7 / -2 AS c, 7 % -3 AS d, -7 % 3 AS e, -7.5 % 2 AS f, 7.0 / 2 AS g, 3 * 1.5 AS h
      """
    Then the result should be, in any order:
      | a | b  | c  | d | e  | f    | g   | h   |
      | 3 | -3 | -3 | 1 | -1 | -1.5 | 3.5 | 4.5 |
    And no side effects

  Scenario: [14] ceil and floor give floats
    Given any graph
    When executing query:
      """
      RETURN ceil(-0.5) AS a, floor(-0.5) AS b, ceil(1) AS c, floor(1) AS d, ceil(null) AS e, floor(2.9) AS f
      """
    Then the result should be, in any order:
      | a    | b    | c   | d   | e    | f   |
      | -0.0 | -1.0 | 1.0 | 1.0 | null | 2.0 |
    And no side effects

  Scenario: [15] Constants and trigonometry agree with each other
    Given any graph
    When executing query:
      """
      RETURN exp(1) = e() AS a, atan2(1, 1) * 4 = pi() AS b, degrees(pi()) AS c, radians(180) = pi() AS d,
             haversin(0) AS e, isNaN(asin(2)) AS f, isNaN(acos(-2)) AS g, cos(0) AS h, isNaN(null) AS i
      """
    Then the result should be, in any order:
      | a    | b    | c     | d    | e   | f    | g    | h   | i    |
      | true | true | 180.0 | true | 0.0 | true | true | 1.0 | null |
    And no side effects

  Scenario: [16] Hyperbolic functions
    Given any graph
    When executing query:
      """
      RETURN cosh(0) AS a, sinh(0) AS b, tanh(0) AS c, round(coth(1), 9) = round(cosh(1) / sinh(1), 9) AS d, sinh(null) AS e
      """
    Then the result should be, in any order:
      | a   | b   | c   | d    | e    |
      | 1.0 | 0.0 | 0.0 | true | null |
    And no side effects
