# Sources: Neo4j Cypher manual 5, the signatures on the functions pages (string, mathematical, list,
# scalar and aggregating functions: the types each argument accepts), and the openCypher 9 reference
# and TCK convention (Graph3, Graph9, Path3: an argument whose type is known before running and can
# never be accepted is a SyntaxError at compile time, InvalidArgumentType; a value of unknown type is
# checked when it arrives, a TypeError at run time, InvalidArgumentValue).
Feature: FunctionArgumentTypes - an argument of a type a function never takes is refused before running

  Scenario Outline: [1] A literal of the wrong type
    Given any graph
    When executing query:
      """
      RETURN <call> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | call                       |
      | toUpper(1)                 |
      | lower(true)                |
      | trim([' a '])              |
      | btrim('xax', 1)            |
      | replace('a', 1, 'b')       |
      | split(1, ',')              |
      | split('a,b', 1)            |
      | substring('abc', '1')      |
      | substring('abc', 1.5)      |
      | left('abc', 1.0)           |
      | right(1, 1)                |
      | normalize(1)               |
      | char_length([1])           |
      | reverse(1)                 |
      | sqrt('4')                  |
      | abs('x')                   |
      | round(1.5, 1.0)            |
      | round(1.5, 1, 2)           |
      | atan2(1, 'x')              |
      | isNaN('NaN')               |
      | head('abc')                |
      | tail({a: 1})               |
      | last(1)                    |
      | toIntegerList('1')         |
      | isEmpty(0)                 |
      | toBoolean(1.5)             |
      | toFloat(true)              |
      | toInteger([1])             |
      | toString({a: 1})           |
      | elementId(1)               |

  Scenario Outline: [2] A variable whose type is known from WITH or UNWIND
    Given any graph
    When executing query:
      """
      WITH 12 AS n, 'text' AS s, [1, 2] AS l
      UNWIND l AS x
      RETURN <call> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | call         |
      | toUpper(n)   |
      | sqrt(s)      |
      | head(s)      |
      | left(s, s)   |
      | size(x)      |
      | split(l, s)  |

  Scenario: [3] A function's result type is known too
    Given any graph
    When executing query:
      """
      RETURN size(length(null)) AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario Outline: [4] An aggregate over values of a type it never takes
    Given any graph
    When executing query:
      """
      UNWIND ['a', 'b'] AS x RETURN <call> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | call                   |
      | sum(x)                 |
      | avg(DISTINCT x)        |
      | stDev(x)               |
      | percentileDisc(x, 0.5) |
      | percentileCont(1, x)   |

  Scenario: [5] Values of unknown type are checked when they arrive
    Given any graph
    And parameters are:
      | p | 12 |
    When executing query:
      """
      RETURN toUpper($p) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [6] An element of a list of mixed types is checked when it arrives
    Given any graph
    When executing query:
      """
      UNWIND ['a', 1] AS x RETURN toUpper(x) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [7] null fits every argument, and a property may hold anything
    Given an empty graph
    And having executed:
      """
      CREATE ({s: 'abc', n: 4})
      """
    When executing query:
      """
      MATCH (v)
      RETURN toUpper(null) AS a, sqrt(null) AS b, head(null) AS c, toUpper(v.s) AS d, sqrt(v.n) AS e, left(v.s, v.n - 2) AS f
      """
    Then the result should be, in any order:
      | a    | b    | c    | d     | e   | f    |
      | null | null | null | 'ABC' | 2.0 | 'ab' |
    And no side effects

  Scenario: [8] An integer is accepted where a float belongs, and a float where a number belongs
    Given any graph
    When executing query:
      """
      WITH 4 AS i, 2.25 AS f
      RETURN sqrt(i) AS a, sqrt(f) AS b, percentileCont(i, 0.5) AS c, round(f, 1) AS d, toInteger(f) AS e, toFloat(i) AS g
      """
    Then the result should be, in any order:
      | a   | b   | c   | d   | e | g   |
      | 2.0 | 1.5 | 4.0 | 2.3 | 2 | 4.0 |
    And no side effects
