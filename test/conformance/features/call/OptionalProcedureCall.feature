# Sources: Neo4j Cypher manual 5, clauses/call (optional procedure calls, Neo4j 5.24: a row for which
# the procedure yields nothing continues once, its yielded variables null, as with OPTIONAL MATCH).
Feature: OptionalProcedureCall - OPTIONAL CALL of a procedure keeps the rows it finds nothing for

  Background:
    Given an empty graph
    And there exists a procedure test.tide.levels(port :: STRING?) :: (hour :: INTEGER?, metres :: FLOAT?):
      | port    | hour | metres |
      | 'Brest' | 6    | 7.1    |
      | 'Brest' | 12   | 1.4    |
      | 'Cadiz' | 3    | 2.2    |

  Scenario: [1] A row the procedure yields nothing for continues with the outputs null
    When executing query:
      """
      UNWIND ['Brest', 'Oslo', 'Cadiz'] AS port
      OPTIONAL CALL test.tide.levels(port) YIELD hour
      RETURN port, hour ORDER BY port, hour
      """
    Then the result should be, in order:
      | port    | hour |
      | 'Brest' | 6    |
      | 'Brest' | 12   |
      | 'Cadiz' | 3    |
      | 'Oslo'  | null |
    And no side effects

  Scenario: [2] A WHERE on the yielded outputs belongs to the optional part
    When executing query:
      """
      UNWIND ['Brest', 'Cadiz'] AS port
      OPTIONAL CALL test.tide.levels(port) YIELD hour, metres WHERE metres > 5.0
      RETURN port, hour, metres ORDER BY port
      """
    Then the result should be, in order:
      | port    | hour | metres |
      | 'Brest' | 6    | 7.1    |
      | 'Cadiz' | null | null   |
    And no side effects

  Scenario: [3] Without OPTIONAL the same call drops the row
    When executing query:
      """
      UNWIND ['Brest', 'Oslo'] AS port
      CALL test.tide.levels(port) YIELD hour
      RETURN port, count(hour) AS n
      """
    Then the result should be, in any order:
      | port    | n |
      | 'Brest' | 2 |
    And no side effects

  Scenario: [4] OPTIONAL CALL of a schema procedure over an empty graph
    When executing query:
      """
      OPTIONAL CALL db.labels() YIELD label
      RETURN label
      """
    Then the result should be, in any order:
      | label |
      | null  |
    And no side effects

  Scenario: [5] Null outputs of an optional call are skipped by aggregates
    When executing query:
      """
      UNWIND ['Brest', 'Oslo', 'Lima'] AS port
      OPTIONAL CALL test.tide.levels(port) YIELD metres
      RETURN count(*) AS rows, count(metres) AS readings, max(metres) AS highest
      """
    Then the result should be, in any order:
      | rows | readings | highest |
      | 4    | 2        | 7.1     |
    And no side effects

  Scenario: [6] An optional call checks its arguments as a plain call does
    When executing query:
      """
      UNWIND ['Brest'] AS port
      OPTIONAL CALL test.tide.levels(port, 1) YIELD hour
      RETURN hour
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberOfArguments
