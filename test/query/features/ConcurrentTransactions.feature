# Written from the Neo4j 5 Cypher Manual, "CALL subqueries in transactions", section "Concurrent transactions":
# IN [n] CONCURRENT TRANSACTIONS, n optional (a default chosen by the implementation), a negative n from a
# parameter meaning the default less |n|. Weft keeps the batches' order in the results (docs/cypher.md 2.1);
# that batches overlap in the log is in test/server/in-transactions-concurrent.test.ts.
Feature: ConcurrentTransactions - IN [n] CONCURRENT TRANSACTIONS

  Scenario: [1] Without n, the default concurrency; the results keep the order of the batches
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 7) AS i
      CALL (i) {
        CREATE (p:Person {num: i})
        RETURN p.num * 10 AS num
      } IN CONCURRENT TRANSACTIONS OF 2 ROWS
      RETURN i, num
      """
    Then the result should be, in order:
      | i | num |
      | 1 | 10  |
      | 2 | 20  |
      | 3 | 30  |
      | 4 | 40  |
      | 5 | 50  |
      | 6 | 60  |
      | 7 | 70  |
    And the side effects should be:
      | +nodes      | 7 |
      | +labels     | 1 |
      | +properties | 7 |

  Scenario: [2] A negative concurrency from a parameter is the default less its size, at least one
    Given an empty graph
    And parameters are:
      | n | -10 |
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) { CREATE (:Row {i: i}) } IN $n CONCURRENT TRANSACTIONS OF 1 ROW
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 3    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [3] A concurrency parameter of 0 fails at run time
    Given an empty graph
    And parameters are:
      | n | 0 |
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) { CREATE (:Row {i: i}) } IN $n CONCURRENT TRANSACTIONS
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [4] A concurrency literal that is not a positive INTEGER is refused before running
    Given any graph
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) { CREATE (:Row {i: i}) } IN 0 CONCURRENT TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [5] ON ERROR CONTINUE with concurrent batches reports each batch in order
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN 2 CONCURRENT TRANSACTIONS OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s
      RETURN n.num AS num, s.committed AS committed
      """
    Then the result should be, in order:
      | num  | committed |
      | 100  | true      |
      | null | false     |
      | 50   | true      |
      | 25   | true      |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |
