# Written from the Neo4j 5 Cypher Manual's page "String functions" and the string operators of the
# "Operators" page: each example, then each function called with null (null in, null out where the page
# says so), the arguments the page says raise an error, and arguments of the wrong type.
Feature: Manual - string functions

  Scenario Outline: [1] The page's examples: <query>
    Given an empty graph
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                          | result              |
      | btrim('   hello    ')                          | 'hello'             |
      | btrim('xxyyhelloxyxy', 'xy')                   | 'hello'             |
      | left('hello', 3)                               | 'hel'               |
      | left('hello', 10)                              | 'hello'             |
      | lower('HELLO')                                 | 'hello'             |
      | ltrim('   hello')                              | 'hello'             |
      | ltrim('xxyyhelloxyxy', 'xy')                   | 'helloxyxy'         |
      | normalize('\u212B') = '\u00C5'                 | true                |
      | normalize('\u00C5', NFD) = 'A\u030A'           | true                |
      | normalize('\uFE64', NFKC) = '<'                | true                |
      | normalize('\uFE64', NFC) = '<'                 | false               |
      | replace('hello', 'l', 'w')                     | 'hewwo'             |
      | replace('hello', 'x', 'w')                     | 'hello'             |
      | reverse('palindrome')                          | 'emordnilap'        |
      | right('hello', 3)                              | 'llo'               |
      | right('hello', 10)                             | 'hello'             |
      | rtrim('hello   ')                              | 'hello'             |
      | rtrim('xxyyhelloxyxy', 'xy')                   | 'xxyyhello'         |
      | split('one,two', ',')                          | ['one', 'two']      |
      | split('one1two', ['1', 'w'])                   | ['one', 't', 'o']   |
      | substring('hello', 1, 3)                       | 'ell'               |
      | substring('hello', 2)                          | 'llo'               |
      | substring('hello', 0)                          | 'hello'             |
      | substring('hello', 10)                         | ''                  |
      | substring('hello', 3, 10)                      | 'lo'                |
      | toLower('HELLO')                               | 'hello'             |
      | toString(11.5)                                 | '11.5'              |
      | toString('already a string')                   | 'already a string'  |
      | toString(true)                                 | 'true'              |
      | toString(date({year: 1984, month: 10, day: 11})) | '1984-10-11'      |
      | toString(duration({minutes: 12, seconds: -60})) | 'PT11M'            |
      | toStringOrNull(['A', 'B', 'C'])                | null                |
      | toStringOrNull(11.5)                           | '11.5'              |
      | toUpper('hello')                               | 'HELLO'             |
      | trim('   hello   ')                            | 'hello'             |
      | trim(BOTH 'x' FROM 'xxxhelloxxx')              | 'hello'             |
      | trim(LEADING 'x' FROM 'xxxhelloxxx')           | 'helloxxx'          |
      | trim(TRAILING 'x' FROM 'xxxhelloxxx')          | 'xxxhello'          |
      | upper('hello')                                 | 'HELLO'             |
      | char_length('Alice')                           | 5                   |
      | character_length('Alice')                      | 5                   |

  Scenario: [2] toString() of a zoned datetime built from a date and a local time
    Given an empty graph
    When executing query:
      """
      RETURN toString(datetime({date: date({year: 1984, month: 10, day: 11}),
               time: localtime({hour: 12, minute: 31, second: 14, millisecond: 341, microsecond: 645, nanosecond: 876}),
               timezone: 'Europe/Stockholm'})) AS datetimeString
      """
    Then the result should be, in any order:
      | datetimeString                                          |
      | '1984-10-11T12:31:14.341645876+01:00[Europe/Stockholm]' |
    And no side effects

  Scenario Outline: [3] A null string gives null: <query>
    Given an empty graph
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result |
      | null   |
    And no side effects

    Examples:
      | query                         |
      | btrim(null)                   |
      | btrim(null, 'x')              |
      | btrim('xax', null)            |
      | left(null, 3)                 |
      | left(null, null)              |
      | lower(null)                   |
      | ltrim(null)                   |
      | normalize(null)               |
      | normalize(null, NFD)          |
      | replace(null, 'l', 'w')       |
      | replace('hello', null, 'w')   |
      | replace('hello', 'l', null)   |
      | reverse(null)                 |
      | right(null, 3)                |
      | rtrim(null)                   |
      | split(null, ',')              |
      | split('one,two', null)        |
      | substring(null, 1)            |
      | substring(null, 1, 2)         |
      | toLower(null)                 |
      | toString(null)                |
      | toStringOrNull(null)          |
      | toUpper(null)                 |
      | trim(null)                    |
      | trim(BOTH 'x' FROM null)      |
      | trim(LEADING null FROM 'xax') |
      | upper(null)                   |
      | char_length(null)             |
      | character_length(null)        |
      | null IS NORMALIZED            |

  Scenario Outline: [4] A null, negative or missing count is an error: <query>
    Given an empty graph
    When executing query:
      """
      WITH <query> AS result RETURN result
      """
    Then a ArgumentError should be raised at runtime: <detail>

    Examples:
      | query                    | detail               |
      | left('hello', null)      | InvalidArgumentValue |
      | right('hello', null)     | InvalidArgumentValue |
      | left('hello', -1)        | NumberOutOfRange     |
      | right('hello', -1)       | NumberOutOfRange     |
      | substring('hello', null) | InvalidArgumentValue |
      | substring('hello', 1, null) | InvalidArgumentValue |
      | substring('hello', -1)   | NumberOutOfRange     |
      | substring('hello', 1, -1) | NumberOutOfRange    |

  Scenario Outline: [5] trim() takes exactly one character to trim: <query>
    Given an empty graph
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | query                          |
      | trim(BOTH 'xy' FROM 'xyhixy')  |
      | trim(LEADING '' FROM 'hi')     |

  Scenario Outline: [6] A known non-string argument is refused before the query runs: <query>
    Given an empty graph
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | query                   |
      | toUpper(1)              |
      | toLower(true)           |
      | left('hello', 1.5)      |
      | replace('a', 'a', 1)    |
      | split('a,b', 1)         |
      | char_length(1)          |
      | reverse(1)              |
      | trim(1)                 |

  Scenario Outline: [7] A non-string value met when the row runs is a type error: <query>
    Given an empty graph
    When executing query:
      """
      UNWIND ['a', 1] AS x RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | query            |
      | left(x, 1)       |
      | toUpper(x)       |
      | split(x, ',')    |
      | substring(x, 0)  |
      | x \|\| 'b'       |

  Scenario: [8] toString() of a list is an error, toStringOrNull() of one is null
    Given an empty graph
    When executing query:
      """
      RETURN toString([1, 2]) AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario Outline: [9] The string operators: <query>
    Given an empty graph
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                 | result      |
      | 'neo' + '4j'                          | 'neo4j'     |
      | 'neo' \|\| '4j'                       | 'neo4j'     |
      | 'Alpha' \|\| 'betical'                | 'Alphabetical' |
      | 'a' \|\| null                         | null        |
      | 'a' + 1                               | 'a1'        |
      | 1.5 + 'a'                             | '1.5a'      |
      | 'Hello' STARTS WITH 'He'              | true        |
      | 'Hello' ENDS WITH 'lo'                | true        |
      | 'Hello' CONTAINS 'ell'                | true        |
      | 'Hello' CONTAINS ''                   | true        |
      | 'Hello' STARTS WITH null              | null        |
      | 1 STARTS WITH 'a'                     | null        |
      | 'hello' =~ 'h.*o'                     | true        |
      | 'Hello' =~ '(?i)hello'                | true        |
      | 'hello' =~ 'ell'                      | false       |
      | 'hello' =~ null                       | null        |
      | '\u212B' IS NORMALIZED                | false       |
      | '\u212B' IS NOT NORMALIZED            | true        |
      | 'A\u030A' IS NFD NORMALIZED           | true        |
      | 1 IS NORMALIZED                       | null        |
      | [1] IS NOT NORMALIZED                 | null        |

  Scenario: [10] IS NORMALIZED in WHERE keeps the names in NFC
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Andy'}), (:Person {name: 'Timothy'}), (:Person {name: 'Peter'}),
             (:Person {name: 'A\u030Angstr\u00F6m'})
      """
    When executing query:
      """
      MATCH (n:Person) WHERE n.name IS NORMALIZED RETURN n.name AS normalizedNames
      """
    Then the result should be, in any order:
      | normalizedNames |
      | 'Andy'          |
      | 'Timothy'       |
      | 'Peter'         |
    And no side effects

  Scenario: [11] An invalid regular expression is an error
    Given an empty graph
    When executing query:
      """
      RETURN 'a' =~ '[' AS result
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue
