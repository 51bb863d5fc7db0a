# Sources: Neo4j Cypher manual 5, functions/string (btrim, ltrim and rtrim with a trim character string,
# trim with LEADING/TRAILING/BOTH ... FROM, normalize, left, right, replace, reverse, split, substring
# argument errors, toUpper/toLower), functions/scalar (char_length, character_length), and
# expressions/predicates/string-operators (IS [NOT] [form] NORMALIZED); openCypher 9 reference, string
# concatenation with +.
Feature: StringFunctionsBeyond - trimming characters, normalization, left and right, replace, split and case

  Scenario: [1] btrim, ltrim and rtrim remove a given character string
    Given any graph
    When executing query:
      """
      RETURN btrim('xxhixx', 'x') AS a, ltrim('xxhixx', 'x') AS b, rtrim('xxhixx', 'x') AS c,
             btrim('  hi  ') AS d, btrim('abhiba', 'ab') AS e, ltrim('hi', '') AS f
      """
    Then the result should be, in any order:
      | a    | b      | c      | d    | e    | f    |
      | 'hi' | 'hixx' | 'xxhi' | 'hi' | 'hi' | 'hi' |
    And no side effects

  Scenario: [2] The trim functions on null give null
    Given any graph
    When executing query:
      """
      RETURN btrim(null) AS a, btrim('x', null) AS b, ltrim(null, 'x') AS c, rtrim('xax', null) AS d, trim(null) AS e
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    |
      | null | null | null | null | null |
    And no side effects

  Scenario: [3] trim with LEADING, TRAILING or BOTH and a character
    Given any graph
    When executing query:
      """
      RETURN trim(BOTH 'x' FROM 'xxhixx') AS a, trim(LEADING 'x' FROM 'xxhixx') AS b, trim(TRAILING 'x' FROM 'xxhixx') AS c,
             trim(LEADING FROM '  hi  ') AS d, trim('x' FROM 'xhix') AS e, trim(BOTH FROM '  hi  ') AS f
      """
    Then the result should be, in any order:
      | a    | b      | c      | d      | e    | f    |
      | 'hi' | 'hixx' | 'xxhi' | 'hi  ' | 'hi' | 'hi' |
    And no side effects

  Scenario: [4] trim FROM takes exactly one character
    Given any graph
    When executing query:
      """
      RETURN trim(BOTH 'ab' FROM 'abhiab') AS r
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [5] trim without a character removes whitespace of every kind
    Given any graph
    When executing query:
      """
      RETURN trim(' \t hi \n ') AS a, ltrim('\n hi') AS b, rtrim('hi \t') AS c
      """
    Then the result should be, in any order:
      | a    | b    | c    |
      | 'hi' | 'hi' | 'hi' |
    And no side effects

  Scenario: [6] normalize to each form, and IS NORMALIZED
    Given any graph
    When executing query:
      """
      WITH 'A\u030A' AS decomposed, '\u00C5' AS composed
      RETURN normalize(decomposed) = composed AS a, normalize(composed, NFD) = decomposed AS b,
             normalize('\uFB01', NFKC) AS c, normalize('\uFB01', NFC) = '\uFB01' AS d,
             decomposed IS NORMALIZED AS e, decomposed IS NFD NORMALIZED AS f, composed IS NOT NFC NORMALIZED AS g,
             normalize(null) AS h, null IS NORMALIZED AS i
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e     | f    | g     | h    | i    |
      | true | true | 'fi' | true | false | true | false | null | null |
    And no side effects

  Scenario: [7] IS NORMALIZED of a value that is not a string is null, as the manual's WHERE page says
    Given any graph
    When executing query:
      """
      WITH 1 AS v RETURN v IS NORMALIZED AS r, [v] IS NOT NFD NORMALIZED AS s
      """
    Then the result should be, in any order:
      | r    | s    |
      | null | null |
    And no side effects

  Scenario: [8] char_length and character_length count code points
    Given any graph
    When executing query:
      """
      RETURN char_length('abc') AS a, character_length('\uD83D\uDE00x') AS b, char_length('') AS c, char_length(null) AS d
      """
    Then the result should be, in any order:
      | a | b | c | d    |
      | 3 | 2 | 0 | null |
    And no side effects

  Scenario: [9] left and right past the length give the whole string
    Given any graph
    When executing query:
      """
      RETURN left('hello', 2) AS a, left('hi', 10) AS b, right('hello', 2) AS c, right('hi', 10) AS d,
             left(null, 1) AS e, right('x', 0) AS f, left('', 3) AS g
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f  | g  |
      | 'he' | 'hi' | 'lo' | 'hi' | null | '' | '' |
    And no side effects

  Scenario Outline: [10] left and right with a negative or null length are refused
    Given any graph
    When executing query:
      """
      RETURN <function>('hello', <length>) AS r
      """
    Then a ArgumentError should be raised at runtime: <detail>

    Examples:
      | function | length | detail               |
      | left     | -1     | NumberOutOfRange     |
      | right    | -1     | NumberOutOfRange     |
      | left     | null   | InvalidArgumentValue |
      | right    | null   | InvalidArgumentValue |

  Scenario: [11] replace with empty search and replacement strings
    Given any graph
    When executing query:
      """
      RETURN replace('aaa', 'a', '') AS a, replace('abc', '', '-') AS b, replace('abc', 'b', null) AS c,
             replace(null, 'a', 'b') AS d, replace('abab', 'ab', 'x') AS e, replace('aaa', 'aa', 'b') AS f
      """
    Then the result should be, in any order:
      | a  | b         | c    | d    | e    | f    |
      | '' | '-a-b-c-' | null | null | 'xx' | 'ba' |
    And no side effects

  Scenario: [12] reverse keeps characters outside the Basic Multilingual Plane whole; case mapping is Unicode-aware
    Given any graph
    When executing query:
      """
      RETURN reverse('a\u00F1b\uD83D\uDE00') = '\uD83D\uDE00b\u00F1a' AS a, toUpper('stra\u00DFe') AS b, toUpper('\u00E9t\u00E9') = '\u00C9T\u00C9' AS c,
             toLower('\u00C5SA') = '\u00E5sa' AS d, upper('x') AS e, lower('Y') AS f
      """
    Then the result should be, in any order:
      | a    | b         | c    | d    | e   | f   |
      | true | 'STRASSE' | true | true | 'X' | 'y' |
    And no side effects

  Scenario: [13] split with a list of delimiters, leading and trailing delimiters
    Given any graph
    When executing query:
      """
      RETURN split('a-b_c', ['-', '_']) AS a, split(',a,', ',') AS b, split('', ',') AS c, split('a,b,,c', ',') AS d,
             split('abc', null) AS e, split(null, ',') AS f
      """
    Then the result should be, in any order:
      | a               | b            | c    | d                   | e    | f    |
      | ['a', 'b', 'c'] | ['', 'a', ''] | [''] | ['a', 'b', '', 'c'] | null | null |
    And no side effects

  Scenario Outline: [14] substring with out-of-range arguments
    Given any graph
    When executing query:
      """
      RETURN substring('hello', <args>) AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | args    | result  |
      | 1       | 'ello'  |
      | 1, 100  | 'ello'  |
      | 10      | ''      |
      | 5       | ''      |
      | 0, 0    | ''      |
      | 4, 1    | 'o'     |

  Scenario Outline: [15] A string function given a number where a string belongs is refused
    Given any graph
    When executing query:
      """
      WITH [1, 'x'] AS box WITH box[0] AS v RETURN <call> AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | call                |
      | toUpper(v)          |
      | btrim(v)            |
      | ltrim('x', v)       |
      | normalize(v)        |
      | char_length(v)      |

  Scenario: [16] + joins strings with numbers on either side, and lists with strings
    Given any graph
    When executing query:
      """
      RETURN 'a' + 1 AS a, 1 + 'a' AS b, 'a' + 1.5 AS c, 'a' + null AS d, ['a'] + 'b' AS e, 'x' + [1] AS f
      """
    Then the result should be, in any order:
      | a    | b    | c      | d    | e          | f        |
      | 'a1' | '1a' | 'a1.5' | null | ['a', 'b'] | ['x', 1] |
    And no side effects
