# Written from the Neo4j 5 Cypher Manual's Values and types chapter, "Equality, ordering, and comparison
# of value types": equality of values, lists and null, comparison of numbers, NaN, strings, booleans and
# durations, the order of mixed types in ORDER BY, and the order of lists and maps. Spatial values are
# left to the spatial scenarios; UUID and VECTOR values are not Neo4j 5's.
Feature: Manual - values: equality, ordering and comparison

  Scenario: [1] Equality of values, of lists, and against null
    Given any graph
    When executing query:
      """
      RETURN 3 = 3 AS a, 'x' <> 'xy' AS b, [3, 4] = [1 + 2, 8 / 2] AS c,
             {k: [1, 2]} = {k: [1, 2]} AS d, {k: 1} = {k: 1, l: 2} AS e,
             null = null AS f, null <> null AS g, 1 = null AS h,
             null IS NULL AS i, 1 IS NOT NULL AS j
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e     | f    | g    | h    | i    | j    |
      | true | true | true | true | false | null | null | null | true | true |
    And no side effects

  Scenario: [2] Comparison of numbers, NaN, strings, booleans, null and durations
    Given any graph
    When executing query:
      """
      WITH 0.0 / 0.0 AS b
      RETURN 3 < 4 AS numbers, 1 > b AS gtNaN, 1 < b AS ltNaN, 'x' < 'xy' AS strings,
             false < true AS booleans, 1 < null AS withNull,
             duration('P1D') < duration('P2D') AS durations
      """
    Then the result should be, in any order:
      | numbers | gtNaN | ltNaN | strings | booleans | withNull | durations |
      | true    | false | false | true    | true     | null     | null      |
    And no side effects

  Scenario: [3] ORDER BY orders mixed types by their place in the hierarchy, null last
    Given any graph
    When executing query:
      """
      WITH [42, 'hello', null, true, {name: 'Alice'}, [1, 2, 3], date('2024-02-10')] AS v
      UNWIND v AS values
      RETURN values
      ORDER BY values
      """
    Then the result should be, in order:
      | values          |
      | {name: 'Alice'} |
      | [1, 2, 3]       |
      | '2024-02-10'    |
      | 'hello'         |
      | true            |
      | 42              |
      | null            |
    And no side effects

  Scenario Outline: [4] Lists order element by element, a shorter list first: <smaller> before <larger>
    Given any graph
    When executing query:
      """
      UNWIND [<larger>, <smaller>] AS l
      RETURN l
      ORDER BY l
      """
    Then the result should be, in order:
      | l         |
      | <smaller> |
      | <larger>  |
    And no side effects

    Examples:
      | smaller        | larger         |
      | [1, 'foo', 3]  | [1, 2, 'bar']  |
      | [1, 'foo']     | [1, 'foo', 3]  |
      | [1]            | [1, null]      |

  Scenario Outline: [5] Maps order by size, then keys, then values: <smaller> before <larger>
    Given any graph
    When executing query:
      """
      UNWIND [<larger>, <smaller>] AS m
      RETURN m
      ORDER BY m
      """
    Then the result should be, in order:
      | m         |
      | <smaller> |
      | <larger>  |
    And no side effects

    Examples:
      | smaller              | larger               |
      | {a: 1}               | {a: 0, b: 'foo'}     |
      | {b: 100, a: 'foo'}   | {a: '', c: null}     |
      | {b: 100, a: 'foo'}   | {a: 'foo', b: null}  |

  Scenario: [6] Paths order element by element, a prefix first
    Given an empty graph
    And having executed:
      """
      CREATE (:N {i: 1})-[:A]->(:N {i: 2}), (:N {i: 3})-[:REL]->(:N {i: 4})-[:REL]->(:N {i: 5})
      """
    When executing query:
      """
      MATCH p = (s:N)-[*1..2]->()
      WITH p ORDER BY s.i
      WITH collect(p) AS ps
      UNWIND ps AS p
      WITH p ORDER BY p
      RETURN [n IN nodes(p) | n.i] AS nodes
      """
    Then the result should be, in order:
      | nodes     |
      | [1, 2]    |
      | [3, 4]    |
      | [3, 4, 5] |
      | [4, 5]    |
    And no side effects
