# Written from the Neo4j 5 Cypher Manual's expression pages: "Conditional expressions (CASE)", "Lists"
# (indexing, slicing, list and pattern comprehensions), "Map projection", "Operators", "Type predicate
# expressions" and "Working with null": each example, on the pages' graph where they use one.
Feature: Manual - expressions and operators

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (alice:Person {name: 'Alice', age: 38, eyes: 'brown'}),
             (bob:Person {name: 'Bob', age: 25, eyes: 'blue'}),
             (charlie:Person {name: 'Charlie', age: 53, eyes: 'green'}),
             (daniel:Person {name: 'Daniel', eyes: 'brown'}),
             (eskil:Person {name: 'Eskil', age: 41, eyes: 'blue'}),
             (alice)-[:KNOWS]->(bob), (alice)-[:KNOWS]->(charlie),
             (bob)-[:KNOWS]->(daniel), (charlie)-[:KNOWS]->(daniel), (bob)-[:MARRIED]->(eskil)
      """

  Scenario: [1] A simple CASE compares one value with each WHEN
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name, CASE n.eyes WHEN 'blue' THEN 1 WHEN 'brown' THEN 2 ELSE 3 END AS result
      """
    Then the result should be, in any order:
      | name      | result |
      | 'Alice'   | 2      |
      | 'Bob'     | 1      |
      | 'Charlie' | 3      |
      | 'Daniel'  | 2      |
      | 'Eskil'   | 1      |
    And no side effects

  Scenario: [2] A generic CASE takes the first WHEN that holds
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name, CASE WHEN n.eyes = 'blue' THEN 1 WHEN n.age < 40 THEN 2 ELSE 3 END AS result
      """
    Then the result should be, in any order:
      | name      | result |
      | 'Alice'   | 2      |
      | 'Bob'     | 1      |
      | 'Charlie' | 3      |
      | 'Daniel'  | 3      |
      | 'Eskil'   | 1      |
    And no side effects

  Scenario: [3] A simple CASE never matches null with WHEN null; a generic one tests IS NULL
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name,
             CASE n.age WHEN null THEN -1 ELSE n.age - 10 END AS age_10_years_ago,
             CASE WHEN n.age IS NULL THEN -1 ELSE n.age - 10 END AS fixed
      """
    Then the result should be, in any order:
      | name      | age_10_years_ago | fixed |
      | 'Alice'   | 28               | 28    |
      | 'Bob'     | 15               | 15    |
      | 'Charlie' | 43               | 43    |
      | 'Daniel'  | null             | -1    |
      | 'Eskil'   | 31               | 31    |
    And no side effects

  Scenario: [4] An extended simple CASE with comparisons, lists of values and type predicates
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name,
             CASE n.age
               WHEN IS NULL, IS NOT TYPED INTEGER | FLOAT THEN 'Unknown'
               WHEN = 0, = 1, = 2 THEN 'Baby'
               WHEN <= 13 THEN 'Child'
               WHEN < 20 THEN 'Teenager'
               WHEN < 30 THEN 'Young Adult'
               WHEN > 1000 THEN 'Immortal'
               ELSE 'Adult'
             END AS result
      """
    Then the result should be, in any order:
      | name      | result        |
      | 'Alice'   | 'Adult'       |
      | 'Bob'     | 'Young Adult' |
      | 'Charlie' | 'Adult'       |
      | 'Daniel'  | 'Unknown'     |
      | 'Eskil'   | 'Adult'       |
    And no side effects

  Scenario: [5] CASE picks the value SET writes
    When executing query:
      """
      MATCH (n:Person)
      WITH n, CASE n.eyes WHEN 'blue' THEN 1 WHEN 'brown' THEN 2 ELSE 3 END AS colorCode
      SET n.colorCode = colorCode
      RETURN n.name AS name, n.colorCode AS code
      """
    Then the result should be, in any order:
      | name      | code |
      | 'Alice'   | 2    |
      | 'Bob'     | 1    |
      | 'Charlie' | 3    |
      | 'Daniel'  | 2    |
      | 'Eskil'   | 1    |
    And the side effects should be:
      | +properties | 5 |

  Scenario Outline: [6] Indexing and slicing lists: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                   | result                               |
      | range(0, 10)[3]                         | 3                                    |
      | range(0, 10)[-3]                        | 8                                    |
      | range(0, 10)[0..3]                      | [0, 1, 2]                            |
      | range(0, 10)[0..-5]                     | [0, 1, 2, 3, 4, 5]                   |
      | range(0, 10)[-5..]                      | [6, 7, 8, 9, 10]                     |
      | range(0, 10)[..4]                       | [0, 1, 2, 3]                         |
      | range(0, 10)[15]                        | null                                 |
      | range(0, 10)[5..15]                     | [5, 6, 7, 8, 9, 10]                  |
      | size(range(0, 10)[0..3])                | 3                                    |
      | [[1, 2], [3, 4]][1][0]                  | 3                                    |
      | [1, 2, 3][null]                         | null                                 |
      | [1, 2, 3][null..2]                      | null                                 |
      | [1, 2, 3][2..1]                         | []                                   |
      | null[0]                                 | null                                 |
      | [x IN range(0, 10) WHERE x % 2 = 0 \| x ^ 3] | [0.0, 8.0, 64.0, 216.0, 512.0, 1000.0] |
      | [x IN range(0, 10) WHERE x % 2 = 0]     | [0, 2, 4, 6, 8, 10]                  |
      | [x IN range(0, 10) \| x * 10][..3]      | [0, 10, 20]                          |
      | [x IN null \| x]                        | null                                 |
      | [1, 2, 3, 4, 5] + [6, 7]                | [1, 2, 3, 4, 5, 6, 7]                |
      | [2, 1] IN [1, [2, 1], 3]                | true                                 |
      | [1, 2] IN [1, 2]                        | false                                |
      | ['Anne', 'John', 'Bill', 'Diane', 'Eve'][1..3] | ['John', 'Bill']              |

  Scenario: [7] A pattern comprehension collects from the paths it matches
    When executing query:
      """
      MATCH (a:Person {name: 'Alice'})
      RETURN [(a)-->(b:Person) WHERE b.eyes IN ['blue', 'green'] | b.name + ' ' + b.age] AS friends,
             [p = (a)-[:KNOWS]->()-[:KNOWS]->() | length(p)] AS lengths
      """
    Then the result should be, in any order:
      | friends                   | lengths |
      | ['Bob 25', 'Charlie 53']  | [2, 2]  |
    And no side effects

  Scenario: [8] Map projections: property selectors, literal entries, variable selectors and all properties
    When executing query:
      """
      MATCH (a:Person {name: 'Alice'})-[:KNOWS]->(f)
      WITH a, count(f) AS friendCount, collect(f {.name, .age}) AS friends
      RETURN a {.name, .nickname, friendCount, friends: friends, older: a.age + 10} AS alice, a {.*} AS allProps
      """
    Then the result should be, in any order:
      | alice | allProps |
      | {name: 'Alice', nickname: null, friendCount: 2, friends: [{name: 'Bob', age: 25}, {name: 'Charlie', age: 53}], older: 48} | {name: 'Alice', age: 38, eyes: 'brown'} |
    And no side effects

  Scenario Outline: [9] Map projections of maps and null: <query>
    When executing query:
      """
      WITH {name: 'Anne', age: 25} AS m, null AS n RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                   | result                         |
      | m {.name}               | {name: 'Anne'}                 |
      | m {.*, age: 26}         | {name: 'Anne', age: 26}        |
      | m {.missing}            | {missing: null}                |
      | n {.name}               | null                           |
      | n {.*}                  | null                           |

  Scenario Outline: [10] Operators: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                | result  |
      | 2 ^ 3                                | 8.0     |
      | 4 - -3                               | 7       |
      | 7 / 2                                | 3       |
      | -7 / 2                               | -3      |
      | 7 / 2.0                              | 3.5     |
      | 7 % 3                                | 1       |
      | -7 % 3                               | -1      |
      | 7.5 % 2                              | 1.5     |
      | 1 + 2 * 3 - 4 / 2                    | 5       |
      | (1 + 2) * 3                          | 9       |
      | 4 > 3                                | true    |
      | 21 < 25 <= 30                        | true    |
      | 1 < 2 > 3                            | false   |
      | 1 = 1.0                              | true    |
      | 'a' <> 'b'                           | true    |
      | 'abc' < 'abd'                        | true    |
      | [1, 2] < [1, 3]                      | true    |
      | 1 < 'a'                              | null    |
      | true XOR false                       | true    |
      | NOT false AND true                   | true    |
      | {a: 1}.a                             | 1       |
      | {person: {name: 'Anne'}}.person.name | 'Anne'  |
      | {name: 'Anne'}['na' + 'me']          | 'Anne'  |
      | 'neo' + '4j'                         | 'neo4j' |
      | 'neo' \|\| '4j'                      | 'neo4j' |

  Scenario Outline: [11] Working with null: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                  | result |
      | null = null            | null   |
      | null <> null           | null   |
      | null IS NULL           | true   |
      | 1 + null               | null   |
      | false AND null         | false  |
      | true AND null          | null   |
      | true OR null           | true   |
      | false OR null          | null   |
      | true XOR null          | null   |
      | NOT null               | null   |
      | 2 IN [1, 2, 3]         | true   |
      | 2 IN [1, null, 3]      | null   |
      | 2 IN [1, 2, null]      | true   |
      | 2 IN [1]               | false  |
      | 2 IN []                | false  |
      | null IN [1, 2, 3]      | null   |
      | null IN [1, null, 3]   | null   |
      | null IN []             | false  |
      | [1, 2, 3][null]        | null   |
      | {a: 1}[null]           | null   |
      | null.name              | null   |
      | [][0]                  | null   |
      | head([])               | null   |
      | [1, null] = [1, null]  | null   |
      | [1, 2] = [1, null]     | null   |
      | [1, 2] = [3, null]     | false  |

  Scenario Outline: [12] Type predicates: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                   | result |
      | 42 IS :: INTEGER                        | true   |
      | 'abc' IS :: INTEGER                     | false  |
      | null IS :: INTEGER                      | true   |
      | null IS :: INTEGER NOT NULL             | false  |
      | null IS :: INTEGER!                     | false  |
      | 42 IS :: INTEGER!                       | true   |
      | 42 IS NOT :: STRING                     | true   |
      | 42 :: INTEGER                           | true   |
      | 42 IS TYPED INTEGER                     | true   |
      | 42.0 IS :: INTEGER \| FLOAT             | true   |
      | '42' IS :: INTEGER \| FLOAT             | false  |
      | [1, 2] IS :: LIST<INTEGER>              | true   |
      | [1, null, 2] IS :: LIST<INTEGER NOT NULL> | false |
      | [1, null, 2] IS :: LIST<INTEGER!>       | false  |
      | [1, 2] IS :: LIST<INTEGER!>             | true   |
      | [] IS :: LIST<NOTHING>                  | true   |
      | [] IS :: LIST<INTEGER>                  | true   |
      | [1, 2.0] IS :: LIST<INTEGER \| FLOAT>   | true   |
      | [1, 'a'] IS :: LIST<INTEGER>            | false  |
      | 1 IS :: PROPERTY VALUE                  | true   |
      | {a: 1} IS :: PROPERTY VALUE             | false  |
      | {a: 1} IS :: MAP                        | true   |
      | 1 IS :: ANY                             | true   |
      | null IS :: NOTHING                      | false  |
      | null IS :: NULL                         | true   |
      | date() IS :: DATE                       | true   |
      | localtime() IS :: TIME WITHOUT TIME ZONE | true  |
      | datetime() IS :: ZONED DATETIME         | true   |
      | 1 IS :: INT                             | true   |
      | 'a' IS :: VARCHAR                       | true   |
      | 1 IS :: POINT                           | false  |
      | null IS :: POINT                        | true   |
      | [1] IS :: LIST<POINT \| INTEGER>        | true   |

  Scenario: [13] A type predicate in WHERE filters by the property's type
    Given having executed:
      """
      MATCH (n:Person {name: 'Daniel'}) SET n.age = '54'
      """
    When executing query:
      """
      MATCH (n:Person) WHERE n.age IS :: INTEGER AND n.age > 40 RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name      |
      | 'Charlie' |
      | 'Eskil'   |
    And no side effects

  Scenario: [14] A closed union mixing NOT NULL with nullable types is refused
    When executing query:
      """
      RETURN 1 IS :: INTEGER! | FLOAT AS result
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [15] Indexing a list with a float is an error
    When executing query:
      """
      WITH [1, 2, 3] AS l, 0.5 AS i RETURN l[i] AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType
