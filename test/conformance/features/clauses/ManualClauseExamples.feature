# Written from the Neo4j 5 Cypher Manual's clause pages "MATCH", "OPTIONAL MATCH", "RETURN", "WITH", "UNWIND",
# "WHERE", "ORDER BY", "SKIP", "LIMIT", "CREATE", "DELETE", "SET", "REMOVE", "MERGE" and "UNION": the examples
# and errors those pages give that the other files here do not already hold, on the pages' movie graph.
Feature: ManualClauseExamples - the clause pages' examples over their movie graph

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (charlie:Person {name: 'Charlie Sheen'}), (martin:Person {name: 'Martin Sheen'}),
             (michael:Person {name: 'Michael Douglas'}), (oliver:Person {name: 'Oliver Stone'}),
             (rob:Person {name: 'Rob Reiner'}),
             (wallStreet:Movie {title: 'Wall Street'}), (tap:Movie {title: 'The American President'}),
             (charlie)-[:ACTED_IN {role: 'Bud Fox'}]->(wallStreet),
             (martin)-[:ACTED_IN {role: 'Carl Fox'}]->(wallStreet),
             (michael)-[:ACTED_IN {role: 'Gordon Gekko'}]->(wallStreet),
             (martin)-[:ACTED_IN {role: 'A.J. MacInerney'}]->(tap),
             (michael)-[:ACTED_IN {role: 'President Andrew Shepherd'}]->(tap),
             (oliver)-[:DIRECTED]->(wallStreet), (rob)-[:DIRECTED]->(tap)
      """

  Scenario: [1] MATCH on one of several relationship types
    When executing query:
      """
      MATCH (:Movie {title: 'Wall Street'})<-[:ACTED_IN|DIRECTED]-(person)
      RETURN person.name AS name
      """
    Then the result should be, in any order:
      | name              |
      | 'Charlie Sheen'   |
      | 'Martin Sheen'    |
      | 'Michael Douglas' |
      | 'Oliver Stone'    |
    And no side effects

  Scenario: [2] A WHERE inside a relationship pattern filters that relationship
    When executing query:
      """
      MATCH (:Person {name: 'Charlie Sheen'})-[r:ACTED_IN WHERE r.role = 'Bud Fox']->(m)
      RETURN m.title AS title
      """
    Then the result should be, in any order:
      | title         |
      | 'Wall Street' |
    And no side effects

  Scenario: [3] A WHERE inside an unnamed relationship pattern may read the other elements
    When executing query:
      """
      MATCH (p:Person)-[WHERE p.name STARTS WITH 'M']->(m:Movie)
      RETURN p.name AS name, count(m) AS movies
      """
    Then the result should be, in any order:
      | name              | movies |
      | 'Martin Sheen'    | 2      |
      | 'Michael Douglas' | 2      |
    And no side effects

  Scenario: [4] A WHERE inside a variable-length relationship pattern is refused
    When executing query:
      """
      MATCH (p:Person)-[r:ACTED_IN*1..2 WHERE r.role = 'Bud Fox']->(m)
      RETURN m
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [5] A WHERE inside a relationship pattern of CREATE is refused
    When executing query:
      """
      CREATE (a)-[r:KNOWS WHERE r.since > 2000]->(b)
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [6] A relationship WHERE in an EXISTS pattern and in a pattern comprehension
    When executing query:
      """
      MATCH (p:Person)
      WHERE EXISTS { (p)-[r:ACTED_IN WHERE r.role STARTS WITH 'President']->() }
      RETURN p.name AS name, [(p)-[r:ACTED_IN WHERE r.role ENDS WITH 'Gekko']->(m) | m.title] AS gekko
      """
    Then the result should be, in any order:
      | name              | gekko           |
      | 'Michael Douglas' | ['Wall Street'] |
    And no side effects

  Scenario: [7] OPTIONAL MATCH gives null for a relationship that is not there
    When executing query:
      """
      MATCH (a:Person {name: 'Martin Sheen'})
      OPTIONAL MATCH (a)-[r:DIRECTED]->()
      RETURN a.name AS name, r
      """
    Then the result should be, in any order:
      | name           | r    |
      | 'Martin Sheen' | null |
    And no side effects

  Scenario: [8] Properties of an OPTIONAL MATCH element that is not there are null
    When executing query:
      """
      MATCH (a:Movie {title: 'Wall Street'})
      OPTIONAL MATCH (a)-->(x)
      RETURN x, x.name AS name
      """
    Then the result should be, in any order:
      | x    | name |
      | null | null |
    And no side effects

  Scenario: [9] LIMIT limits the rows returned, not the updates made before it
    When executing query:
      """
      MATCH (n:Person)
      SET n.locked = true
      RETURN n.name AS name
      ORDER BY name
      LIMIT 1
      """
    Then the result should be, in order:
      | name            |
      | 'Charlie Sheen' |
    And the side effects should be:
      | +properties | 5 |

  Scenario: [10] SKIP and LIMIT may be expressions of literals and functions without variables
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name
      ORDER BY name
      SKIP toInteger(0.5 + 0.5)
      LIMIT 1 + toInteger(1.9)
      """
    Then the result should be, in order:
      | name              |
      | 'Martin Sheen'    |
      | 'Michael Douglas' |
    And no side effects

  Scenario: [11] SKIP and LIMIT cannot read variables
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name
      LIMIT size(n.name)
      """
    Then a SyntaxError should be raised at compile time: NonConstantExpression

  Scenario: [12] ORDER BY a property that is not returned, descending
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name ENDS WITH 'Sheen'
      RETURN n.name AS name
      ORDER BY n.name DESC
      """
    Then the result should be, in order:
      | name            |
      | 'Martin Sheen'  |
      | 'Charlie Sheen' |
    And no side effects

  Scenario: [13] A regular expression with the case-insensitive flag
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name =~ '(?i)CHARLIE.*'
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name            |
      | 'Charlie Sheen' |
    And no side effects

  Scenario: [14] A regular expression with escaped characters
    When executing query:
      """
      MATCH (r:Person)-[a:ACTED_IN]->()
      WHERE a.role =~ 'A\\.J\\..*'
      RETURN a.role AS role
      """
    Then the result should be, in any order:
      | role              |
      | 'A.J. MacInerney' |
    And no side effects

  Scenario: [15] Filtering on a pattern's absence
    When executing query:
      """
      MATCH (p:Person)
      WHERE NOT (p)-[:ACTED_IN]->()
      RETURN p.name AS name
      """
    Then the result should be, in any order:
      | name           |
      | 'Oliver Stone' |
      | 'Rob Reiner'   |
    And no side effects

  Scenario: [16] Filtering on the type of a relationship with a regular expression
    When executing query:
      """
      MATCH (p:Person {name: 'Oliver Stone'})-[r]->(m)
      WHERE type(r) =~ 'DIR.*'
      RETURN m.title AS title
      """
    Then the result should be, in any order:
      | title         |
      | 'Wall Street' |
    And no side effects

  Scenario: [17] UNWIND of an empty list made into [null] keeps one row
    When executing query:
      """
      WITH [] AS list
      UNWIND CASE WHEN list = [] THEN [null] ELSE list END AS emptylist
      RETURN emptylist
      """
    Then the result should be, in any order:
      | emptylist |
      | null      |
    And no side effects

  Scenario: [18] UNWIND then WITH DISTINCT makes a set of a list
    When executing query:
      """
      WITH [1, 1, 2, 2] AS coll
      UNWIND coll AS x
      WITH DISTINCT x
      RETURN collect(x) AS setOfVals
      """
    Then the result should be, in any order:
      | setOfVals |
      | [1, 2]    |
    And no side effects

  Scenario: [19] UNWIND of a list parameter creates a node per element
    And parameters are:
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

  Scenario: [20] DELETE of a node that still has relationships fails
    When executing query:
      """
      MATCH (n:Person {name: 'Oliver Stone'})
      DELETE n
      """
    Then a ConstraintValidationFailed should be raised at runtime: DeleteConnectedNode

  Scenario: [21] DELETE of the relationships only, then of the node
    When executing query:
      """
      MATCH (n:Person {name: 'Michael Douglas'})-[r:ACTED_IN]->()
      DELETE r
      WITH DISTINCT n
      DELETE n
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 1 |
      | -relationships | 2 |
      | -properties    | 3 |

  Scenario: [22] DETACH DELETE of every node
    When executing query:
      """
      MATCH (n)
      DETACH DELETE n
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 7 |
      | -relationships | 7 |
      | -properties    | 12 |
      | -labels        | 2 |

  Scenario: [23] SET on a CASE that is null for some rows sets nothing there
    When executing query:
      """
      MATCH (n:Person)
      SET (CASE WHEN n.name STARTS WITH 'R' THEN n END).worksIn = 'Malmo'
      RETURN n.name AS name, n.worksIn AS worksIn
      ORDER BY name
      """
    Then the result should be, in order:
      | name              | worksIn |
      | 'Charlie Sheen'   | null    |
      | 'Martin Sheen'    | null    |
      | 'Michael Douglas' | null    |
      | 'Oliver Stone'    | null    |
      | 'Rob Reiner'      | 'Malmo' |
    And the side effects should be:
      | +properties | 1 |

  Scenario: [24] SET several properties in one clause, one of them from another property
    When executing query:
      """
      MATCH (n:Person {name: 'Rob Reiner'})
      SET n.position = 'Director', n.surname = split(n.name, ' ')[1]
      RETURN n.position AS position, n.surname AS surname
      """
    Then the result should be, in any order:
      | position   | surname  |
      | 'Director' | 'Reiner' |
    And the side effects should be:
      | +properties | 2 |

  Scenario: [25] A map cannot be stored as a property
    When executing query:
      """
      MATCH (n:Person {name: 'Rob Reiner'})
      SET n.address = {city: 'Malmo'}
      """
    Then a TypeError should be raised at runtime: InvalidPropertyType

  Scenario: [26] REMOVE of several labels and a property
    When executing query:
      """
      MATCH (n:Person {name: 'Rob Reiner'})
      SET n:Director:Writer
      REMOVE n:Person:Writer, n.name
      RETURN labels(n) AS labels, n.name AS name
      """
    Then the result should be, in any order:
      | labels       | name |
      | ['Director'] | null |
    And the side effects should be:
      | +labels     | 1 |
      | -properties | 1 |

  Scenario: [27] MERGE a node per row from a property of each row
    When executing query:
      """
      MATCH (p:Person)-[:DIRECTED]->(m:Movie)
      MERGE (d:Director {name: p.name})
      MERGE (d)-[:MADE]->(m)
      RETURN d.name AS name, m.title AS title
      """
    Then the result should be, in any order:
      | name           | title                    |
      | 'Oliver Stone' | 'Wall Street'            |
      | 'Rob Reiner'   | 'The American President' |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 2 |
      | +labels        | 1 |
      | +properties    | 2 |

  # Each clause sees the whole table before the next (openCypher's clause-at-a-time meaning), so the
  # first row reads the node as the third row's ON MATCH left it.
  Scenario: [28] MERGE with ON CREATE and ON MATCH, run twice over the same names
    When executing query:
      """
      UNWIND ['Keanu Reeves', 'Charlie Sheen', 'Keanu Reeves'] AS name
      MERGE (p:Person {name: name})
        ON CREATE SET p.created = true
        ON MATCH SET p.found = coalesce(p.found, 0) + 1
      RETURN p.name AS name, p.created AS created, p.found AS found
      """
    Then the result should be, in order:
      | name            | created | found |
      | 'Keanu Reeves'  | true    | 1     |
      | 'Charlie Sheen' | null    | 1     |
      | 'Keanu Reeves'  | true    | 1     |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 4 |

  Scenario: [29] UNION DISTINCT is UNION
    When executing query:
      """
      MATCH (n:Person) WHERE n.name ENDS WITH 'Sheen'
      RETURN 'Sheen' AS family
      UNION DISTINCT
      MATCH (n:Person) WHERE n.name STARTS WITH 'Martin'
      RETURN 'Sheen' AS family
      """
    Then the result should be, in any order:
      | family  |
      | 'Sheen' |
    And no side effects

  Scenario: [30] UNION DISTINCT and UNION ALL cannot be mixed
    When executing query:
      """
      RETURN 1 AS x
      UNION DISTINCT
      RETURN 2 AS x
      UNION ALL
      RETURN 3 AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [31] UNION DISTINCT and UNION may be mixed
    When executing query:
      """
      RETURN 1 AS x
      UNION DISTINCT
      RETURN 1 AS x
      UNION
      RETURN 2 AS x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 2 |
    And no side effects

  Scenario: [32] RETURN of a property that no node has is null
    When executing query:
      """
      MATCH (n:Movie {title: 'Wall Street'})
      RETURN n.nonExistingProperty AS missing, n.title AS title
      """
    Then the result should be, in any order:
      | missing | title         |
      | null    | 'Wall Street' |
    And no side effects

  Scenario: [33] CREATE a whole path and return its length
    When executing query:
      """
      CREATE p = (:Person {name: 'Andy'})-[:WORKS_AT]->(:Company)<-[:WORKS_AT]-(:Person {name: 'Michael'})
      RETURN length(p) AS hops, size(nodes(p)) AS nodes
      """
    Then the result should be, in any order:
      | hops | nodes |
      | 2    | 3     |
    And the side effects should be:
      | +nodes         | 3 |
      | +relationships | 2 |
      | +labels        | 1 |
      | +properties    | 2 |

  Scenario: [34] CREATE a relationship whose property is built from both ends
    When executing query:
      """
      MATCH (a:Person {name: 'Oliver Stone'}), (b:Person {name: 'Rob Reiner'})
      CREATE (a)-[r:KNOWS {name: a.name + '<->' + b.name}]->(b)
      RETURN type(r) AS type, r.name AS name
      """
    Then the result should be, in any order:
      | type    | name                         |
      | 'KNOWS' | 'Oliver Stone<->Rob Reiner'  |
    And the side effects should be:
      | +relationships | 1 |
      | +properties    | 1 |

  Scenario: [35] WITH ORDER BY and LIMIT before a collect
    When executing query:
      """
      MATCH (n:Person)
      WITH n
      ORDER BY n.name DESC
      LIMIT 3
      RETURN collect(n.name) AS names
      """
    Then the result should be, in any order:
      | names                                                 |
      | ['Rob Reiner', 'Oliver Stone', 'Michael Douglas']     |
    And no side effects
