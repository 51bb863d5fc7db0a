# Sources: openCypher 9 reference, operator precedence (unary minus above ^, ^ left-associative, then
# * / %, then + -, then comparison chains, NOT, AND, XOR, OR), CASE (simple form uses equality, null never
# matches), list predicates all/any/none/single with three-valued logic; Neo4j Cypher manual 5,
# functions/predicate, functions/list (nodes, relationships), functions/scalar (length).
Feature: PrecedenceCaseQuantifiers - operator precedence and associativity, CASE with nulls, list predicates, path functions

  Scenario: [1] Arithmetic precedence and associativity
    Given any graph
    When executing query:
      """
      RETURN 1 + 2 * 3 ^ 2 AS a, -3 ^ 2 AS b, 10 - 3 - 2 AS c, 2 * 3 % 4 AS d, 12 / 2 / 3 AS e, 2 ^ 2 ^ 3 AS f,
             -(-3) AS g, - - 2 AS h, 2 - -2 AS i, 7 % 4 * 2 AS j
      """
    Then the result should be, in any order:
      | a    | b   | c | d | e | f    | g | h | i | j |
      | 19.0 | 9.0 | 5 | 2 | 2 | 64.0 | 3 | 2 | 4 | 6 |
    And no side effects

  Scenario: [2] Comparisons chain with AND; = is one more comparison in the chain
    Given any graph
    When executing query:
      """
      RETURN 1 < 2 < 3 AS a, 3 > 2 > 1 AS b, 1 < 3 > 2 AS c, 1 = 1 = 1 AS d, 1 < 2 = true AS e, 3 > 2 >= 2 AS f
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e     | f    |
      | true | true | true | true | false | true |
    And no side effects

  Scenario: [3] NOT binds looser than comparison, AND tighter than XOR, XOR tighter than OR
    Given any graph
    When executing query:
      """
      RETURN NOT true = false AS a, true OR false AND false AS b, true XOR true OR true AS c, false AND true XOR true AS d,
             NOT NOT true AS e, NOT false AND false AS f, true XOR (true OR true) AS g
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f     | g     |
      | true | true | true | true | true | false | false |
    And no side effects

  Scenario: [4] + is left-associative across strings, numbers and lists
    Given any graph
    When executing query:
      """
      RETURN 'a' + 'b' + 1 AS a, 1 + 2 + 'x' AS b, 'x' + 1 + 2 AS c, [1] + [2] + 3 AS d, 1 + 2 + [3] AS e
      """
    Then the result should be, in any order:
      | a     | b    | c     | d         | e      |
      | 'ab1' | '3x' | 'x12' | [1, 2, 3] | [3, 3] |
    And no side effects

  Scenario: [5] Predicates bind tighter than comparison, and IS NULL applies to the whole arithmetic operand
    Given any graph
    When executing query:
      """
      RETURN null IS NULL = true AS a, 1 + null IS NULL AS b, NOT null IS NULL AS c, 'a' IN ['a'] = true AS d,
             2 ^ 2 IN [4.0] AS e, 'ab' STARTS WITH 'a' = true AS f, 1 + 1 IN [2] AS g
      """
    Then the result should be, in any order:
      | a    | b    | c     | d    | e    | f    | g    |
      | true | true | false | true | true | true | true |
    And no side effects

  Scenario: [6] Property access and indexing bind tightest
    Given any graph
    When executing query:
      """
      WITH {a: [10, 20], b: {c: 3}} AS m
      RETURN -m.b.c AS a, m.a[1] * 2 AS b, -m.a[0] ^ 2 AS c, m['a'][-1] AS d, [m.b][0].c AS e
      """
    Then the result should be, in any order:
      | a  | b  | c     | d  | e |
      | -3 | 40 | 100.0 | 20 | 3 |
    And no side effects

  Scenario: [7] CASE with null subjects, null conditions and missing ELSE
    Given any graph
    When executing query:
      """
      RETURN CASE null WHEN null THEN 'match' ELSE 'no' END AS a, CASE WHEN null THEN 'yes' ELSE 'no' END AS b,
             CASE 1 WHEN 2 THEN 'x' END AS c, CASE WHEN 1 = 1 THEN null ELSE 3 END AS d,
             CASE 2.0 WHEN 2 THEN 'eq' ELSE 'ne' END AS e, CASE [1, null] WHEN [1, null] THEN 'eq' ELSE 'ne' END AS f,
             CASE WHEN NOT null THEN 1 WHEN null IS NULL THEN 2 END AS g
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f    | g |
      | 'no' | 'no' | null | null | 'eq' | 'ne' | 2 |
    And no side effects

  Scenario: [8] CASE evaluates only the branch it takes
    Given any graph
    When executing query:
      """
      UNWIND [0, 2] AS d
      RETURN CASE WHEN d = 0 THEN 'none' ELSE toString(10 / d) END AS r
      """
    Then the result should be, in any order:
      | r      |
      | 'none' |
      | '5'    |
    And no side effects

  Scenario: [9] List predicates on null lists give null
    Given any graph
    When executing query:
      """
      RETURN all(x IN null WHERE x > 0) AS a, any(x IN null WHERE x > 0) AS b, none(x IN null WHERE x > 0) AS c,
             single(x IN null WHERE x > 0) AS d
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    |
      | null | null | null | null |
    And no side effects

  Scenario: [10] List predicates on empty lists
    Given any graph
    When executing query:
      """
      RETURN all(x IN [] WHERE x > 0) AS a, any(x IN [] WHERE x > 0) AS b, none(x IN [] WHERE x > 0) AS c,
             single(x IN [] WHERE x > 0) AS d
      """
    Then the result should be, in any order:
      | a    | b     | c    | d     |
      | true | false | true | false |
    And no side effects

  Scenario Outline: [11] List predicates with null elements follow three-valued logic
    Given any graph
    When executing query:
      """
      RETURN <predicate>(x IN <list> WHERE x > 0) AS r
      """
    Then the result should be, in any order:
      | r        |
      | <result> |
    And no side effects

    Examples:
      | predicate | list          | result |
      | all       | [1, null]     | null   |
      | all       | [-1, null]    | false  |
      | any       | [1, null]     | true   |
      | any       | [-1, null]    | null   |
      | none      | [1, null]     | false  |
      | none      | [-1, null]    | null   |
      | single    | [1, null]     | null   |
      | single    | [1, 2, null]  | false  |
      | single    | [-1, null]    | null   |
      | single    | [1, -1]       | true   |
      | all       | [null]        | null   |

  Scenario: [12] Path functions on a zero-length path and on null
    Given an empty graph
    And having executed:
      """
      CREATE (:Solo {a: 1})
      """
    When executing query:
      """
      MATCH p = (n:Solo)
      OPTIONAL MATCH q = (n)-->()
      RETURN nodes(p) AS a, relationships(p) AS b, length(p) AS c, nodes(q) AS d, relationships(q) AS e, length(q) AS f
      """
    Then the result should be, in any order:
      | a                | b  | c | d    | e    | f    |
      | [(:Solo {a: 1})] | [] | 0 | null | null | null |
    And no side effects

  Scenario: [13] Path functions along a path follow the walk
    Given an empty graph
    And having executed:
      """
      CREATE (:S {i: 1})-[:R {w: 1}]->(:S {i: 2})<-[:R {w: 2}]-(:S {i: 3})
      """
    When executing query:
      """
      MATCH p = (:S {i: 1})-[*2]-(:S {i: 3})
      RETURN [n IN nodes(p) | n.i] AS ids, [r IN relationships(p) | r.w] AS weights, length(p) AS len
      """
    Then the result should be, in any order:
      | ids       | weights | len |
      | [1, 2, 3] | [1, 2]  | 2   |
    And no side effects

  Scenario Outline: [14] A value statically known not to be a path is refused before running
    Given any graph
    When executing query:
      """
      WITH <value> AS v RETURN <function>(v) AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | function      | value |
      | nodes         | [1]   |
      | relationships | 1     |

  Scenario Outline: [15] Path functions on a value that is not a path are refused when it arrives
    Given any graph
    When executing query:
      """
      UNWIND [<value>, true] AS v WITH v LIMIT 1 RETURN <function>(v) AS r
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

    Examples:
      | function      | value |
      | length        | 'abc' |
      | nodes         | [1]   |
      | relationships | 1     |
