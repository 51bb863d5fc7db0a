# Sources: Neo4j Cypher manual 5, functions/scalar (toInteger, toFloat, toBoolean, toString and their
# ...OrNull forms: trimming, exponent forms, unparseable text to null, wrong types as errors);
# openCypher 9 reference, type conversion functions.
Feature: TypeConversionFunctions - toInteger, toFloat, toBoolean, toString and the OrNull forms on every type

  Scenario: [1] toInteger of strings: trimmed, exponent and decimal forms, but not hex
    Given any graph
    When executing query:
      """
      RETURN toInteger(' 12 ') AS a, toInteger('1e3') AS b, toInteger('0x1F') AS c, toInteger('12.7') AS d,
             toInteger('-12.7') AS e, toInteger('') AS f, toInteger('+5') AS g, toInteger('1,000') AS h
      """
    Then the result should be, in any order:
      | a  | b    | c    | d  | e   | f    | g | h    |
      | 12 | 1000 | null | 12 | -12 | null | 5 | null |
    And no side effects

  Scenario: [2] toInteger of numbers truncates toward zero; of booleans gives 0 or 1
    Given any graph
    When executing query:
      """
      RETURN toInteger(12.7) AS a, toInteger(-12.7) AS b, toInteger(true) AS c, toInteger(false) AS d,
             toInteger(7) AS e, toInteger(null) AS f
      """
    Then the result should be, in any order:
      | a  | b   | c | d | e | f    |
      | 12 | -12 | 1 | 0 | 7 | null |
    And no side effects

  Scenario: [3] toFloat of strings
    Given any graph
    When executing query:
      """
      RETURN toFloat(' 1.5 ') AS a, toFloat('1e3') AS b, toFloat('0x1F') AS c, toFloat('.5') AS d,
             toFloat('5.') AS e, toFloat('1_000') AS f, toFloat('abc') AS g, toFloat(3) AS h
      """
    Then the result should be, in any order:
      | a   | b      | c    | d   | e   | f    | g    | h   |
      | 1.5 | 1000.0 | null | 0.5 | 5.0 | null | null | 3.0 |
    And no side effects

  Scenario: [4] toFloat of the texts of NaN and the infinities
    Given any graph
    When executing query:
      """
      RETURN isNaN(toFloat('NaN')) AS a, toFloat('Infinity') > 1e308 AS b, toFloat('-Infinity') < -1e308 AS c,
             toFloat('1e400') > 1e308 AS d
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    |
      | true | true | true | true |
    And no side effects

  Scenario: [5] toBoolean of strings ignores case and surrounding space; integers are false only at 0
    Given any graph
    When executing query:
      """
      RETURN toBoolean('true ') AS a, toBoolean(' TRUE') AS b, toBoolean('yes') AS c, toBoolean(0) AS d,
             toBoolean(-5) AS e, toBoolean('False') AS f, toBoolean(null) AS g, toBoolean('') AS h
      """
    Then the result should be, in any order:
      | a    | b    | c    | d     | e    | f     | g    | h    |
      | true | true | null | false | true | false | null | null |
    And no side effects

  Scenario: [6] toString of floats follows the shortest round-trip form with a decimal point
    Given any graph
    When executing query:
      """
      RETURN toString(1.0) AS a, toString(1e20) AS b, toString(1e-5) AS c, toString(123456789.0) AS d,
             toString(-0.0) AS e, toString(0.1 + 0.2) AS f, toString(2.5e-3) AS g, toString(1000000.0) AS h
      """
    Then the result should be, in any order:
      | a     | b        | c        | d              | e      | f                     | g       | h           |
      | '1.0' | '1.0E20' | '1.0E-5' | '1.23456789E8' | '-0.0' | '0.30000000000000004' | '0.0025' | '1000000.0' |
    And no side effects

  Scenario: [7] toString of booleans, integers, strings and temporal values
    Given any graph
    When executing query:
      """
      RETURN toString(true) AS a, toString(-42) AS b, toString('s') AS c, toString(date('2020-01-02')) AS d,
             toString(duration('P1DT2H')) AS e, toString(localtime('08:05')) AS f, toString(null) AS g
      """
    Then the result should be, in any order:
      | a      | b     | c   | d            | e        | f       | g    |
      | 'true' | '-42' | 's' | '2020-01-02' | 'P1DT2H' | '08:05' | null |
    And no side effects

  Scenario Outline: [8] Conversion of a value of the wrong type is refused when it arrives
    Given any graph
    When executing query:
      """
      WITH [<value>, 'x'] AS box RETURN <function>(box[0]) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | function  | value    |
      | toInteger | [1]      |
      | toInteger | {a: 1}   |
      | toFloat   | true     |
      | toFloat   | [1.5]    |
      | toBoolean | 1.0      |
      | toBoolean | ['true'] |
      | toString  | [1]      |
      | toString  | {a: 1}   |

  Scenario: [9] The OrNull forms give null instead of failing
    Given any graph
    When executing query:
      """
      RETURN toStringOrNull([1]) AS a, toIntegerOrNull([1]) AS b, toFloatOrNull({a: 1}) AS c, toBooleanOrNull(1.5) AS d,
             toIntegerOrNull('x') AS e, toIntegerOrNull(true) AS f, toFloatOrNull(true) AS g, toBooleanOrNull('false') AS h,
             toStringOrNull(1.5) AS i, toFloatOrNull('2') AS j
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f | g    | h     | i     | j   |
      | null | null | null | null | null | 1 | null | false | '1.5' | 2.0 |
    And no side effects

  Scenario: [10] A float too large for an integer overflows
    Given any graph
    When executing query:
      """
      RETURN toInteger(1e19) AS r
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

  Scenario: [11] toInteger of the integer bounds as text
    Given any graph
    When executing query:
      """
      RETURN toInteger('9223372036854775807') AS a, toInteger('-9223372036854775808') AS b
      """
    Then the result should be, in any order:
      | a                   | b                    |
      | 9223372036854775807 | -9223372036854775808 |
    And no side effects
