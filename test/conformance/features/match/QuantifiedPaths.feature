# Written from the Neo4j 5 Cypher Manual, "Quantified path patterns" and "Quantified relationships"
# (patterns/variable-length-patterns): the quantifiers {n}, {n,m}, {n,}, {,m}, + and *, and the
# one-relationship forms Weft plans as variable-length relationships (the general forms are in
# QuantifiedPathPatterns.feature).
Feature: QuantifiedPaths - quantified relationships and one-relationship quantified path patterns

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:Stop {name: 'A'})-[:LINK {km: 1}]->(b:Stop {name: 'B'})-[:LINK {km: 2}]->(c:Stop:Closed {name: 'C'})
             -[:LINK {km: 3}]->(d:Stop {name: 'D'}),
             (a)-[:BUS {km: 9}]->(d)
      """

  Scenario: [1] A quantified relationship with {n,m}
    When executing query:
      """
      MATCH (:Stop {name: 'A'})-[:LINK]->{1,2}(s:Stop)
      RETURN s.name AS reached
      """
    Then the result should be, in any order:
      | reached |
      | 'B'     |
      | 'C'     |
    And no side effects

  Scenario: [2] An exact count {n}
    When executing query:
      """
      MATCH (:Stop {name: 'A'})-[:LINK]->{3}(s:Stop)
      RETURN s.name AS reached
      """
    Then the result should be, in any order:
      | reached |
      | 'D'     |
    And no side effects

  Scenario: [3] + is one or more, * is zero or more
    When executing query:
      """
      MATCH (:Stop {name: 'B'})-[:LINK]->+(s:Stop)
      WITH collect(s.name) AS plus
      MATCH (:Stop {name: 'B'})-[:LINK]->*(t:Stop)
      RETURN plus, collect(t.name) AS star
      """
    Then the result should be (ignoring element order for lists):
      | plus       | star            |
      | ['C', 'D'] | ['B', 'C', 'D'] |
    And no side effects

  Scenario: [4] {,m} starts at zero, {n,} has no upper bound
    When executing query:
      """
      MATCH (:Stop {name: 'C'})-[:LINK]->{,1}(s:Stop)
      WITH collect(s.name) AS upTo
      MATCH (:Stop {name: 'A'})-[:LINK]->{2,}(t:Stop)
      RETURN upTo, collect(t.name) AS atLeast
      """
    Then the result should be (ignoring element order for lists):
      | upTo       | atLeast    |
      | ['C', 'D'] | ['C', 'D'] |
    And no side effects

  Scenario: [5] The relationship variable of a quantified relationship is a list
    When executing query:
      """
      MATCH (:Stop {name: 'A'})-[r:LINK]->{3}(:Stop)
      RETURN size(r) AS hops, reduce(t = 0, x IN r | t + x.km) AS km
      """
    Then the result should be, in any order:
      | hops | km |
      | 3    | 6  |
    And no side effects

  Scenario: [6] A quantified path pattern of one relationship
    When executing query:
      """
      MATCH p = (:Stop {name: 'A'}) (()-[:LINK|BUS]->()){1,3} (s:Stop {name: 'D'})
      RETURN length(p) AS hops
      ORDER BY hops
      """
    Then the result should be, in order:
      | hops |
      | 1    |
      | 3    |
    And no side effects

  Scenario: [7] Properties on the quantified relationship hold for every hop
    When executing query:
      """
      MATCH (:Stop {name: 'A'}) (()-[:LINK {km: 1}]->()){1,3} (s)
      RETURN s.name AS reached
      """
    Then the result should be, in any order:
      | reached |
      | 'B'     |
    And no side effects

  Scenario: [8] A named inner node is a group variable: a list of nodes after the pattern
    When executing query:
      """
      MATCH (:Stop {name: 'A'}) ((x)-[:LINK]->(y)){1,3} (s)
      RETURN s.name AS reached, [n IN x | n.name] AS xs
      """
    Then the result should be, in any order:
      | reached | xs              |
      | 'B'     | ['A']           |
      | 'C'     | ['A', 'B']      |
      | 'D'     | ['A', 'B', 'C'] |
    And no side effects

  Scenario: [9] A quantifier whose upper bound is below its lower bound
    When executing query:
      """
      MATCH (a)-[:LINK]->{3,1}(b)
      RETURN b
      """
    Then a SyntaxError should be raised at compile time: InvalidRelationshipPattern

  Scenario: [10] A quantified relationship cannot be created
    When executing query:
      """
      CREATE (:A)-[:LINK]->{2}(:B)
      """
    Then a SyntaxError should be raised at compile time: CreatingVarLength

  Scenario: [11] A label expression on an inner node holds at every iteration
    When executing query:
      """
      MATCH (:Stop {name: 'A'}) ((:Stop)-[:LINK]->(:Stop&!Closed)){1,3} (s)
      RETURN s.name AS reached
      """
    Then the result should be, in any order:
      | reached |
      | 'B'     |
    And no side effects

  Scenario: [12] Plain labels and properties on the inner nodes hold at every hop
    When executing query:
      """
      MATCH (a:Stop {name: 'A'}) ((:Stop)-[:LINK]->(:Stop)){1,3} (s)
      WITH collect(s.name) AS any
      MATCH (:Stop {name: 'D'}) ((:Stop)<-[:LINK]-(:Stop:Closed)){1,3} (t)
      RETURN any, collect(t.name) AS viaClosed
      """
    Then the result should be (ignoring element order for lists):
      | any             | viaClosed |
      | ['B', 'C', 'D'] | ['C']     |
    And no side effects

  Scenario: [13] A WHERE inside the quantified path applies to each hop's relationship
    When executing query:
      """
      MATCH (:Stop {name: 'A'}) (()-[r:LINK]->() WHERE r.km < 3){1,3} (s)
      RETURN s.name AS reached, size(r) AS hops
      """
    Then the result should be, in any order:
      | reached | hops |
      | 'B'     | 1    |
      | 'C'     | 2    |
    And no side effects

  Scenario: [14] An inner node property holds at every hop
    When executing query:
      """
      MATCH (s:Stop) (()-[:LINK]->({name: 'C'})){1,2} (t)
      RETURN s.name AS from, t.name AS to
      """
    Then the result should be, in any order:
      | from | to  |
      | 'B'  | 'C' |
    And no side effects

  Scenario: [15] An undirected hop between decorated nodes
    When executing query:
      """
      MATCH (s:Stop {name: 'B'}) ((:Stop)-[:LINK]-(:Stop)){1,2} (t)
      RETURN t.name AS reached
      """
    Then the result should be, in any order:
      | reached |
      | 'A'     |
      | 'C'     |
      | 'D'     |
    And no side effects
