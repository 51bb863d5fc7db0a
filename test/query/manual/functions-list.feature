# Written from the Neo4j 5 Cypher Manual's page "List functions": each example on the page's graph, then
# each function called with null, with an argument that is not a list, and range() with a step of 0.
Feature: Manual - list functions

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

  Scenario: [1] keys() of a node lists its property keys
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Alice' RETURN keys(a)
      """
    Then the result should be, in any order:
      | keys(a)                  |
      | ['name', 'age', 'eyes']  |
    And no side effects

  Scenario: [2] labels() of a node
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Alice' RETURN labels(a)
      """
    Then the result should be, in any order:
      | labels(a)     |
      | ['Developer'] |
    And no side effects

  Scenario: [3] nodes(), relationships() and reduce() over a path
    When executing query:
      """
      MATCH p = (a)-->(b)-->(c) WHERE a.name = 'Alice' AND c.name = 'Eskil'
      RETURN nodes(p) AS n, relationships(p) AS r, reduce(totalAge = 0, x IN nodes(p) | totalAge + x.age) AS reduction
      """
    Then the result should be, in any order:
      | n | r | reduction |
      | [(:Developer {name: 'Alice', age: 38, eyes: 'Brown'}), (:Administrator {name: 'Bob', age: 25, eyes: 'Blue'}), (:Designer {name: 'Eskil', age: 41, eyes: 'blue', likedColors: ['Pink', 'Yellow', 'Black']})] | [[:KNOWS], [:MARRIED]] | 104 |
    And no side effects

  Scenario: [4] tail() of a list property
    When executing query:
      """
      MATCH (a) WHERE a.name = 'Eskil' RETURN a.likedColors, tail(a.likedColors)
      """
    Then the result should be, in any order:
      | a.likedColors              | tail(a.likedColors) |
      | ['Pink', 'Yellow', 'Black'] | ['Yellow', 'Black'] |
    And no side effects

  Scenario Outline: [5] The literal examples: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                                        | result                                   |
      | range(0, 10)                                                 | [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]       |
      | range(2, 18, 3)                                              | [2, 5, 8, 11, 14, 17]                    |
      | range(0, 5, -1)                                              | []                                       |
      | range(10, 0, -3)                                             | [10, 7, 4, 1]                            |
      | range(5, 5)                                                  | [5]                                      |
      | reverse([4923, 'abc', 521, null, 487])                       | [487, null, 521, 'abc', 4923]            |
      | tail([])                                                     | []                                       |
      | tail([1])                                                    | []                                       |
      | toBooleanList([null, null])                                  | [null, null]                             |
      | toBooleanList(['a string', true, 'false', null, ['A', 'B']]) | [null, true, false, null, null]          |
      | toBooleanList([0, 1, 2.5])                                   | [false, true, null]                      |
      | toFloatList(['a string', 2.5, '3.14159', null, ['A', 'B']])  | [null, 2.5, 3.14159, null, null]         |
      | toFloatList([1, true])                                       | [1.0, null]                              |
      | toIntegerList(['a string', 2, '5', null, ['A', 'B']])        | [null, 2, 5, null, null]                 |
      | toIntegerList([1.9, true, '1.9'])                            | [1, 1, 1]                                |
      | toStringList(['already a string', 2, date({year: 1955, month: 11, day: 5}), null, ['A', 'B']]) | ['already a string', '2', '1955-11-05', null, null] |
      | toStringList([true, 1.5])                                    | ['true', '1.5']                          |
      | keys({b: 1, a: null})                                        | ['b', 'a']                               |
      | size([1, 2, 3])                                              | 3                                        |
      | [1, 2] + [3]                                                 | [1, 2, 3]                                |
      | [1, 2] \|\| [3, 4]                                           | [1, 2, 3, 4]                             |
      | [1, 2] + 3                                                   | [1, 2, 3]                                |
      | 0 + [1, 2]                                                   | [0, 1, 2]                                |
      | [1, null] \|\| [null]                                        | [1, null, null]                          |

  Scenario Outline: [6] null in, null out: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result |
      | null   |
    And no side effects

    Examples:
      | query                                      |
      | keys(null)                                 |
      | labels(null)                               |
      | nodes(null)                                |
      | relationships(null)                        |
      | reverse(null)                              |
      | tail(null)                                 |
      | head(null)                                 |
      | last(null)                                 |
      | size(null)                                 |
      | toBooleanList(null)                        |
      | toFloatList(null)                          |
      | toIntegerList(null)                        |
      | toStringList(null)                         |
      | reduce(acc = 0, x IN null \| acc + x)      |
      | [1, 2] \|\| null                           |

  Scenario: [7] range() with a step of 0 is an error
    When executing query:
      """
      WITH 0 AS step RETURN range(0, 10, step) AS result
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

  Scenario Outline: [8] range() takes integers only: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | query               |
      | range(1.5, 3)       |
      | range(0, '3')       |
      | range(0, 3, 1.0)    |

  Scenario Outline: [9] A list function given a value that is not a list: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | query                 |
      | tail('abc')           |
      | head('abc')           |
      | last(1)               |
      | toBooleanList('true') |
      | toFloatList(1.5)      |
      | toIntegerList(1)      |
      | toStringList('a')     |
      | nodes(1)              |
      | relationships('a')    |
      | labels(1)             |
      | keys(1)               |

  Scenario Outline: [10] The same, when the value is known only as the row runs: <query>
    When executing query:
      """
      UNWIND [[1], 'abc'] AS x RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | query             |
      | tail(x)           |
      | head(x)           |
      | toIntegerList(x)  |
