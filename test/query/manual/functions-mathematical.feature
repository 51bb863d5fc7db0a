# Written from the Neo4j 5 Cypher Manual's pages "Mathematical functions - numeric", "- logarithmic" and
# "- trigonometric": each example on the pages' graph or on literals, then each function called with null
# and with an argument of the wrong type, and the out-of-range inputs the pages' considerations name.
Feature: Manual - mathematical functions (numeric, logarithmic, trigonometric)

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (alice:A {name: 'Alice', age: 38, eyes: 'brown'}),
             (bob:B {name: 'Bob', age: 25, eyes: 'blue'}),
             (charlie:C {name: 'Charlie', age: 53, eyes: 'green'}),
             (daniel:D {name: 'Daniel', age: 54, eyes: 'brown'}),
             (eskil:E {name: 'Eskil', age: 41, eyes: 'blue', array: ['one', 'two', 'three']}),
             (alice)-[:KNOWS]->(bob), (alice)-[:KNOWS]->(charlie),
             (bob)-[:KNOWS]->(daniel), (charlie)-[:KNOWS]->(daniel), (bob)-[:MARRIED]->(eskil)
      """

  Scenario: [1] abs() of the difference of two ages
    When executing query:
      """
      MATCH (a), (e) WHERE a.name = 'Alice' AND e.name = 'Eskil'
      RETURN a.age, e.age, abs(a.age - e.age)
      """
    Then the result should be, in any order:
      | a.age | e.age | abs(a.age - e.age) |
      | 38    | 41    | 3                  |
    And no side effects

  Scenario Outline: [2] The numeric function examples: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                            | result |
      | abs(-3)                          | 3      |
      | abs(-3.5)                        | 3.5    |
      | ceil(0.1)                        | 1.0    |
      | ceil(-0.1)                       | -0.0   |
      | ceil(1)                          | 1.0    |
      | floor(0.9)                       | 0.0    |
      | floor(-0.1)                      | -1.0   |
      | isNaN(0/0.0)                     | true   |
      | isNaN(1)                         | false  |
      | isNaN(1.5)                       | false  |
      | round(3.141592)                  | 3.0    |
      | round(-1.5)                      | -1.0   |
      | round(2.5)                       | 3.0    |
      | round(3.141592, 3)               | 3.142  |
      | round(3.141592, null)            | null   |
      | round(-1.5, 0)                   | -1.0   |
      | round(-2.5, 0)                   | -2.0   |
      | round(2.5, 0)                    | 3.0    |
      | round(-1.5, 0, 'HALF_UP')        | -2.0   |
      | round(-1.55, 1)                  | -1.6   |
      | toString(round(-0.4))            | '0.0'  |
      | round(1.249, 1, 'UP')            | 1.3    |
      | round(1.249, 1, 'DOWN')          | 1.2    |
      | round(1.249, 1, 'CEILING')       | 1.3    |
      | round(-1.249, 1, 'CEILING')      | -1.2   |
      | round(1.249, 1, 'FLOOR')         | 1.2    |
      | round(-1.249, 1, 'FLOOR')        | -1.3   |
      | round(1.249, 1, 'HALF_UP')       | 1.2    |
      | round(1.25, 1, 'HALF_UP')        | 1.3    |
      | round(-1.25, 1, 'HALF_UP')       | -1.3   |
      | round(1.25, 1, 'HALF_DOWN')      | 1.2    |
      | round(-1.25, 1, 'HALF_DOWN')     | -1.2   |
      | round(1.25, 1, 'HALF_EVEN')      | 1.2    |
      | round(1.35, 1, 'HALF_EVEN')      | 1.4    |
      | round(1.0, 0, 'UNNECESSARY')     | 1.0    |
      | sign(-17)                        | -1     |
      | sign(0.1)                        | 1      |
      | sign(0)                          | 0      |
      | sign(-0.5)                       | -1     |
      | rand() >= 0.0 AND rand() < 1.0   | true   |

  Scenario Outline: [3] The logarithmic function examples: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query             | result             |
      | e()               | 2.718281828459045  |
      | exp(2)            | 7.38905609893065   |
      | log(27)           | 3.295836866004329  |
      | log10(27)         | 1.4313637641589874 |
      | sqrt(256)         | 16.0               |
      | log(-1)           | NaN                |
      | log10(-1)         | NaN                |
      | sqrt(-1)          | NaN                |
      | log(0) < -1.0e308 | true               |
      | log10(0) < -1e308 | true               |
      | exp(1000) > 1e308 | true               |

  Scenario Outline: [4] The trigonometric function examples: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query            | result              |
      | acos(0.5)        | 1.0471975511965979  |
      | asin(0.5)        | 0.5235987755982989  |
      | atan(0.5)        | 0.4636476090008061  |
      | atan2(0.5, 0.6)  | 0.6947382761967033  |
      | cos(0.5)         | 0.8775825618903728  |
      | cot(0.5)         | 1.830487721712452   |
      | degrees(3.14159) | 179.9998479605043   |
      | haversin(0.5)    | 0.06120871905481362 |
      | pi()             | 3.141592653589793   |
      | radians(180)     | 3.141592653589793   |
      | sin(0.5)         | 0.479425538604203   |
      | tan(0.5)         | 0.5463024898437905  |
      | acos(2)          | NaN                 |
      | asin(-1.5)       | NaN                 |
      | cot(0) > 1e308   | true                |
      | degrees(0)       | 0.0                 |
      | radians(0)       | 0.0                 |

  Scenario: [5] The spherical distance between Berlin and San Mateo by haversin()
    Given having executed:
      """
      CREATE (:City {name: 'Berlin', lat: 52.5, lon: 13.4}), (:City {name: 'San Mateo', lat: 37.5, lon: -122.3})
      """
    When executing query:
      """
      MATCH (ber:City {name: 'Berlin'}), (sm:City {name: 'San Mateo'})
      RETURN 2 * 6371 * asin(sqrt(haversin(radians(sm.lat - ber.lat))
             + cos(radians(sm.lat)) * cos(radians(ber.lat)) * haversin(radians(sm.lon - ber.lon)))) AS dist
      """
    Then the result should be, in any order:
      | dist              |
      | 9129.969740051658 |
    And no side effects

  Scenario Outline: [6] <fn>(null) returns null
    When executing query:
      """
      RETURN <fn>(null) AS result
      """
    Then the result should be, in any order:
      | result |
      | null   |
    And no side effects

    Examples:
      | fn       |
      | abs      |
      | ceil     |
      | floor    |
      | isNaN    |
      | round    |
      | sign     |
      | exp      |
      | log      |
      | log10    |
      | sqrt     |
      | acos     |
      | asin     |
      | atan     |
      | cos      |
      | cot      |
      | degrees  |
      | haversin |
      | radians  |
      | sin      |
      | tan      |

  Scenario Outline: [7] Two-argument forms with a null argument return null: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result |
      | null   |
    And no side effects

    Examples:
      | query                      |
      | atan2(null, 0.5)           |
      | atan2(0.5, null)           |
      | round(null, 2)             |
      | round(null, 2, 'HALF_UP')  |

  Scenario Outline: [8] <fn>() refuses a string argument
    When executing query:
      """
      WITH '1' AS s RETURN <fn>(s) AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | fn       |
      | abs      |
      | ceil     |
      | floor    |
      | round    |
      | sign     |
      | exp      |
      | log      |
      | log10    |
      | sqrt     |
      | acos     |
      | sin      |
      | degrees  |

  Scenario Outline: [9] <fn>() refuses a non-numeric value known only when the row runs
    When executing query:
      """
      UNWIND [1, 'one'] AS x RETURN <fn>(x) AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | fn    |
      | abs   |
      | sqrt  |
      | cos   |
      | isNaN |

  Scenario: [10] round() with a precision and the UNNECESSARY mode fails when rounding is needed
    When executing query:
      """
      RETURN round(1.5, 0, 'UNNECESSARY') AS result
      """
    Then a ArithmeticError should be raised at runtime: InvalidArgumentValue

  Scenario: [11] round() with an unknown rounding mode fails
    When executing query:
      """
      RETURN round(1.5, 0, 'SIDEWAYS') AS result
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue
