Feature: ExistsSubquery - EXISTS { ... } with a pattern, a full query with or without RETURN, and UNION

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (oslo:City {name: 'Oslo'})-[:ROAD {km: 520}]->(bergen:City {name: 'Bergen'}),
             (bergen)-[:ROAD {km: 430}]->(ålesund:City {name: 'Alesund'}),
             (oslo)-[:FERRY]->(kiel:City {name: 'Kiel'}),
             (:City {name: 'Tromso'})
      """

  Scenario: [1] A pattern body with a WHERE on a new variable
    When executing query:
      """
      MATCH (c:City)
      WHERE EXISTS { (c)-[r:ROAD]->() WHERE r.km > 500 }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | 'Oslo' |
    And no side effects

  Scenario: [2] A MATCH body without RETURN is true when it finds a row
    When executing query:
      """
      MATCH (c:City)
      RETURN c.name AS name, EXISTS { MATCH (c)-[:ROAD]->(d) WHERE d.name STARTS WITH 'A' } AS toA
      """
    Then the result should be, in any order:
      | name      | toA   |
      | 'Oslo'    | false |
      | 'Bergen'  | true  |
      | 'Alesund' | false |
      | 'Kiel'    | false |
      | 'Tromso'  | false |
    And no side effects

  Scenario: [3] A body that continues with WITH and filters again
    When executing query:
      """
      MATCH (c:City)
      WHERE EXISTS { MATCH (c)-[r]->(d) WITH r, d WHERE type(r) = 'FERRY' }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | 'Oslo' |
    And no side effects

  Scenario: [4] A body with RETURN and UNION is true when any part has a row
    When executing query:
      """
      MATCH (c:City)
      RETURN c.name AS name,
             EXISTS { MATCH (c)-[:FERRY]->(x) RETURN x AS y UNION MATCH (c)<-[:ROAD]-(x) RETURN x AS y } AS linked
      """
    Then the result should be, in any order:
      | name      | linked |
      | 'Oslo'    | true   |
      | 'Bergen'  | true   |
      | 'Alesund' | true   |
      | 'Kiel'    | false  |
      | 'Tromso'  | false  |
    And no side effects

  Scenario: [5] NOT EXISTS finds the isolated ones
    When executing query:
      """
      MATCH (c:City)
      WHERE NOT EXISTS { MATCH (c)--() }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name     |
      | 'Tromso' |
    And no side effects

  Scenario: [6] A body without a reference to the outer row
    When executing query:
      """
      RETURN EXISTS { MATCH (c:City) WHERE c.name = 'Paris' } AS paris, EXISTS { MATCH (c:City {name: 'Kiel'}) } AS kiel
      """
    Then the result should be, in any order:
      | paris | kiel |
      | false | true |
    And no side effects

  Scenario: [7] A body may not write
    When executing query:
      """
      MATCH (c:City)
      RETURN EXISTS { MATCH (c)-->(d) SET d.seen = true } AS e
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition
