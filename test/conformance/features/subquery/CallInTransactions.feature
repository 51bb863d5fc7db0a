# Written from the Neo4j 5 Cypher Manual, "CALL subqueries in transactions" (subqueries/subqueries-in-transactions):
# batches of OF n ROWS (1000 by default), deleting in batches, returning subqueries, ON ERROR CONTINUE / BREAK / FAIL,
# REPORT STATUS AS s and its four keys, IN n CONCURRENT TRANSACTIONS, and the errors the page names. That committed
# batches stay after a later one fails, and that each batch is a log entry of its own, is in
# test/query/in-transactions.test.ts (a scenario here cannot look at the graph after an error).
Feature: CallInTransactions - CALL { ... } IN TRANSACTIONS commits the subquery in batches

  Scenario: [1] A unit subquery creates a node per row, in batches of two rows
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 5) AS i
      CALL (i) {
        CREATE (:Person {num: i})
      } IN TRANSACTIONS OF 2 ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 5 |
      | +labels     | 1 |
      | +properties | 5 |

  Scenario: [2] DETACH DELETE of every node in batches
    Given an empty graph
    And having executed:
      """
      CREATE (a:A)-[:T]->(b:B), (b)-[:T]->(:C), (:D)
      """
    When executing query:
      """
      MATCH (n)
      CALL (n) {
        DETACH DELETE n
      } IN TRANSACTIONS
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 4 |
      | -relationships | 2 |
      | -labels        | 4 |

  Scenario: [3] Filtering before the subquery deletes only the rows that reach it
    Given an empty graph
    And having executed:
      """
      UNWIND range(1, 6) AS i CREATE (:Item {i: i})
      """
    When executing query:
      """
      MATCH (n:Item) WHERE n.i > 4
      CALL (n) {
        DELETE n
      } IN TRANSACTIONS OF 1 ROW
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes      | 2 |
      | -properties | 2 |

  Scenario: [4] A returning subquery passes on what each batch returned
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CALL (i) {
        UNWIND [10, 20] AS j
        CREATE (n:Pair {i: i, j: j})
        RETURN n
      } IN TRANSACTIONS OF 2 ROWS
      RETURN n.i AS i, n.j AS j
      """
    Then the result should be, in any order:
      | i | j  |
      | 1 | 10 |
      | 1 | 20 |
      | 2 | 10 |
      | 2 | 20 |
      | 3 | 10 |
      | 3 | 20 |
    And the side effects should be:
      | +nodes      | 6  |
      | +labels     | 1  |
      | +properties | 12 |

  Scenario: [5] A later batch sees what an earlier batch wrote
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 5) AS i
      CALL (i) {
        MERGE (c:Counter)
          ON CREATE SET c.n = 1
          ON MATCH SET c.n = c.n + 1
        RETURN c.n AS seen
      } IN TRANSACTIONS OF 2 ROWS
      RETURN i, seen
      """
    Then the result should be, in order:
      | i | seen |
      | 1 | 1    |
      | 2 | 2    |
      | 3 | 3    |
      | 4 | 4    |
      | 5 | 5    |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [6] ON ERROR CONTINUE rolls back the failed batch and goes on; its rows continue with nulls
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR CONTINUE
      RETURN n.num AS num
      """
    Then the result should be, in order:
      | num  |
      | 100  |
      | null |
      | 50   |
      | 25   |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [7] ON ERROR BREAK rolls back the failed batch and runs no later one
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR BREAK
      RETURN n.num AS num
      """
    Then the result should be, in order:
      | num  |
      | 100  |
      | null |
      | null |
      | null |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [8] ON ERROR FAIL, the default, fails the statement with the batch's error
    Given an empty graph
    When executing query:
      """
      UNWIND [0, 1, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR FAIL
      RETURN n.num AS num
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero

  Scenario: [9] REPORT STATUS with ON ERROR CONTINUE tells each row how its batch went
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR CONTINUE
        REPORT STATUS AS s
      RETURN n.num AS num, s.started AS started, s.committed AS committed,
             s.transactionId IS NOT NULL AS named, s.errorMessage IS NOT NULL AS failed
      """
    Then the result should be, in order:
      | num  | started | committed | named | failed |
      | 100  | true    | true      | true  | false  |
      | null | true    | false     | true  | true   |
      | 50   | true    | true      | true  | false  |
      | 25   | true    | true      | true  | false  |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [10] REPORT STATUS with ON ERROR BREAK: the batches after the failed one never started
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR BREAK
        REPORT STATUS AS s
      RETURN n.num AS num, s.started AS started, s.committed AS committed,
             s.transactionId IS NULL AS unnamed, s.errorMessage IS NULL AS clean
      """
    Then the result should be, in order:
      | num  | started | committed | unnamed | clean |
      | 100  | true    | true      | false   | true  |
      | null | true    | false     | false   | false |
      | null | false   | false     | true    | true  |
      | null | false   | false     | true    | true  |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [11] REPORT STATUS may come before ON ERROR, and a unit subquery reports too
    Given an empty graph
    When executing query:
      """
      UNWIND [2, 0, 5] AS i
      CALL (i) {
        CREATE (:Ratio {r: 10 / i})
      } IN TRANSACTIONS OF 1 ROW REPORT STATUS AS status ON ERROR CONTINUE
      RETURN i, status.committed AS committed
      """
    Then the result should be, in order:
      | i | committed |
      | 2 | true      |
      | 0 | false     |
      | 5 | true      |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [12] A batch of several rows fails and is rolled back whole
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2, 0, 4, 5, 6] AS i
      CALL (i) {
        CREATE (:Row {v: 60 / i})
      } IN TRANSACTIONS OF 3 ROWS ON ERROR CONTINUE REPORT STATUS AS s
      RETURN i, s.committed AS committed
      """
    Then the result should be, in order:
      | i | committed |
      | 1 | false     |
      | 2 | false     |
      | 0 | false     |
      | 4 | true      |
      | 5 | true      |
      | 6 | true      |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [13] REPORT STATUS needs ON ERROR CONTINUE or BREAK
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      CALL (i) {
        CREATE (:Row {i: i})
      } IN TRANSACTIONS OF 1 ROW REPORT STATUS AS s
      RETURN s
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [14] The status variable must be new
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      CALL (i) {
        CREATE (:Row {i: i})
      } IN TRANSACTIONS ON ERROR CONTINUE REPORT STATUS AS i
      RETURN i
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [15] IN TRANSACTIONS cannot be nested in another subquery
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      CALL (i) {
        CALL (i) {
          CREATE (:Row {i: i})
        } IN TRANSACTIONS
      } IN TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [16] The batch size may be a parameter
    Given an empty graph
    And parameters are:
      | size | 2 |
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) {
        CREATE (:Row {i: i})
      } IN TRANSACTIONS OF $size ROWS
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 3    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [17] A batch size parameter that is not a positive INTEGER fails at run time
    Given an empty graph
    And parameters are:
      | size | 0 |
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) {
        CREATE (:Row {i: i})
      } IN TRANSACTIONS OF $size ROWS
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [18] IN n CONCURRENT TRANSACTIONS gives the same result as batches one after another
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 6) AS i
      CALL (i) {
        CREATE (p:Person {num: i})
        RETURN p.num AS num
      } IN 3 CONCURRENT TRANSACTIONS OF 2 ROWS
      RETURN sum(num) AS total
      """
    Then the result should be, in any order:
      | total |
      | 21    |
    And the side effects should be:
      | +nodes      | 6 |
      | +labels     | 1 |
      | +properties | 6 |

  Scenario: [19] An importing WITH works as in any CALL subquery
    Given an empty graph
    When executing query:
      """
      UNWIND ['a', 'b'] AS name
      CALL {
        WITH name
        CREATE (:Tag {name: name})
      } IN TRANSACTIONS OF 1 ROW
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [20] A subquery that only reads may run in transactions too
    Given an empty graph
    And having executed:
      """
      UNWIND range(1, 4) AS i CREATE (:N {i: i})
      """
    When executing query:
      """
      UNWIND [1, 3] AS k
      CALL (k) {
        MATCH (n:N) WHERE n.i >= k
        RETURN count(n) AS atLeast
      } IN TRANSACTIONS OF 1 ROW
      RETURN k, atLeast
      """
    Then the result should be, in order:
      | k | atLeast |
      | 1 | 4       |
      | 3 | 2       |
    And no side effects
