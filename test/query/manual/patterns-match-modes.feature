# Written from the Cypher Manual's Patterns chapter, "Match modes", on its Seven bridges of Königsberg
# graph: the default mode, where a match never uses a relationship twice (Neo4j 5's only mode). The
# keywords DIFFERENT RELATIONSHIPS and REPEATABLE ELEMENTS are Cypher 25 (Neo4j 2025.06), not Neo4j 5,
# and Weft refuses them (docs/cypher.md, 2.5).
Feature: Manual - patterns: match modes

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (kneiphof:Location {name: 'Kneiphof'}),
             (northBank:Location {name: 'North Bank'}),
             (southBank:Location {name: 'South Bank'}),
             (lomse:Location {name: 'Lomse'}),
             (kneiphof)-[:BRIDGE {id: 1}]->(northBank),
             (kneiphof)-[:BRIDGE {id: 6}]->(southBank),
             (kneiphof)-[:BRIDGE {id: 7}]->(lomse),
             (northBank)-[:BRIDGE {id: 5}]->(kneiphof),
             (northBank)-[:BRIDGE {id: 2}]->(lomse),
             (southBank)-[:BRIDGE {id: 4}]->(kneiphof),
             (southBank)-[:BRIDGE {id: 3}]->(lomse)
      """

  Scenario: [1] Paths of five directed bridges revisit nodes but never a bridge
    When executing query:
      """
      MATCH p = (:Location {name: 'Kneiphof'})-[:BRIDGE]->{5}()
      RETURN [n IN nodes(p) | n.name] AS locations,
             [r IN relationships(p) | r.id] AS crossedBridges
      """
    Then the result should be, in any order:
      | locations                                                                       | crossedBridges  |
      | ['Kneiphof', 'North Bank', 'Kneiphof', 'South Bank', 'Kneiphof', 'Lomse']       | [1, 5, 6, 4, 7] |
      | ['Kneiphof', 'South Bank', 'Kneiphof', 'North Bank', 'Kneiphof', 'Lomse']       | [6, 4, 1, 5, 7] |
    And no side effects

  Scenario: [2] There are 48 paths of six bridges in either direction
    When executing query:
      """
      MATCH p = (:Location {name: 'Kneiphof'})-[:BRIDGE]-{6}()
      RETURN count(p) AS pathCount
      """
    Then the result should be, in any order:
      | pathCount |
      | 48        |
    And no side effects

  Scenario: [3] No path crosses all seven bridges
    When executing query:
      """
      MATCH p = (:Location {name: 'Kneiphof'})--{7}()
      RETURN count(p) AS pathCount
      """
    Then the result should be, in any order:
      | pathCount |
      | 0         |
    And no side effects

  Scenario Outline: [4] The Cypher 25 match mode keywords are refused: <mode>
    When executing query:
      """
      MATCH <mode> p = (:Location {name: 'Kneiphof'})-[:BRIDGE]-{7}()
      RETURN count(p) AS pathCount
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | mode                    |
      | DIFFERENT RELATIONSHIPS |
      | REPEATABLE ELEMENTS     |
