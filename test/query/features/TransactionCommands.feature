# Written from the Neo4j 5 Cypher Manual, "Transaction commands" (clauses/transaction-clauses): SHOW
# TRANSACTION[S] with and without ids, its default columns, YIELD with WHERE and RETURN, TERMINATE
# TRANSACTION[S] with its columns and messages, and the commands' syntax errors. A statement is listed
# while it runs, so SHOW TRANSACTIONS lists itself; statements running beside it, an open interactive
# transaction and a terminated one are tested in test/server/transaction-commands.test.ts. Weft's ids and
# the columns it fills are in docs/cypher.md section 3.6.
Feature: TransactionCommands - SHOW TRANSACTIONS and TERMINATE TRANSACTIONS

  Scenario: [1] SHOW TRANSACTIONS lists the manual's default columns, the running statement among them
    Given an empty graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD *
      RETURN database, transactionId STARTS WITH 'weft-transaction-' AS named, currentQueryId STARTS WITH 'query-' AS queried,
             connectionId, clientAddress, username, currentQuery, status, elapsedTime IS :: DURATION AS elapsed,
             startTime = currentQueryStartTime AS started, activeLockCount, outerTransactionId, metaData
      """
    Then the result should be, in any order:
      | database | named | queried | connectionId | clientAddress | username | currentQuery | status | elapsed | started | activeLockCount | outerTransactionId | metaData |
      | 'weft' | true | true | '' | '' | '' | 'SHOW TRANSACTIONS YIELD *\nRETURN database, transactionId STARTS WITH \'weft-transaction-\' AS named, currentQueryId STARTS WITH \'query-\' AS queried,\n       connectionId, clientAddress, username, currentQuery, status, elapsedTime IS :: DURATION AS elapsed,\n       startTime = currentQueryStartTime AS started, activeLockCount, outerTransactionId, metaData' | 'Running' | true | true | 0 | '' | {} |
    And no side effects

  Scenario: [2] Without YIELD, SHOW TRANSACTIONS returns the ten default columns and a WHERE may test any column
    Given an empty graph
    When executing query:
      """
      SHOW TRANSACTIONS WHERE status = 'Running' AND parameters = {p: 1}
      """
    Then the result should be, in any order:
      | database | transactionId | currentQueryId | connectionId | clientAddress | username | currentQuery | startTime | status | elapsedTime |
    And no side effects

  Scenario: [3] SHOW TRANSACTION with an id that names nothing lists nothing
    Given an empty graph
    When executing query:
      """
      SHOW TRANSACTION 'weft-transaction-0', 'neo4j-transaction-1' YIELD transactionId RETURN count(*) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  Scenario: [4] The parameters of the running statement
    Given an empty graph
    And parameters are:
      | limit | 3 |
    When executing query:
      """
      SHOW TRANSACTIONS YIELD parameters, currentQueryStatus, idleTime RETURN parameters, currentQueryStatus, idleTime = duration('PT0S') AS busy
      """
    Then the result should be, in any order:
      | parameters | currentQueryStatus | busy |
      | {limit: 3} | 'running'          | true |
    And no side effects

  Scenario: [5] Ids given as a list parameter select the transactions named
    Given an empty graph
    And parameters are:
      | ids | ['weft-transaction-0'] |
    When executing query:
      """
      SHOW TRANSACTIONS $ids
      """
    Then the result should be, in any order:
      | database | transactionId | currentQueryId | connectionId | clientAddress | username | currentQuery | startTime | status | elapsedTime |
    And no side effects

  Scenario: [6] TERMINATE TRANSACTIONS answers each id once, with the manual's message
    Given an empty graph
    When executing query:
      """
      TERMINATE TRANSACTIONS 'weft-transaction-0', 'weft-transaction-0', 'other-transaction-7'
      """
    Then the result should be, in order:
      | transactionId         | username | message                 |
      | 'weft-transaction-0'  | ''       | 'Transaction not found.' |
      | 'other-transaction-7' | ''       | 'Transaction not found.' |
    And no side effects

  Scenario: [7] TERMINATE TRANSACTION with YIELD, WHERE and RETURN
    Given an empty graph
    When executing query:
      """
      TERMINATE TRANSACTION ['weft-transaction-0', 'weft-transaction-00'] YIELD transactionId AS id, message
      WHERE message <> 'Transaction terminated.'
      RETURN collect(id) AS ids
      """
    Then the result should be, in any order:
      | ids                                            |
      | ['weft-transaction-0', 'weft-transaction-00'] |
    And no side effects

  Scenario: [8] TERMINATE TRANSACTIONS needs ids
    Given any graph
    When executing query:
      """
      TERMINATE TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [9] TERMINATE TRANSACTIONS takes WHERE only after YIELD
    Given any graph
    When executing query:
      """
      TERMINATE TRANSACTIONS 'weft-transaction-1' WHERE message = ''
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [10] The transaction commands are not combined with other clauses
    Given any graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD transactionId MATCH (n) RETURN n
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [11] A transaction command does not follow another clause
    Given any graph
    When executing query:
      """
      MATCH (n) TERMINATE TRANSACTIONS 'weft-transaction-1'
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [12] A kind word before TRANSACTIONS
    Given any graph
    When executing query:
      """
      SHOW ALL TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [13] TERMINATE of something other than transactions
    Given any graph
    When executing query:
      """
      TERMINATE INDEXES 'a'
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [14] An id that is not a STRING
    Given any graph
    When executing query:
      """
      TERMINATE TRANSACTIONS [1, 2]
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [15] An id parameter that is not a STRING
    Given any graph
    And parameters are:
      | id | 12 |
    When executing query:
      """
      SHOW TRANSACTIONS $id
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [16] terminate stays a name
    Given an empty graph
    When executing query:
      """
      WITH 1 AS terminate RETURN terminate
      """
    Then the result should be, in any order:
      | terminate |
      | 1         |
    And no side effects

  Scenario: [17] A transaction command after another's YIELD keeps the columns yielded before
    Given an empty graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD transactionId AS t, currentQuery AS q
      TERMINATE TRANSACTIONS 'weft-transaction-0', t + '-other' YIELD transactionId AS asked, message
      RETURN q STARTS WITH 'SHOW TRANSACTIONS' AS self, asked = t + '-other' AS other, message
      """
    Then the result should be, in any order:
      | self | other | message                  |
      | true | false | 'Transaction not found.' |
      | true | true  | 'Transaction not found.' |
    And no side effects

  Scenario: [18] A chained TERMINATE needs ids
    Given any graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD transactionId AS t TERMINATE TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [19] Only transaction commands chain
    Given any graph
    When executing query:
      """
      SHOW INDEXES YIELD name SHOW TRANSACTIONS
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [20] A chained command after a RETURN
    Given any graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD transactionId AS t RETURN t TERMINATE TRANSACTIONS t
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [21] A column yielded twice under one name
    Given any graph
    When executing query:
      """
      SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound
