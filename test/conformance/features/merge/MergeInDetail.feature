# Sources: openCypher 9 reference, MERGE (whole-pattern match-or-create semantics, ON CREATE / ON MATCH);
# Neo4j Cypher manual 5, clauses/merge (bound and unbound ends, direction, null property values).
Feature: MergeInDetail - ON CREATE and ON MATCH, relationship MERGE with bound ends, partial patterns and nulls

  Scenario: [1] ON CREATE runs when nothing matched, and ON MATCH does not
    Given an empty graph
    When executing query:
      """
      MERGE (c:City {code: 'OSL'})
        ON CREATE SET c.founded = 1048
        ON MATCH SET c.visits = 1
      RETURN c.code AS code, c.founded AS founded, c.visits AS visits
      """
    Then the result should be, in any order:
      | code  | founded | visits |
      | 'OSL' | 1048    | null   |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [2] ON MATCH runs on every matched node, and ON CREATE does not
    Given an empty graph
    And having executed:
      """
      CREATE (:City {code: 'BGO', region: 'west'}), (:City {code: 'TRD', region: 'west'})
      """
    When executing query:
      """
      MERGE (c:City {region: 'west'})
        ON CREATE SET c.fresh = true
        ON MATCH SET c.seen = c.code + '!'
      RETURN c.seen AS seen, c.fresh AS fresh
      """
    Then the result should be, in any order:
      | seen   | fresh |
      | 'BGO!' | null  |
      | 'TRD!' | null  |
    And the side effects should be:
      | +properties | 2 |

  Scenario: [3] A relationship MERGE between bound nodes creates only the relationship
    Given an empty graph
    And having executed:
      """
      CREATE (:Port {name: 'Kiel'}), (:Port {name: 'Oslo'})
      """
    When executing query:
      """
      MATCH (a:Port {name: 'Kiel'}), (b:Port {name: 'Oslo'})
      MERGE (a)-[f:FERRY]->(b)
      RETURN startNode(f).name AS from, endNode(f).name AS to
      """
    Then the result should be, in any order:
      | from   | to     |
      | 'Kiel' | 'Oslo' |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [4] A directed MERGE against the existing direction creates a second relationship
    Given an empty graph
    And having executed:
      """
      CREATE (:Port {name: 'Kiel'})-[:FERRY]->(:Port {name: 'Oslo'})
      """
    When executing query:
      """
      MATCH (a:Port {name: 'Kiel'}), (b:Port {name: 'Oslo'})
      MERGE (b)-[f:FERRY]->(a)
      RETURN startNode(f).name AS from
      """
    Then the result should be, in any order:
      | from   |
      | 'Oslo' |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [5] An undirected MERGE with nothing to match creates one relationship, left to right
    Given an empty graph
    And having executed:
      """
      CREATE (:Port {name: 'Kiel'}), (:Port {name: 'Oslo'})
      """
    When executing query:
      """
      MATCH (a:Port {name: 'Kiel'}), (b:Port {name: 'Oslo'})
      MERGE (a)-[f:FERRY]-(b)
      RETURN startNode(f).name AS from, endNode(f).name AS to
      """
    Then the result should be, in any order:
      | from   | to     |
      | 'Kiel' | 'Oslo' |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [6] A pattern that exists only in part is created whole, reusing nothing unbound
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Ada'})
      """
    When executing query:
      """
      MERGE (p:Person {name: 'Ada'})-[:OWNS]->(b:Boat {name: 'Kon'})
      RETURN p.name AS owner, b.name AS boat
      """
    Then the result should be, in any order:
      | owner | boat  |
      | 'Ada' | 'Kon' |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 1 |
      | +properties    | 2 |
    When executing control query:
      """
      MATCH (p:Person {name: 'Ada'}) RETURN count(p) AS people
      """
    Then the result should be, in any order:
      | people |
      | 2      |

  Scenario: [7] Binding one end first makes MERGE create only the missing part
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Ada'})
      """
    When executing query:
      """
      MERGE (p:Person {name: 'Ada'})
      MERGE (p)-[:OWNS]->(b:Boat {name: 'Kon'})
      RETURN p.name AS owner, b.name AS boat
      """
    Then the result should be, in any order:
      | owner | boat  |
      | 'Ada' | 'Kon' |
    And the side effects should be:
      | +nodes         | 1 |
      | +relationships | 1 |
      | +labels        | 1 |
      | +properties    | 1 |

  Scenario: [8] MERGE after DELETE in the same statement creates anew
    Given an empty graph
    And having executed:
      """
      CREATE (:Token {v: 7})
      """
    When executing query:
      """
      MATCH (t:Token) DELETE t
      MERGE (u:Token {v: 7})
      RETURN u.v AS v
      """
    Then the result should be, in any order:
      | v |
      | 7 |
    And the side effects should be:
      | +nodes      | 1 |
      | -nodes      | 1 |
      | +properties | 1 |
      | -properties | 1 |

  Scenario Outline: [9] A null property value in a MERGE pattern is refused
    Given an empty graph
    When executing query:
      """
      <query>
      """
    Then a SemanticError should be raised at runtime: MergeReadOwnWrites

    Examples:
      | query                                                         |
      | MERGE (n:Tag {name: null})                                    |
      | WITH {} AS m MERGE (n:Tag {name: m.missing})                  |
      | MERGE (a:A) MERGE (b:B) MERGE (a)-[:R {w: null}]->(b)         |

  Scenario: [10] ON CREATE SET may read the properties MERGE just wrote; ON MATCH sees earlier rows' writes
    Given an empty graph
    When executing query:
      """
      UNWIND [3, 3, 4] AS k
      MERGE (n:Slot {k: k})
        ON CREATE SET n.double = n.k * 2, n.created = 1
        ON MATCH SET n.created = n.created + 1
      RETURN k, n.double AS double
      """
    Then the result should be, in any order:
      | k | double |
      | 3 | 6      |
      | 3 | 6      |
      | 4 | 8      |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 6 |
    When executing control query:
      """
      MATCH (n:Slot) RETURN n.k AS k, n.created AS created
      """
    Then the result should be, in any order:
      | k | created |
      | 3 | 2       |
      | 4 | 1       |

  Scenario: [11] MERGE of a bound node alone is refused
    Given any graph
    When executing query:
      """
      MATCH (n) MERGE (n) RETURN n
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [12] A relationship MERGE between two bound nodes matches a parallel relationship once per match
    Given an empty graph
    And having executed:
      """
      CREATE (a:X {i: 1}), (b:X {i: 2}), (a)-[:L]->(b), (a)-[:L]->(b)
      """
    When executing query:
      """
      MATCH (a:X {i: 1}), (b:X {i: 2})
      MERGE (a)-[r:L]->(b)
      RETURN count(r) AS matched
      """
    Then the result should be, in any order:
      | matched |
      | 2       |
    And no side effects

  Scenario: [13] MERGE with a self-loop on a bound node
    Given an empty graph
    And having executed:
      """
      CREATE (:Loop {i: 1})
      """
    When executing query:
      """
      MATCH (n:Loop)
      MERGE (n)-[:SELF]->(n)
      WITH n
      MERGE (n)-[:SELF]->(n)
      RETURN size([(n)-[:SELF]->(n) | 1]) AS loops
      """
    Then the result should be, in any order:
      | loops |
      | 1     |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [14] SET after MERGE applies to matched and created rows alike
    Given an empty graph
    And having executed:
      """
      CREATE (:Acct {id: 1, n: 10})
      """
    When executing query:
      """
      UNWIND [1, 2] AS id
      MERGE (a:Acct {id: id})
      SET a.touched = true
      RETURN a.id AS id, a.n AS n, a.touched AS touched
      """
    Then the result should be, in any order:
      | id | n    | touched |
      | 1  | 10   | true    |
      | 2  | null | true    |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 3 |
