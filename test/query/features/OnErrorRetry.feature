# Written from the Neo4j Cypher Manual, "CALL subqueries in transactions" (subqueries/subqueries-in-transactions),
# section "ON ERROR RETRY" (Neo4j 2025.03): RETRY [[FOR] d SEC[OND[S]]] [THEN CONTINUE | BREAK | FAIL], THEN CONTINUE
# the default, a duration that is an INTEGER or FLOAT of at least 0 and may be a parameter, the parameters of
# IN TRANSACTIONS in any order and each at most once. A division by zero is not transient: it is never retried
# and goes to the THEN mode at once. Retrying transient failures (a write conflict) is in
# test/server/in-transactions-retry.test.ts, where the conflict can be made to happen.
Feature: OnErrorRetry - ON ERROR RETRY and its fallback modes

  Scenario: [1] ON ERROR RETRY alone falls back to CONTINUE for an error that is not transient
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR RETRY
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

  Scenario: [2] RETRY FOR a duration THEN BREAK runs no batch after the failed one
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 0, 2, 4] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
        RETURN n
      } IN TRANSACTIONS
        OF 1 ROW
        ON ERROR RETRY FOR 1 SECOND THEN BREAK
        REPORT STATUS AS s
      RETURN n.num AS num, s.started AS started, s.committed AS committed, s.errorMessage AS error
      """
    Then the result should be, in order:
      | num  | started | committed | error       |
      | 100  | true    | true      | null        |
      | null | true    | false     | '/ by zero' |
      | null | false   | false     | null        |
      | null | false   | false     | null        |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [3] RETRY THEN FAIL fails the statement with the batch's error
    Given an empty graph
    When executing query:
      """
      UNWIND [0, 1, 2] AS i
      CALL (i) {
        CREATE (n:Person {num: 100/i})
      } IN TRANSACTIONS OF 1 ROW ON ERROR RETRY FOR 2.5 SECONDS THEN FAIL
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero

  Scenario: [4] Every spelling of the duration and of its unit
    Given an empty graph
    And parameters are:
      | duration | 10 |
    When executing query:
      """
      UNWIND [1, 2] AS i
      CALL (i) { CREATE (:A {i: i}) } IN TRANSACTIONS ON ERROR RETRY 1 SEC
      CALL (i) { CREATE (:B {i: i}) } IN TRANSACTIONS ON ERROR RETRY FOR 0.5 SECOND THEN CONTINUE
      CALL (i) { CREATE (:C {i: i}) } IN TRANSACTIONS ON ERROR RETRY FOR $duration SECONDS
      CALL (i) { CREATE (:D {i: i}) } IN TRANSACTIONS ON ERROR RETRY FOR 0 SECONDS THEN FAIL
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 2    |
    And the side effects should be:
      | +nodes      | 8 |
      | +labels     | 4 |
      | +properties | 8 |

  Scenario: [5] The parameters of IN TRANSACTIONS in any order, with CONCURRENT
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 5) AS i
      CALL (i) {
        CREATE (p:Item {i: i})
        RETURN p.i AS got
      } IN 2 CONCURRENT TRANSACTIONS REPORT STATUS AS s ON ERROR RETRY THEN CONTINUE OF 2 ROWS
      RETURN got, s.committed AS committed
      """
    Then the result should be, in order:
      | got | committed |
      | 1   | true      |
      | 2   | true      |
      | 3   | true      |
      | 4   | true      |
      | 5   | true      |
    And the side effects should be:
      | +nodes      | 5 |
      | +labels     | 1 |
      | +properties | 5 |

  Scenario: [6] REPORT STATUS is refused with RETRY THEN FAIL
    Given any graph
    When executing query:
      """
      UNWIND [1] AS i
      CALL (i) { CREATE (:A) } IN TRANSACTIONS ON ERROR RETRY THEN FAIL REPORT STATUS AS s
      RETURN s
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [7] RETRY followed by another mode is a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY CONTINUE
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [8] THEN RETRY is a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY THEN RETRY
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [9] FOR without a duration is a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY FOR THEN FAIL
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [10] A duration in another unit is a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY FOR 1 MINUTE
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [11] Two modes after ON ERROR are a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR BREAK CONTINUE
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [12] ON ERROR given twice is refused
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR BREAK REPORT STATUS AS status ON ERROR CONTINUE
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [13] REPORT STATUS given twice is refused
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS REPORT STATUS AS status REPORT STATUS AS other
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [14] OF ROWS given twice is refused
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS OF 5 ROWS ON ERROR BREAK REPORT STATUS AS status OF 42 ROWS
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [15] A negative duration is refused before running
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY FOR -1 SECONDS
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [16] A duration that is not a number is refused before running
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY FOR 'long' SECONDS
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [17] A duration parameter that is negative fails at run time
    Given an empty graph
    And parameters are:
      | duration | -2 |
    When executing query:
      """
      UNWIND [1] AS i
      CALL (i) { CREATE (:A) } IN TRANSACTIONS ON ERROR RETRY FOR $duration SECONDS
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [18] A mode after THEN other than CONTINUE, BREAK or FAIL is a syntax error
    Given any graph
    When executing query:
      """
      CALL () { CREATE (n) } IN TRANSACTIONS ON ERROR RETRY FOR 1 SECOND THEN STOP
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax
