# Written from the Neo4j 5 Cypher Manual: "ORDER BY", "SKIP" and "LIMIT" (standalone use, new in 5.24), and
# "CREATE" / "MERGE" (labels joined by `&`, new in 5.18).
Feature: StandaloneOrderSkipLimit - ORDER BY, SKIP and LIMIT as clauses, and `&` between labels in CREATE and MERGE

  Background:
    Given an empty graph
    And having executed:
      """
      UNWIND [5, 3, 9, 1, 7] AS v
      CREATE (:Reading {v: v})
      """

  Scenario: [1] ORDER BY on its own sorts the rows for the clauses after it
    When executing query:
      """
      MATCH (r:Reading)
      ORDER BY r.v DESC
      RETURN collect(r.v) AS values
      """
    Then the result should be, in any order:
      | values          |
      | [9, 7, 5, 3, 1] |
    And no side effects

  Scenario: [2] ORDER BY with LIMIT keeps the first rows
    When executing query:
      """
      MATCH (r:Reading)
      ORDER BY r.v
      LIMIT 2
      RETURN r.v AS v
      """
    Then the result should be, in order:
      | v |
      | 1 |
      | 3 |
    And no side effects

  Scenario: [3] ORDER BY, SKIP and LIMIT together
    When executing query:
      """
      MATCH (r:Reading)
      ORDER BY r.v
      SKIP 1
      LIMIT 3
      RETURN r.v AS v
      """
    Then the result should be, in order:
      | v |
      | 3 |
      | 5 |
      | 7 |
    And no side effects

  Scenario: [4] OFFSET on its own, then LIMIT on its own
    When executing query:
      """
      UNWIND range(1, 10) AS i
      OFFSET 7
      RETURN i
      """
    Then the result should be, in order:
      | i  |
      | 8  |
      | 9  |
      | 10 |
    And no side effects

  Scenario: [5] LIMIT on its own before an update limits what is updated
    When executing query:
      """
      MATCH (r:Reading)
      ORDER BY r.v DESC
      LIMIT 1
      SET r.top = true
      RETURN r.v AS v
      """
    Then the result should be, in any order:
      | v |
      | 9 |
    And the side effects should be:
      | +properties | 1 |

  Scenario: [6] Every variable passes through a standalone ORDER BY
    When executing query:
      """
      UNWIND [2, 1] AS a
      WITH a, a * 10 AS b
      ORDER BY a
      RETURN a, b
      """
    Then the result should be, in order:
      | a | b  |
      | 1 | 10 |
      | 2 | 20 |
    And no side effects

  Scenario: [7] A standalone LIMIT takes what a projection's LIMIT takes
    When executing query:
      """
      MATCH (r:Reading)
      LIMIT -1
      RETURN r
      """
    Then a SyntaxError should be raised at compile time: NegativeIntegerArgument

  Scenario: [8] Labels joined by & in CREATE
    When executing query:
      """
      CREATE (n:Sensor&Outdoor {id: 1})
      RETURN labels(n) AS labels
      """
    Then the result should be, in any order:
      | labels                |
      | ['Sensor', 'Outdoor'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 2 |
      | +properties | 1 |

  Scenario: [9] Labels joined by & in MERGE find the node the second time
    When executing query:
      """
      MERGE (a:Sensor&Indoor {id: 2})
      MERGE (b:Sensor&Indoor {id: 2})
      RETURN a = b AS same
      """
    Then the result should be, in any order:
      | same |
      | true |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 2 |
      | +properties | 1 |

  Scenario: [10] A disjunction of labels cannot be created
    When executing query:
      """
      CREATE (n:Sensor|Outdoor)
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax
