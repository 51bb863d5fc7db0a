# Sources: Neo4j Cypher manual 5, clauses/order-by and values-and-types/ordering-equality-comparison (the
# global sort order: maps by size, then keys, then values; lists element by element; NaN above every number);
# clauses/unwind (null, non-lists, nested lists); clauses/optional-match (WHERE belongs to the OPTIONAL MATCH);
# openCypher 9 reference, DISTINCT equivalence.
Feature: OrderDistinctUnwind - the global sort order over maps and lists, DISTINCT over containers, UNWIND edges

  Scenario: [1] Maps order by their size first, then by sorted keys, then by values
    Given any graph
    When executing query:
      """
      UNWIND [{b: 1}, {a: 2}, {a: 1, b: 1}, {a: 1}, {}, {a: 1, c: 0}] AS m
      RETURN m ORDER BY m
      """
    Then the result should be, in order:
      | m            |
      | {}           |
      | {a: 1}       |
      | {a: 2}       |
      | {b: 1}       |
      | {a: 1, b: 1} |
      | {a: 1, c: 0} |
    And no side effects

  Scenario: [2] Lists order element by element under the global order, a prefix first
    Given any graph
    When executing query:
      """
      UNWIND [[1, 2], [1], [], [null], [1, null], ['a'], [[1]], [true], [1.5]] AS l
      RETURN l ORDER BY l
      """
    Then the result should be, in order:
      | l         |
      | []        |
      | [[1]]     |
      | ['a']     |
      | [true]    |
      | [1]       |
      | [1, 2]    |
      | [1, null] |
      | [1.5]     |
      | [null]    |
    And no side effects

  Scenario: [3] Descending order reverses all of it, null first
    Given any graph
    When executing query:
      """
      UNWIND [{k: 1}, [1], 'a', true, 2, null, duration('P1D'), date('2020-01-01')] AS v
      RETURN v ORDER BY v DESC
      """
    Then the result should be, in order:
      | v            |
      | null         |
      | 2            |
      | true         |
      | 'a'          |
      | 'P1D'        |
      | '2020-01-01' |
      | [1]          |
      | {k: 1}       |
    And no side effects

  Scenario: [4] Temporal kinds order among themselves
    Given any graph
    When executing query:
      """
      UNWIND [date('2020-01-01'), datetime('2020-01-01T00:00Z'), localdatetime('2020-01-01T00:00'), time('00:00Z'),
              localtime('00:00'), duration('P1D')] AS t
      RETURN t ORDER BY t
      """
    Then the result should be, in order:
      | t                   |
      | '2020-01-01T00:00Z' |
      | '2020-01-01T00:00'  |
      | '2020-01-01'        |
      | '00:00Z'            |
      | '00:00'             |
      | 'P1D'               |
    And no side effects

  Scenario: [5] Graph elements order between maps and lists
    Given an empty graph
    And having executed:
      """
      CREATE (:P {a: 1})-[:T]->(:P {a: 2})
      """
    When executing query:
      """
      MATCH p = (x {a: 1})-[r]->(y)
      UNWIND [p, x, r, [1], {a: 1}] AS v
      RETURN v ORDER BY v
      """
    Then the result should be, in order:
      | v                               |
      | {a: 1}                          |
      | (:P {a: 1})                     |
      | [:T]                            |
      | [1]                             |
      | <(:P {a: 1})-[:T]->(:P {a: 2})> |
    And no side effects

  Scenario: [6] NaN sorts above every number, and below null
    Given any graph
    When executing query:
      """
      UNWIND [2, 0.5, 0.0 / 0.0, -1.0 / 0.0, 10, 1.0 / 0.0, null, -3] AS v
      RETURN toString(v) AS s ORDER BY v
      """
    Then the result should be, in order:
      | s           |
      | '-Infinity' |
      | '-3'        |
      | '0.5'       |
      | '2'         |
      | '10'        |
      | 'Infinity'  |
      | 'NaN'       |
      | null        |
    And no side effects

  Scenario: [7] DISTINCT treats equal maps and lists as one, 1 and 1.0 as one, and null as one
    Given any graph
    When executing query:
      """
      UNWIND [{a: 1}, {a: 1}, [1], [1], [1, 2], null, null, {a: 1, b: null}] AS v
      RETURN DISTINCT v
      """
    Then the result should be, in any order:
      | v                |
      | {a: 1}           |
      | [1]              |
      | [1, 2]           |
      | null             |
      | {a: 1, b: null}  |
    And no side effects

  Scenario: [8] DISTINCT over nodes compares identity, not content
    Given an empty graph
    And having executed:
      """
      CREATE (:Twin {a: 1}), (:Twin {a: 1})
      """
    When executing query:
      """
      MATCH (n:Twin) UNWIND [n, n] AS x
      RETURN count(DISTINCT x) AS distinctNodes, count(x) AS total, count(DISTINCT x {.*}) AS distinctMaps
      """
    Then the result should be, in any order:
      | distinctNodes | total | distinctMaps |
      | 2             | 4     | 1            |
    And no side effects

  Scenario: [9] UNWIND of null or an empty list gives no rows; of a scalar, one row
    Given any graph
    When executing query:
      """
      UNWIND [null, [], 5, [6, 7]] AS source
      UNWIND source AS x
      RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 5 |
      | 6 |
      | 7 |
    And no side effects

  Scenario: [10] UNWIND takes one level of nesting at a time
    Given any graph
    When executing query:
      """
      UNWIND [[1, 2], [3, [4]], null] AS x
      RETURN x
      """
    Then the result should be, in any order:
      | x        |
      | [1, 2]   |
      | [3, [4]] |
      | null     |
    And no side effects

  Scenario: [11] Aggregating after an UNWIND of nothing
    Given any graph
    When executing query:
      """
      UNWIND [] AS x RETURN count(*) AS c, collect(x) AS l, sum(x) AS s
      """
    Then the result should be, in any order:
      | c | l  | s |
      | 0 | [] | 0 |
    And no side effects

  Scenario: [12] A WHERE on OPTIONAL MATCH keeps the outer row and nulls the optional part
    Given an empty graph
    And having executed:
      """
      CREATE (:A {n: 1})-[:T]->(:B {n: 2}), (:A {n: 3}), (:A {n: 5})-[:T]->(:B {n: 9})
      """
    When executing query:
      """
      MATCH (a:A) OPTIONAL MATCH (a)-[:T]->(b) WHERE b.n > 5
      RETURN a.n AS a, b.n AS b ORDER BY a
      """
    Then the result should be, in order:
      | a | b    |
      | 1 | null |
      | 3 | null |
      | 5 | 9    |
    And no side effects

  Scenario: [13] A WHERE after WITH filters the rows OPTIONAL MATCH kept
    Given an empty graph
    And having executed:
      """
      CREATE (:A {n: 1})-[:T]->(:B {n: 2}), (:A {n: 3})
      """
    When executing query:
      """
      MATCH (a:A) OPTIONAL MATCH (a)-[:T]->(b)
      WITH a, b WHERE b IS NULL
      RETURN a.n AS a
      """
    Then the result should be, in any order:
      | a |
      | 3 |
    And no side effects

  Scenario: [14] An OPTIONAL MATCH from a null node is null too
    Given an empty graph
    When executing query:
      """
      OPTIONAL MATCH (x:Nope) OPTIONAL MATCH (x)-[:T]->(y) RETURN x, y
      """
    Then the result should be, in any order:
      | x    | y    |
      | null | null |
    And no side effects

  Scenario: [15] ORDER BY on several keys with mixed directions and nulls
    Given any graph
    When executing query:
      """
      UNWIND [{g: 'b', v: 1}, {g: 'a', v: null}, {g: 'a', v: 2}, {g: null, v: 0}, {g: 'b', v: 3}] AS r
      RETURN r.g AS g, r.v AS v ORDER BY g DESC, v ASC
      """
    Then the result should be, in order:
      | g    | v    |
      | null | 0    |
      | 'b'  | 1    |
      | 'b'  | 3    |
      | 'a'  | 2    |
      | 'a'  | null |
    And no side effects
