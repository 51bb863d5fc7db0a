# Written from the Neo4j 5 Cypher Manual's page "Scalar functions": each example on the page's graph,
# then each function called with null and with arguments of the wrong type, and the conversions of
# values out of range.
Feature: Manual - scalar functions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (alice:Developer {name: 'Alice', age: 38, eyes: 'Brown'}),
             (bob:Administrator {name: 'Bob', age: 25, eyes: 'Blue'}),
             (charlie:Administrator {name: 'Charlie', age: 53, eyes: 'Green'}),
             (daniel:Adminstrator {name: 'Daniel', age: 54, eyes: 'Brown'}),
             (eskil:Designer {name: 'Eskil', age: 41, eyes: 'blue', likedColors: ['Pink', 'Yellow', 'Black']}),
             (alice)-[:KNOWS]->(bob), (alice)-[:KNOWS]->(charlie),
             (bob)-[:KNOWS]->(daniel), (charlie)-[:KNOWS]->(daniel), (bob)-[:MARRIED]->(eskil)
      """

  Scenario: [1] coalesce() returns the first property that is not null
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Alice' RETURN coalesce(a.hairColor, a.eyes)
      """
    Then the result should be, in any order:
      | coalesce(a.hairColor, a.eyes) |
      | 'Brown'                       |
    And no side effects

  Scenario: [2] elementId() and id() of a node
    When executing query:
      """
      MATCH (n:Developer) RETURN elementId(n) IS :: STRING NOT NULL AS e, id(n) IS :: INTEGER NOT NULL AS i
      """
    Then the result should be, in any order:
      | e    | i    |
      | true | true |
    And no side effects

  Scenario: [3] startNode() and endNode() of Alice's relationships
    When executing query:
      """
      MATCH (x:Developer)-[r]-() RETURN startNode(r).name AS s, endNode(r) AS e
      """
    Then the result should be, in any order:
      | s       | e                                                           |
      | 'Alice' | (:Administrator {name: 'Bob', age: 25, eyes: 'Blue'})      |
      | 'Alice' | (:Administrator {name: 'Charlie', age: 53, eyes: 'Green'}) |
    And no side effects

  Scenario: [4] head() and last() of a list property
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Eskil' RETURN a.likedColors, head(a.likedColors), last(a.likedColors)
      """
    Then the result should be, in any order:
      | a.likedColors               | head(a.likedColors) | last(a.likedColors) |
      | ['Pink', 'Yellow', 'Black'] | 'Pink'              | 'Black'             |
    And no side effects

  Scenario: [5] length() of a path
    When executing query:
      """
      MATCH p = (a)-->(b)-->(c) WHERE a.name = 'Alice' RETURN length(p)
      """
    Then the result should be, in any order:
      | length(p) |
      | 2         |
      | 2         |
      | 2         |
    And no side effects

  Scenario: [6] nullIf() inside coalesce() replaces one value by another
    When executing query:
      """
      MATCH (a) RETURN a.name AS name, coalesce(nullIf(a.eyes, 'Brown'), 'Hazel') AS eyeColor
      """
    Then the result should be, in any order:
      | name      | eyeColor |
      | 'Alice'   | 'Hazel'  |
      | 'Bob'     | 'Blue'   |
      | 'Charlie' | 'Green'  |
      | 'Daniel'  | 'Hazel'  |
      | 'Eskil'   | 'blue'   |
    And no side effects

  Scenario: [7] properties() of a node just created
    When executing query:
      """
      CREATE (p:Person {name: 'Stefan', city: 'Berlin'}) RETURN properties(p)
      """
    Then the result should be, in any order:
      | properties(p)                    |
      | {name: 'Stefan', city: 'Berlin'} |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [8] size() of a pattern comprehension counts the paths
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Alice' RETURN size([p = (a)-->()-->() | p]) AS fof
      """
    Then the result should be, in any order:
      | fof |
      | 3   |
    And no side effects

  Scenario: [9] size() of a string property in WHERE and RETURN
    When executing query:
      """
      MATCH (a) WHERE size(a.name) > 6 RETURN size(a.name)
      """
    Then the result should be, in any order:
      | size(a.name) |
      | 7            |
    And no side effects

  Scenario: [10] type() of Alice's relationships
    When executing query:
      """
      MATCH (n)-[r]->() WHERE n.name = 'Alice' RETURN type(r)
      """
    Then the result should be, in any order:
      | type(r) |
      | 'KNOWS' |
      | 'KNOWS' |
    And no side effects

  Scenario: [11] valueType() of values of every kind, a union in the normalized order (STRING before INTEGER)
    When executing query:
      """
      UNWIND ['abc', 1, 2.0, true, [date()], null, {a: 1}, [1, 'a']] AS value RETURN valueType(value) AS result
      """
    Then the result should be, in any order:
      | result                         |
      | 'STRING NOT NULL'              |
      | 'INTEGER NOT NULL'             |
      | 'FLOAT NOT NULL'               |
      | 'BOOLEAN NOT NULL'             |
      | 'LIST<DATE NOT NULL> NOT NULL' |
      | 'NULL'                         |
      | 'MAP NOT NULL'                 |
      | 'LIST<STRING NOT NULL \| INTEGER NOT NULL> NOT NULL' |
    And no side effects

  Scenario Outline: [12] The literal examples: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                               | result |
      | char_length('Alice')                | 5      |
      | character_length('Alice')           | 5      |
      | nullIf(4, 4)                        | null   |
      | nullIf('abc', 'def')                | 'abc'  |
      | nullIf('abc', null)                 | 'abc'  |
      | size(['Alice', 'Bob'])              | 2      |
      | size('Alice')                       | 5      |
      | head([])                            | null   |
      | head([null, 1])                     | null   |
      | last([])                            | null   |
      | toBoolean('true')                   | true   |
      | toBoolean('not a boolean')          | null   |
      | toBoolean(0)                        | false  |
      | toBoolean(1)                        | true   |
      | toBoolean(' TRUE ')                 | true   |
      | toBooleanOrNull('true')             | true   |
      | toBooleanOrNull('not a boolean')    | null   |
      | toBooleanOrNull(0)                  | false  |
      | toBooleanOrNull(1.5)                | null   |
      | toFloat('11.5')                     | 11.5   |
      | toFloat('not a number')             | null   |
      | toFloat(1)                          | 1.0    |
      | toFloatOrNull('11.5')               | 11.5   |
      | toFloatOrNull('not a number')       | null   |
      | toFloatOrNull(true)                 | null   |
      | toInteger('42')                     | 42     |
      | toInteger('not a number')           | null   |
      | toInteger(true)                     | 1      |
      | toInteger(false)                    | 0      |
      | toInteger(2.9)                      | 2      |
      | toInteger(-2.9)                     | -2     |
      | toInteger('2.9')                    | 2      |
      | toIntegerOrNull('42')               | 42     |
      | toIntegerOrNull('not a number')     | null   |
      | toIntegerOrNull(true)               | 1      |
      | toIntegerOrNull(['A', 'B', 'C'])    | null   |
      | randomUUID() =~ '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' | true |
      | timestamp() > 0                     | true   |

  Scenario Outline: [13] null in, null out: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result |
      | null   |
    And no side effects

    Examples:
      | query                  |
      | coalesce(null, null)   |
      | elementId(null)        |
      | endNode(null)          |
      | id(null)               |
      | length(null)           |
      | nullIf(null, 1)        |
      | properties(null)       |
      | startNode(null)        |
      | type(null)             |
      | toBoolean(null)        |
      | toBooleanOrNull(null)  |
      | toFloat(null)          |
      | toFloatOrNull(null)    |
      | toInteger(null)        |
      | toIntegerOrNull(null)  |
      | head(null)             |
      | last(null)             |
      | size(null)             |

  Scenario Outline: [14] A conversion of a value of a type it does not take: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | query               |
      | toBoolean(1.5)      |
      | toBoolean([true])   |
      | toFloat(true)       |
      | toFloat([1])        |
      | toInteger([1])      |
      | toInteger({a: 1})   |
      | size(123)           |

  Scenario Outline: [15] The same, met when the row runs: <query>
    When executing query:
      """
      UNWIND ['1', [1]] AS x RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | query         |
      | toBoolean(x)  |
      | toFloat(x)    |
      | toInteger(x)  |

  Scenario Outline: [16] The OrNull forms answer null where the plain forms fail: <query>
    When executing query:
      """
      UNWIND ['1', [1], {a: 1}, 1.5] AS x RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <first>  |
      | null     |
      | null     |
      | <last>   |
    And no side effects

    Examples:
      | query              | first | last  |
      | toBooleanOrNull(x) | null  | null  |
      | toFloatOrNull(x)   | 1.0   | 1.5   |
      | toIntegerOrNull(x) | 1     | 1     |
      | toStringOrNull(x)  | '1'   | '1.5' |

  Scenario Outline: [17] A float too large for an integer is an overflow: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

    Examples:
      | query                        |
      | toInteger(1e30)              |
      | toInteger(-1e19)             |
      | toInteger(9.3e18)            |

  Scenario: [21] The OrNull and List forms and text give null for a value out of the 64-bit range
    When executing query:
      """
      RETURN toIntegerOrNull(1e30) AS a, toIntegerList([1e30, 1.5]) AS b, toInteger('1e30') AS c,
             toInteger('9223372036854775808') AS d, toInteger('9223372036854775807') AS e,
             toInteger(-9.2e18) AS f
      """
    Then the result should be, in any order:
      | a    | b         | c    | d    | e                   | f                    |
      | null | [null, 1] | null | null | 9223372036854775807 | -9200000000000000000 |
    And no side effects

  Scenario Outline: [18] length() works for paths only: of a string or a list it is refused: <arg>
    When executing query:
      """
      RETURN length(<arg>) AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | arg       |
      | 'abc'     |
      | [1, 2]    |

  Scenario: [20] length() of a string met when the row runs is an error
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Alice' RETURN length(a.name) AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [19] coalesce() needs at least one argument
    When executing query:
      """
      RETURN coalesce() AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberOfArguments
