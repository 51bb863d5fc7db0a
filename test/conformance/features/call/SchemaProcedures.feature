# Sources: Neo4j Cypher manual 5, clauses/call (CALL db.labels(), YIELD *, YIELD ... WHERE, renaming,
# feeding a MATCH from db.propertyKeys()) and the operations manual's procedure reference
# (db.labels, db.relationshipTypes, db.propertyKeys and their output names).
Feature: SchemaProcedures - db.labels(), db.relationshipTypes() and db.propertyKeys() in every call form

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Person:Actor {name: 'Ada', born: 1960})-[:ACTED_IN {roles: ['Lead']}]->(:Movie {title: 'M'}),
             (:Person {name: 'Bo'})-[:DIRECTED]->(:Movie {title: 'N', released: 1999}), (:Unused)
      """

  Scenario: [1] A standalone call without parentheses or YIELD lists every label in use
    When executing query:
      """
      CALL db.labels
      """
    Then the result should be, in any order:
      | label    |
      | 'Person' |
      | 'Actor'  |
      | 'Movie'  |
      | 'Unused' |
    And no side effects

  Scenario: [2] YIELD * and an explicit YIELD with a WHERE
    When executing query:
      """
      CALL db.labels() YIELD label WHERE label STARTS WITH 'M' OR label = 'Actor'
      """
    Then the result should be, in any order:
      | label   |
      | 'Actor' |
      | 'Movie' |
    And no side effects

  Scenario: [3] A standalone call with YIELD *
    When executing query:
      """
      CALL db.relationshipTypes() YIELD *
      """
    Then the result should be, in any order:
      | relationshipType |
      | 'ACTED_IN'       |
      | 'DIRECTED'       |
    And no side effects

  Scenario: [4] An in-query call renames its output and feeds aggregation
    When executing query:
      """
      CALL db.labels() YIELD label AS l
      WITH l ORDER BY l
      RETURN collect(l) AS labels, count(*) AS n
      """
    Then the result should be, in any order:
      | labels                                 | n |
      | ['Actor', 'Movie', 'Person', 'Unused'] | 4 |
    And no side effects

  Scenario: [5] Property keys of nodes and relationships feed a MATCH
    When executing query:
      """
      CALL db.propertyKeys() YIELD propertyKey AS prop
      OPTIONAL MATCH (n) WHERE n[prop] IS NOT NULL
      RETURN prop, count(n) AS numNodes ORDER BY prop
      """
    Then the result should be, in order:
      | prop       | numNodes |
      | 'born'     | 1        |
      | 'name'     | 2        |
      | 'released' | 1        |
      | 'roles'    | 0        |
      | 'title'    | 2        |
    And no side effects

  Scenario: [6] A label or type no element carries any more is not listed
    When executing query:
      """
      MATCH (u:Unused), ()-[d:DIRECTED]->()
      DELETE u, d
      WITH count(*) AS deleted
      CALL db.labels() YIELD label
      WITH deleted, label ORDER BY label
      WITH deleted, collect(label) AS labels
      CALL db.relationshipTypes() YIELD relationshipType
      RETURN deleted, labels, collect(relationshipType) AS types
      """
    Then the result should be, in any order:
      | deleted | labels                        | types        |
      | 1       | ['Actor', 'Movie', 'Person']  | ['ACTED_IN'] |
    And the side effects should be:
      | -nodes         | 1 |
      | -relationships | 1 |
      | -labels        | 1 |

  Scenario: [7] Once every element is deleted, nothing is listed
    When executing query:
      """
      MATCH (n) DETACH DELETE n
      WITH count(*) AS deleted
      RETURN deleted, COUNT { CALL db.labels() YIELD label RETURN label } AS labels,
             COUNT { CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType } AS types,
             COUNT { CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey } AS keys
      """
    Then the result should be, in any order:
      | deleted | labels | types | keys |
      | 5       | 0      | 0     | 0    |
    And the side effects should be:
      | -nodes         | 5  |
      | -relationships | 2  |
      | -labels        | 4  |
      | -properties    | 7  |

  Scenario: [8] The call runs once per incoming row
    When executing query:
      """
      MATCH (m:Movie) CALL db.relationshipTypes() YIELD relationshipType RETURN count(*) AS c
      """
    Then the result should be, in any order:
      | c |
      | 4 |
    And no side effects

  Scenario: [9] The schema procedures take no arguments
    When executing query:
      """
      CALL db.labels('Person')
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberOfArguments

  Scenario: [10] Yielding an output the procedure does not have is refused
    When executing query:
      """
      CALL db.labels() YIELD name RETURN name
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [11] Procedure names are case-sensitive
    When executing query:
      """
      CALL db.Labels()
      """
    Then a ProcedureError should be raised at compile time: ProcedureNotFound

  Scenario: [12] A yielded name may not rebind a variable in scope
    When executing query:
      """
      MATCH (label:Person) CALL db.labels() YIELD label RETURN label
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [13] Property keys a statement sets, removes and replaces are listed as it left them
    When executing query:
      """
      MATCH (ada {name: 'Ada'})-[r:ACTED_IN]->(m {title: 'M'}), (n {title: 'N'})
      SET ada.nick = 'A', m = {title: 'M'}, r.year = 1990
      REMOVE r.roles, ada.born, n.released
      WITH count(*) AS rows
      CALL db.propertyKeys() YIELD propertyKey
      RETURN propertyKey ORDER BY propertyKey
      """
    Then the result should be, in order:
      | propertyKey |
      | 'name'      |
      | 'nick'      |
      | 'title'     |
      | 'year'      |
    And the side effects should be:
      | +properties | 2 |
      | -properties | 3 |

  Scenario: [14] A key whose only holder the statement deletes is no longer listed, one created with a node is
    When executing query:
      """
      MATCH (m {released: 1999}) DETACH DELETE m
      CREATE (:Fresh {added: true})
      WITH count(*) AS rows
      CALL db.propertyKeys() YIELD propertyKey
      RETURN propertyKey ORDER BY propertyKey
      """
    Then the result should be, in order:
      | propertyKey |
      | 'added'     |
      | 'born'      |
      | 'name'      |
      | 'roles'     |
      | 'title'     |
    And the side effects should be:
      | +nodes         | 1 |
      | -nodes         | 1 |
      | +labels        | 1 |
      | -relationships | 1 |
      | +properties    | 1 |
      | -properties    | 2 |
