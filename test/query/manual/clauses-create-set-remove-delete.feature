# Written from the Neo4j 5 Cypher Manual's clause pages "CREATE", "SET", "REMOVE" and "DELETE": each
# example on the SET page's graph (Andy, Peter, Stefan), with the writes it makes, and the errors the
# pages name.
Feature: Manual - CREATE, SET, REMOVE and DELETE

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:Swedish {name: 'Andy', age: 36, hungry: true})-[:KNOWS]->(p {name: 'Peter', age: 34}),
             (s {name: 'Stefan'})-[:KNOWS]->(a), (g {name: 'George'})-[:KNOWS]->(p)
      """

  Scenario: [1] CREATE of several labels, a path and a relationship between matched nodes
    When executing query:
      """
      CREATE (n:Person:Swedish {name: 'Emil'})
      WITH n
      MATCH (a {name: 'Andy'})
      CREATE p = (n)-[r:RELTYPE {since: 2024}]->(a)
      RETURN labels(n) AS labels, type(r) AS type, length(p) AS hops, r.since AS since
      """
    Then the result should be, in any order:
      | labels                | type      | hops | since |
      | ['Person', 'Swedish'] | 'RELTYPE' | 1    | 2024  |
    And the side effects should be:
      | +nodes         | 1 |
      | +relationships | 1 |
      | +labels        | 1 |
      | +properties    | 2 |

  Scenario Outline: [2] CREATE refuses: <title>
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: <detail>

    Examples:
      | title                                 | query                                     | detail                       |
      | a relationship without a type         | CREATE (a)-[r]->(b)                       | NoSingleRelationshipType     |
      | a relationship without a direction    | CREATE (a)-[:T]-(b)                       | RequiresDirectedRelationship |
      | a node variable already bound         | MATCH (a {name: 'Andy'}) CREATE (a)       | VariableAlreadyBound         |

  Scenario: [3] SET a property, several properties, and a property from an expression
    When executing query:
      """
      MATCH (n {name: 'Andy'})
      SET n.surname = 'Taylor', n.position = 'Developer', n.age = toString(n.age)
      RETURN n.name, n.surname, n.position, n.age
      """
    Then the result should be, in any order:
      | n.name | n.surname | n.position  | n.age |
      | 'Andy' | 'Taylor'  | 'Developer' | '36'  |
    And the side effects should be:
      | +properties | 3 |
      | -properties | 1 |

  Scenario: [4] SET on a CASE that picks the node only when a condition holds
    When executing query:
      """
      MATCH (n {name: 'Andy'})
      SET (CASE WHEN n.age = 36 THEN n END).worksIn = 'Malmo'
      SET (CASE WHEN n.age = 55 THEN n END).city = 'Lund'
      RETURN n.name, n.worksIn, n.city
      """
    Then the result should be, in any order:
      | n.name | n.worksIn | n.city |
      | 'Andy' | 'Malmo'   | null   |
    And the side effects should be:
      | +properties | 1 |

  Scenario: [5] SET a property to null removes it
    When executing query:
      """
      MATCH (n {name: 'Andy'}) SET n.name = null RETURN n.name, keys(n)
      """
    Then the result should be (ignoring element order for lists):
      | n.name | keys(n)           |
      | null   | ['age', 'hungry'] |
    And the side effects should be:
      | -properties | 1 |

  Scenario: [6] Copy properties between nodes with = and with properties()
    When executing query:
      """
      MATCH (at {name: 'Andy'}), (pn {name: 'Peter'})
      SET at = properties(pn)
      RETURN at.name, at.age, at.hungry, pn.name, pn.age
      """
    Then the result should be, in any order:
      | at.name | at.age | at.hungry | pn.name | pn.age |
      | 'Peter' | 34     | null      | 'Peter' | 34     |
    And the side effects should be:
      | +properties | 2 |
      | -properties | 3 |

  Scenario: [7] Replace all properties with a map, or mutate them with +=
    When executing query:
      """
      MATCH (p {name: 'Peter'}), (s {name: 'Stefan'})
      SET p = {name: 'Peter Smith', position: 'Entrepreneur'}
      SET s += {age: 38, hungry: true, position: 'Entrepreneur'}
      RETURN p.name, p.age, p.position, s.name, s.age, s.position
      """
    Then the result should be, in any order:
      | p.name        | p.age | p.position     | s.name   | s.age | s.position     |
      | 'Peter Smith' | null  | 'Entrepreneur' | 'Stefan' | 38    | 'Entrepreneur' |
    And the side effects should be:
      | +properties | 5 |
      | -properties | 2 |

  Scenario: [8] SET = {} removes every property, SET += {} changes nothing
    When executing query:
      """
      MATCH (p {name: 'Peter'}), (s {name: 'Stefan'})
      SET p = {}
      SET s += {}
      RETURN keys(p) AS p, keys(s) AS s
      """
    Then the result should be, in any order:
      | p  | s        |
      | [] | ['name'] |
    And the side effects should be:
      | -properties | 2 |

  Scenario: [9] SET and REMOVE a property named by an expression
    When executing query:
      """
      MATCH (n {name: 'Andy'})
      WITH n, 'nick' AS setKey, 'age' AS removeKey
      SET n[setKey] = 'Andi'
      REMOVE n[removeKey]
      RETURN n.nick, n.age
      """
    Then the result should be, in any order:
      | n.nick | n.age |
      | 'Andi' | null  |
    And the side effects should be:
      | +properties | 1 |
      | -properties | 1 |

  Scenario: [10] SET and REMOVE labels, written and dynamic
    When executing query:
      """
      MATCH (n {name: 'Stefan'}), (a {name: 'Andy'})
      SET n:German:Bossman, n:$('Dynamic')
      REMOVE a:Swedish
      RETURN labels(n) AS stefan, labels(a) AS andy
      """
    Then the result should be (ignoring element order for lists):
      | stefan                            | andy |
      | ['German', 'Bossman', 'Dynamic']  | []   |
    And the side effects should be:
      | +labels | 3 |
      | -labels | 1 |

  Scenario: [11] SET of a value that is not a map, node or relationship is an error
    When executing query:
      """
      MATCH (n {name: 'Andy'}) WITH n, [1, 'one'] AS values UNWIND values AS v SET n = v
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [12] A property may not hold a map or a list of mixed types
    When executing query:
      """
      MATCH (n {name: 'Andy'}) SET n.bad = {a: 1}
      """
    Then a TypeError should be raised at runtime: InvalidPropertyType

  Scenario: [13] DELETE a relationship, then DETACH DELETE a node with its relationships
    When executing query:
      """
      MATCH (:Swedish {name: 'Andy'})-[r:KNOWS]->(p)
      DELETE r
      WITH count(*) AS deleted
      MATCH (g {name: 'George'})
      DETACH DELETE g
      RETURN deleted
      """
    Then the result should be, in any order:
      | deleted |
      | 1       |
    And the side effects should be:
      | -nodes         | 1 |
      | -relationships | 2 |
      | -properties    | 1 |

  Scenario: [14] DELETE of a node with relationships fails; NODETACH DELETE the same
    When executing query:
      """
      MATCH (n {name: 'Peter'}) NODETACH DELETE n
      """
    Then a ConstraintValidationFailed should be raised at runtime: DeleteConnectedNode

  Scenario: [15] DETACH DELETE of every node empties the graph
    When executing query:
      """
      MATCH (n) DETACH DELETE n
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 4 |
      | -relationships | 3 |
      | -labels        | 1 |
      | -properties    | 7 |
