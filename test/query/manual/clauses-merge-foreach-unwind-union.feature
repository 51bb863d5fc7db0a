# Written from the Neo4j 5 Cypher Manual's clause pages "MERGE" (on its movie graph, with ON CREATE and
# ON MATCH), "FOREACH", "UNWIND" and "UNION": each example, with the rows and the writes it makes.
Feature: Manual - MERGE, FOREACH, UNWIND and UNION

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (charlie:Person {name: 'Charlie Sheen', bornIn: 'New York', chauffeurName: 'John Brown'}),
             (martin:Person {name: 'Martin Sheen', bornIn: 'Ohio', chauffeurName: 'Bob Brown'}),
             (michael:Person {name: 'Michael Douglas', bornIn: 'New Jersey', chauffeurName: 'John Brown'}),
             (oliver:Person {name: 'Oliver Stone', bornIn: 'New York', chauffeurName: 'Bill White'}),
             (rob:Person {name: 'Rob Reiner', bornIn: 'New York', chauffeurName: 'Ted Green'}),
             (wallStreet:Movie {title: 'Wall Street'}), (tap:Movie {title: 'The American President'}),
             (charlie)-[:ACTED_IN]->(wallStreet), (martin)-[:ACTED_IN]->(wallStreet),
             (michael)-[:ACTED_IN]->(wallStreet), (martin)-[:ACTED_IN]->(tap),
             (michael)-[:ACTED_IN]->(tap), (oliver)-[:DIRECTED]->(wallStreet), (rob)-[:DIRECTED]->(tap)
      """

  Scenario: [1] MERGE of a label no node has creates one node
    When executing query:
      """
      MERGE (robert:Critic) RETURN labels(robert)
      """
    Then the result should be, in any order:
      | labels(robert) |
      | ['Critic']     |
    And the side effects should be:
      | +nodes  | 1 |
      | +labels | 1 |

  Scenario: [2] MERGE with properties no node has all of creates a node
    When executing query:
      """
      MERGE (charlie {name: 'Charlie Sheen', age: 10}) RETURN charlie
      """
    Then the result should be, in any order:
      | charlie                             |
      | ({name: 'Charlie Sheen', age: 10})  |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 2 |

  Scenario: [3] MERGE of an existing node matches it
    When executing query:
      """
      MERGE (michael:Person {name: 'Michael Douglas'}) RETURN michael.name, michael.bornIn
      """
    Then the result should be, in any order:
      | michael.name      | michael.bornIn |
      | 'Michael Douglas' | 'New Jersey'   |
    And no side effects

  Scenario: [4] MERGE with a property of each matched row creates each location once
    When executing query:
      """
      MATCH (person:Person) MERGE (location:Location {name: person.bornIn})
      RETURN person.name, person.bornIn, location.name
      """
    Then the result should be, in any order:
      | person.name       | person.bornIn | location.name |
      | 'Charlie Sheen'   | 'New York'    | 'New York'    |
      | 'Martin Sheen'    | 'Ohio'        | 'Ohio'        |
      | 'Michael Douglas' | 'New Jersey'  | 'New Jersey'  |
      | 'Oliver Stone'    | 'New York'    | 'New York'    |
      | 'Rob Reiner'      | 'New York'    | 'New York'    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [5] ON CREATE runs only for a created node
    When executing query:
      """
      MERGE (keanu:Person {name: 'Keanu Reeves', bornIn: 'Beirut', chauffeurName: 'Eric Brown'})
      ON CREATE SET keanu.created = 1
      ON MATCH SET keanu.lastSeen = 1
      RETURN keanu.name, keanu.created, keanu.lastSeen
      """
    Then the result should be, in any order:
      | keanu.name     | keanu.created | keanu.lastSeen |
      | 'Keanu Reeves' | 1             | null           |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 4 |

  Scenario: [6] ON MATCH runs for every matched node
    When executing query:
      """
      MERGE (person:Person) ON MATCH SET person.found = true ON CREATE SET person.created = true
      RETURN person.name, person.found, person.created
      """
    Then the result should be, in any order:
      | person.name       | person.found | person.created |
      | 'Charlie Sheen'   | true         | null           |
      | 'Martin Sheen'    | true         | null           |
      | 'Michael Douglas' | true         | null           |
      | 'Oliver Stone'    | true         | null           |
      | 'Rob Reiner'      | true         | null           |
    And the side effects should be:
      | +properties | 5 |

  Scenario: [7] MERGE of a relationship between matched nodes that already exists
    When executing query:
      """
      MATCH (charlie:Person {name: 'Charlie Sheen'}), (wallStreet:Movie {title: 'Wall Street'})
      MERGE (charlie)-[r:ACTED_IN]->(wallStreet)
      RETURN charlie.name, type(r), wallStreet.title
      """
    Then the result should be, in any order:
      | charlie.name    | type(r)    | wallStreet.title |
      | 'Charlie Sheen' | 'ACTED_IN' | 'Wall Street'    |
    And no side effects

  Scenario: [8] MERGE of a pattern through a new node creates the node and both relationships
    When executing query:
      """
      MATCH (oliver:Person {name: 'Oliver Stone'}), (reiner:Person {name: 'Rob Reiner'})
      MERGE (oliver)-[:DIRECTED]->(movie:Movie)<-[:DIRECTED]-(reiner)
      RETURN movie
      """
    Then the result should be, in any order:
      | movie    |
      | (:Movie) |
    And the side effects should be:
      | +nodes         | 1 |
      | +relationships | 2 |

  Scenario: [9] MERGE of an undirected relationship creates it in one direction
    When executing query:
      """
      MATCH (charlie:Person {name: 'Charlie Sheen'}), (oliver:Person {name: 'Oliver Stone'})
      MERGE (charlie)-[r:KNOWS]-(oliver)
      WITH r
      MATCH (a)-[r]->(b)
      RETURN type(r) AS t, count(*) AS directions
      """
    Then the result should be, in any order:
      | t       | directions |
      | 'KNOWS' | 1          |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [10] MERGE of a relationship to a node built from each person creates one chauffeur each
    When executing query:
      """
      MATCH (person:Person)
      MERGE (person)-[r:HAS_CHAUFFEUR]->(chauffeur:Chauffeur {name: person.chauffeurName})
      RETURN person.name, chauffeur.name
      """
    Then the result should be, in any order:
      | person.name       | chauffeur.name |
      | 'Charlie Sheen'   | 'John Brown'   |
      | 'Martin Sheen'    | 'Bob Brown'    |
      | 'Michael Douglas' | 'John Brown'   |
      | 'Oliver Stone'    | 'Bill White'   |
      | 'Rob Reiner'      | 'Ted Green'    |
    And the side effects should be:
      | +nodes         | 5 |
      | +relationships | 5 |
      | +labels        | 1 |
      | +properties    | 5 |

  Scenario: [11] Two MERGEs: each city once, a relationship from every person
    When executing query:
      """
      MATCH (person:Person)
      MERGE (city:City {name: person.bornIn})
      MERGE (person)-[r:BORN_IN]->(city)
      RETURN person.name, city.name
      """
    Then the result should be, in any order:
      | person.name       | city.name    |
      | 'Charlie Sheen'   | 'New York'   |
      | 'Martin Sheen'    | 'Ohio'       |
      | 'Michael Douglas' | 'New Jersey' |
      | 'Oliver Stone'    | 'New York'   |
      | 'Rob Reiner'      | 'New York'   |
    And the side effects should be:
      | +nodes         | 3 |
      | +relationships | 5 |
      | +labels        | 1 |
      | +properties    | 3 |

  Scenario: [12] MERGE with map parameters
    Given parameters are:
      | param | {name: 'Keanu Reeves', role: 'Neo'} |
    When executing query:
      """
      MERGE (person:Person {name: $param.name, role: $param.role})
      RETURN person.name, person.role
      """
    Then the result should be, in any order:
      | person.name    | person.role |
      | 'Keanu Reeves' | 'Neo'       |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 2 |

  Scenario: [13] MERGE with a null property value fails
    When executing query:
      """
      MERGE (p:Person {name: null}) RETURN p
      """
    Then a SemanticError should be raised at runtime: MergeReadOwnWrites

  Scenario: [14] MERGE of a variable-length relationship is refused
    When executing query:
      """
      MATCH (a:Person {name: 'Charlie Sheen'}), (b:Person {name: 'Rob Reiner'}) MERGE (a)-[:KNOWS*2]->(b)
      """
    Then a SyntaxError should be raised at compile time: CreatingVarLength

  Scenario: [15] FOREACH marks every node along a path
    When executing query:
      """
      MATCH p = (start:Person {name: 'Charlie Sheen'})-[:ACTED_IN]->(m)<-[:DIRECTED]-(finish)
      FOREACH (n IN nodes(p) | SET n.marked = true)
      WITH count(*) AS paths
      MATCH (x {marked: true})
      RETURN paths, collect(coalesce(x.name, x.title)) AS marked
      """
    Then the result should be (ignoring element order for lists):
      | paths | marked                                           |
      | 1     | ['Charlie Sheen', 'Wall Street', 'Oliver Stone'] |
    And the side effects should be:
      | +properties | 3 |

  Scenario: [16] FOREACH with CASE runs its updates only when a condition holds
    When executing query:
      """
      MATCH (p:Person)
      FOREACH (ignored IN CASE WHEN p.bornIn = 'New York' THEN [1] ELSE [] END | SET p.newYorker = true)
      RETURN count(*) AS people
      """
    Then the result should be, in any order:
      | people |
      | 5      |
    And the side effects should be:
      | +properties | 3 |

  Scenario: [17] FOREACH over a list creates one node per element; over null, none
    When executing query:
      """
      FOREACH (name IN ['a', 'b', 'c'] | CREATE (:Letter {name: name}))
      FOREACH (name IN null | CREATE (:Letter {name: name}))
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [18] FOREACH may not hold a reading clause
    When executing query:
      """
      FOREACH (x IN [1, 2] | MATCH (n) SET n.v = x)
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario Outline: [19] UNWIND examples: <query>
    When executing query:
      """
      <query>
      """
    Then the result should be, in any order:
      | x   |
      | <x> |
    And no side effects

    Examples:
      | query                                                                                     | x      |
      | WITH [1, 1, 2, 2] AS coll UNWIND coll AS y WITH DISTINCT y RETURN collect(y) AS x          | [1, 2] |
      | WITH [1, 2] AS a, [3, 4] AS b UNWIND (a + b) AS y RETURN collect(y) AS x                    | [1, 2, 3, 4] |
      | WITH [[1, 2], [3, 4], 5] AS nested UNWIND nested AS y UNWIND y AS z RETURN collect(z) AS x  | [1, 2, 3, 4, 5] |
      | WITH [] AS list UNWIND CASE WHEN list = [] THEN [null] ELSE list END AS x RETURN x          | null   |
      | UNWIND [1, 2, 3, null] AS y RETURN collect(y) AS x                                          | [1, 2, 3] |
      | UNWIND [1, 2, 3, null] AS y RETURN count(*) AS x                                            | 4      |
      | UNWIND [] AS y RETURN count(*) AS x                                                         | 0      |
      | UNWIND null AS y RETURN count(*) AS x                                                       | 0      |

  Scenario: [20] UNWIND of a list parameter drives MERGE
    Given parameters are:
      | events | [{year: 2014, id: 1}, {year: 2014, id: 2}] |
    When executing query:
      """
      UNWIND $events AS event
      MERGE (y:Year {year: event.year})
      MERGE (y)<-[:IN]-(e:Event {id: event.id})
      RETURN e.id AS x ORDER BY x
      """
    Then the result should be, in order:
      | x |
      | 1 |
      | 2 |
    And the side effects should be:
      | +nodes         | 3 |
      | +relationships | 2 |
      | +labels        | 2 |
      | +properties    | 3 |

  Scenario: [21] UNION ALL keeps duplicates, UNION and UNION DISTINCT remove them
    Given having executed:
      """
      CREATE (:Actor {name: 'Johnny Depp'}), (:Actor {name: 'Sarah Jessica Parker'}),
             (:Actor:Director {name: 'Ed Wood'}), (:Film {title: 'Ed Wood'})
      """
    When executing query:
      """
      CALL () {
        MATCH (n:Actor) RETURN n.name AS name UNION ALL MATCH (n:Film) RETURN n.title AS name
      }
      WITH collect(name) AS all_names
      CALL () {
        MATCH (n:Actor) RETURN n.name AS name UNION MATCH (n:Film) RETURN n.title AS name
      }
      WITH all_names, collect(name) AS distinct_names
      CALL () {
        MATCH (n:Actor) RETURN n.name AS name UNION DISTINCT MATCH (n:Film) RETURN n.title AS name
      }
      RETURN size(all_names) AS a, size(distinct_names) AS d, count(name) AS dd
      """
    Then the result should be, in any order:
      | a | d | dd |
      | 4 | 3 | 3  |
    And no side effects

  Scenario: [22] The parts of a UNION must return the same columns
    When executing query:
      """
      RETURN 1 AS a UNION RETURN 2 AS b
      """
    Then a SyntaxError should be raised at compile time: DifferentColumnsInUnion

  Scenario: [23] UNION and UNION ALL may not be mixed
    When executing query:
      """
      RETURN 1 AS a UNION RETURN 2 AS a UNION ALL RETURN 3 AS a
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition
