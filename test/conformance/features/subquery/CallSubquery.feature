# Written from the Neo4j 5 Cypher Manual, "CALL subqueries" (clauses/call-subquery): per-row execution,
# importing WITH and the variable scope clause, returning and unit subqueries, UNION inside,
# aggregation per row, OPTIONAL CALL, and the scoping errors the page names.
Feature: CallSubquery - CALL { ... } runs a subquery once per incoming row

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (k:Shop {name: 'Kiosk'}), (m:Shop {name: 'Market'}), (d:Shop {name: 'Depot'}),
             (ada:Clerk {name: 'Ada', years: 3}), (ben:Clerk {name: 'Ben', years: 9}),
             (cy:Clerk {name: 'Cy', years: 1}), (dee:Clerk {name: 'Dee', years: 5}),
             (ada)-[:WORKS_AT]->(k), (ben)-[:WORKS_AT]->(k), (cy)-[:WORKS_AT]->(m),
             (k)-[:SUPPLIES {crates: 4}]->(m), (k)-[:SUPPLIES {crates: 6}]->(m), (m)-[:SUPPLIES {crates: 2}]->(d)
      """

  Scenario: [1] The subquery runs once for every incoming row
    When executing query:
      """
      UNWIND [10, 20, 30] AS x
      CALL { RETURN 'tick' AS word }
      RETURN x, word
      """
    Then the result should be, in any order:
      | x  | word   |
      | 10 | 'tick' |
      | 20 | 'tick' |
      | 30 | 'tick' |
    And no side effects

  Scenario: [2] An importing WITH brings outer variables in
    When executing query:
      """
      UNWIND [1, 2, 3] AS x
      CALL {
        WITH x
        RETURN x * 100 AS hundredfold
      }
      RETURN x, hundredfold
      """
    Then the result should be, in any order:
      | x | hundredfold |
      | 1 | 100         |
      | 2 | 200         |
      | 3 | 300         |
    And no side effects

  Scenario: [3] The variable scope clause imports the named variables
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) {
        OPTIONAL MATCH (c:Clerk)-[:WORKS_AT]->(s)
        RETURN count(c) AS staff
      }
      RETURN s.name AS shop, staff
      """
    Then the result should be, in any order:
      | shop     | staff |
      | 'Kiosk'  | 2     |
      | 'Market' | 1     |
      | 'Depot'  | 0     |
    And no side effects

  Scenario: [4] CALL (*) imports every variable in scope
    When executing query:
      """
      WITH 2 AS a, 5 AS b
      CALL (*) { RETURN a * b AS product }
      RETURN product
      """
    Then the result should be, in any order:
      | product |
      | 10      |
    And no side effects

  Scenario: [5] CALL () imports nothing, so an outer name inside is another variable
    When executing query:
      """
      MATCH (c:Clerk {name: 'Ada'})
      CALL () {
        MATCH (c:Clerk) WHERE c.years > 4
        RETURN c.name AS senior
      }
      RETURN c.name AS clerk, senior
      """
    Then the result should be, in any order:
      | clerk | senior |
      | 'Ada' | 'Ben'  |
      | 'Ada' | 'Dee'  |
    And no side effects

  Scenario: [6] A returning subquery with no rows drops the incoming row
    When executing query:
      """
      MATCH (c:Clerk)
      CALL (c) {
        MATCH (c)-[:WORKS_AT]->(s:Shop)
        RETURN s.name AS shop
      }
      RETURN c.name AS clerk, shop
      """
    Then the result should be, in any order:
      | clerk | shop     |
      | 'Ada' | 'Kiosk'  |
      | 'Ben' | 'Kiosk'  |
      | 'Cy'  | 'Market' |
    And no side effects

  Scenario: [7] OPTIONAL CALL keeps the row with null columns
    When executing query:
      """
      MATCH (c:Clerk)
      OPTIONAL CALL (c) {
        MATCH (c)-[:WORKS_AT]->(s:Shop)
        RETURN s.name AS shop
      }
      RETURN c.name AS clerk, shop
      """
    Then the result should be, in any order:
      | clerk | shop     |
      | 'Ada' | 'Kiosk'  |
      | 'Ben' | 'Kiosk'  |
      | 'Cy'  | 'Market' |
      | 'Dee' | null     |
    And no side effects

  Scenario: [8] Aggregation inside is scoped to one run, imported variables included
    When executing query:
      """
      MATCH (c:Clerk)
      CALL (c) {
        MATCH (other:Clerk) WHERE other.years < c.years
        RETURN count(other) AS juniors, collect(other.name) AS names
      }
      RETURN c.name AS clerk, juniors
      ORDER BY clerk
      """
    Then the result should be, in order:
      | clerk | juniors |
      | 'Ada' | 1       |
      | 'Ben' | 3       |
      | 'Cy'  | 0       |
      | 'Dee' | 2       |
    And no side effects

  Scenario: [9] Several rows per run multiply the incoming rows
    When executing query:
      """
      UNWIND ['a', 'b'] AS tag
      CALL { UNWIND [1, 2, 3] AS i RETURN i }
      RETURN tag, sum(i) AS total
      """
    Then the result should be, in any order:
      | tag | total |
      | 'a' | 6     |
      | 'b' | 6     |
    And no side effects

  Scenario: [10] UNION inside, and the rows it returns processed after it
    When executing query:
      """
      CALL {
        MATCH (c:Clerk) RETURN c.name AS name ORDER BY c.years ASC LIMIT 1
        UNION
        MATCH (c:Clerk) RETURN c.name AS name ORDER BY c.years DESC LIMIT 1
      }
      RETURN name ORDER BY name
      """
    Then the result should be, in order:
      | name  |
      | 'Ben' |
      | 'Cy'  |
    And no side effects

  Scenario: [11] Every UNION part imports on its own with an importing WITH
    When executing query:
      """
      MATCH (s:Shop {name: 'Kiosk'})
      CALL {
        WITH s
        MATCH (s)-[:SUPPLIES]->(t) RETURN t.name AS other
        UNION ALL
        WITH s
        MATCH (c:Clerk)-[:WORKS_AT]->(s) RETURN c.name AS other
      }
      RETURN other ORDER BY other
      """
    Then the result should be, in order:
      | other    |
      | 'Ada'    |
      | 'Ben'    |
      | 'Market' |
      | 'Market' |
    And no side effects

  Scenario: [12] A unit subquery writes and leaves the number of rows alone
    When executing query:
      """
      MATCH (c:Clerk)
      CALL (c) {
        UNWIND range(1, 2) AS i
        CREATE (:Badge {owner: c.name, n: i})
      }
      RETURN count(*) AS clerks
      """
    Then the result should be, in any order:
      | clerks |
      | 4      |
    And the side effects should be:
      | +nodes      | 8  |
      | +labels     | 1  |
      | +properties | 16 |

  Scenario: [13] Each run sees the writes of the runs before it
    Given having executed:
      """
      CREATE (:Tally {n: 0})
      """
    When executing query:
      """
      UNWIND [1, 2, 3] AS x
      CALL {
        MATCH (t:Tally) SET t.n = t.n + 1
        RETURN t.n AS seen
      }
      WITH seen MATCH (t:Tally)
      RETURN seen, t.n AS final
      """
    Then the result should be, in any order:
      | seen | final |
      | 1    | 3     |
      | 2    | 3     |
      | 3    | 3     |
    And the side effects should be:
      | +properties | 1 |
      | -properties | 1 |

  Scenario: [14] A query may end with a unit subquery
    When executing query:
      """
      MATCH (s:Shop {name: 'Depot'})
      CALL (s) { SET s.open = true }
      """
    Then the result should be empty
    And the side effects should be:
      | +properties | 1 |

  Scenario: [15] Nested CALL subqueries
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL (x) {
        CALL (x) { RETURN x + 1 AS y }
        RETURN y * 10 AS z
      }
      RETURN x, z
      """
    Then the result should be, in any order:
      | x | z  |
      | 1 | 20 |
      | 2 | 30 |
    And no side effects

  Scenario: [16] A returned variable may not reuse an outer name
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) { RETURN s }
      RETURN s
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [17] A variable is imported once
    When executing query:
      """
      WITH 1 AS x
      CALL (x, x) { RETURN x + 1 AS y }
      RETURN y
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [18] A scope clause names variables that exist
    When executing query:
      """
      WITH 1 AS x
      CALL (nope) { RETURN 1 AS y }
      RETURN y
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [19] A variable not imported is not visible inside
    When executing query:
      """
      WITH 1 AS x
      CALL () { RETURN x + 1 AS y }
      RETURN y
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [20] Inside, an imported variable cannot be declared again
    When executing query:
      """
      WITH [1, 2] AS xs
      CALL (xs) { UNWIND xs AS xs RETURN 1 AS one }
      RETURN one
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [21] A returned expression needs an alias
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL (x) { RETURN x + 1 }
      RETURN 1 AS one
      """
    Then a SyntaxError should be raised at compile time: NoExpressionAlias

  Scenario: [22] An importing WITH is plain references only: no alias
    When executing query:
      """
      WITH 1 AS x
      CALL { WITH x AS y RETURN y AS z }
      RETURN z
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [23] An importing WITH is plain references only: no WHERE
    When executing query:
      """
      UNWIND [[1, 2], [1, 2, 3]] AS l
      CALL { WITH l WHERE size(l) > 2 RETURN l AS long }
      RETURN long
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [24] A query cannot end with a subquery that returns rows
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) { RETURN s.name AS name }
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [25] A subquery that neither returns nor writes is refused
    When executing query:
      """
      UNWIND [1] AS x
      CALL { MATCH (n) }
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [26] The returned columns of UNION parts must agree
    When executing query:
      """
      CALL { RETURN 1 AS a UNION RETURN 2 AS b }
      RETURN a
      """
    Then a SyntaxError should be raised at compile time: DifferentColumnsInUnion

  Scenario: [27] A WITH that names no outer variable does not import and is allowed
    When executing query:
      """
      WITH 7 AS x
      CALL { WITH 3 AS y RETURN y * 2 AS z }
      RETURN x, z
      """
    Then the result should be, in any order:
      | x | z |
      | 7 | 6 |
    And no side effects

  Scenario: [28] Importing WITH * brings every outer variable
    When executing query:
      """
      WITH 4 AS a, 'q' AS b
      CALL { WITH * RETURN a + 1 AS c, b + 'r' AS d }
      RETURN c, d
      """
    Then the result should be, in any order:
      | c | d    |
      | 5 | 'qr' |
    And no side effects

  Scenario: [29] The incoming rows keep their order through a subquery
    When executing query:
      """
      MATCH (c:Clerk)
      WITH c ORDER BY c.years DESC
      CALL (c) { RETURN c.years * 2 AS twice }
      RETURN c.name AS name, twice
      """
    Then the result should be, in order:
      | name  | twice |
      | 'Ben' | 18    |
      | 'Dee' | 10    |
      | 'Ada' | 6     |
      | 'Cy'  | 2     |
    And no side effects

  Scenario: [30] A subquery inside an EXISTS body may not write
    When executing query:
      """
      MATCH (s:Shop)
      WHERE EXISTS { MATCH (s)-->(t) CALL (t) { SET t.seen = true } }
      RETURN s.name AS name
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [31] Relationships and their properties flow back out of the subquery
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) {
        MATCH (s)-[r:SUPPLIES]->()
        RETURN sum(r.crates) AS crates
      }
      RETURN s.name AS shop, crates
      """
    Then the result should be, in any order:
      | shop     | crates |
      | 'Kiosk'  | 10     |
      | 'Market' | 2      |
      | 'Depot'  | 0      |
    And no side effects

  Scenario: [32] Variables of the scope clause stay visible past a WITH inside, aggregation included
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) {
        MATCH (c:Clerk)-[:WORKS_AT]->(s)
        WITH count(c) AS staff
        RETURN s.name + ': ' + toString(staff) AS line
      }
      RETURN line
      """
    Then the result should be, in any order:
      | line        |
      | 'Kiosk: 2'  |
      | 'Market: 1' |
      | 'Depot: 0'  |
    And no side effects

  Scenario: [33] An EXISTS body may hold a CALL subquery that only reads
    When executing query:
      """
      MATCH (c:Clerk)
      WHERE EXISTS {
        MATCH (c)-[:WORKS_AT]->(s)
        CALL (s) { MATCH (s)-[:SUPPLIES]->(t) RETURN t }
        RETURN t
      }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Ada' |
      | 'Ben' |
      | 'Cy'  |
    And no side effects

  Scenario: [34] A subquery that writes is planned with barriers: later reads see every run's writes
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CALL (i) { CREATE (:Mark {i: i}) }
      MATCH (m:Mark)
      RETURN i, count(m) AS marks
      """
    Then the result should be, in any order:
      | i | marks |
      | 1 | 3     |
      | 2 | 3     |
      | 3 | 3     |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [35] IN TRANSACTIONS runs the subquery in batches (CallInTransactions.feature has the rest)
    When executing query:
      """
      UNWIND range(1, 10) AS i
      CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 5 ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 10 |
      | +labels     | 1  |
      | +properties | 10 |

  Scenario: [36] The batch size of IN TRANSACTIONS is a positive integer
    When executing query:
      """
      UNWIND range(1, 10) AS i
      CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 0 ROWS
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [37] A unit subquery over no rows writes nothing and the query returns no rows
    When executing query:
      """
      MATCH (c:Clerk {name: 'Nobody'})
      CALL (c) { SET c.flag = true }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name |
    And no side effects

  Scenario: [38] ORDER BY and LIMIT inside apply to each run: the most senior clerk per shop
    When executing query:
      """
      MATCH (s:Shop)
      CALL (s) {
        MATCH (c:Clerk)-[:WORKS_AT]->(s)
        RETURN c.name AS senior ORDER BY c.years DESC LIMIT 1
      }
      RETURN s.name AS shop, senior
      """
    Then the result should be, in any order:
      | shop     | senior |
      | 'Kiosk'  | 'Ben'  |
      | 'Market' | 'Cy'   |
    And no side effects

  Scenario: [39] DISTINCT inside applies to each run
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL (x) { UNWIND [x, x, x + 10] AS y RETURN DISTINCT y }
      RETURN x, collect(y) AS ys
      """
    Then the result should be (ignoring element order for lists):
      | x | ys      |
      | 1 | [1, 11] |
      | 2 | [2, 12] |
    And no side effects

  Scenario: [40] A subquery without imports runs once per row and may return nodes
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL { MATCH (s:Shop {name: 'Depot'}) RETURN s }
      RETURN x, s.name AS name
      """
    Then the result should be, in any order:
      | x | name    |
      | 1 | 'Depot' |
      | 2 | 'Depot' |
    And no side effects

  Scenario: [41] A subquery creating nodes of the label the outer MATCH scans does not feed the scan
    When executing query:
      """
      MATCH (c:Clerk)
      CALL (c) { CREATE (:Clerk {name: c.name + ' II'}) }
      RETURN count(*) AS clerks
      """
    Then the result should be, in any order:
      | clerks |
      | 4      |
    And the side effects should be:
      | +nodes      | 4 |
      | +properties | 4 |
