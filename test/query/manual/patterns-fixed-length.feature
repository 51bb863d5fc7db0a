# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Fixed length patterns": node patterns
# (labels, label expressions, property maps, WHERE), relationship patterns (direction, type, property
# map), the valid and invalid path patterns it lists, and its path pattern matching example. The
# relationship WHERE that reads the clock (`time() + duration(r.duration) < time('22:00')`) is left out:
# its answer depends on when it runs.
Feature: Manual - patterns: fixed length patterns

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (pmr:Station {name: 'Peckham Rye'}),
        (dmk:Station {name: 'Denmark Hill'}),
        (vic:Station {name: 'London Victoria'}),
        (clp:Station {name: 'Clapham High Street'}),
        (eph:Station {name: 'Elephant & Castle'}),
        (vic)<-[:CALLS_AT]-(s1:Stop {departs: time('11:55')}),
        (dmk)<-[:CALLS_AT]-(s2:Stop {departs: time('11:44')})-[:NEXT]->(s1),
        (pmr)<-[:CALLS_AT]-(s3:Stop {departs: time('11:40')})-[:NEXT]->(s2),
        (clp)<-[:CALLS_AT]-(s4:Stop {departs: time('11:41')}),
        (dmk)<-[:CALLS_AT]-(s5:Stop {departs: time('11:37')})-[:NEXT]->(s4),
        (pmr)<-[:CALLS_AT]-(s6:Stop {departs: time('11:33')})-[:NEXT]->(s5),
        (eph)<-[:CALLS_AT]-(s7:Stop {departs: time('11:54')}),
        (dmk)<-[:CALLS_AT]-(s8:Stop {departs: time('11:47')})-[:NEXT]->(s7),
        (pmr)<-[:CALLS_AT]-(s9:Stop {departs: time('11:44')})-[:NEXT]->(s8)
      """

  Scenario: [1] The stops that call at Denmark Hill
    When executing query:
      """
      MATCH (s:Stop)-[:CALLS_AT]->(:Station {name: 'Denmark Hill'})
      RETURN toString(s.departs) AS departureTime
      """
    Then the result should be, in any order:
      | departureTime |
      | '11:44Z'      |
      | '11:47Z'      |
      | '11:37Z'      |
    And no side effects

  Scenario: [2] The empty node pattern matches every node, a label only the nodes that have it
    When executing query:
      """
      MATCH () WITH count(*) AS all
      MATCH (n:Stop) WITH all, count(n) AS stops
      MATCH (n) WHERE n.name IS NOT NULL
      RETURN all, stops, count(n.name) AS named
      """
    Then the result should be, in any order:
      | all | stops | named |
      | 14  | 9     | 5     |
    And no side effects

  Scenario: [3] A label expression, a property map and a WHERE in a node pattern
    Given having executed:
      """
      CREATE (:TrainStation:BusStation {name: 'Preston Interchange', mode: 'Rail'}),
             (:TrainStation {name: 'Preston Park', mode: 'Rail'}),
             (:StationGroup {name: 'Preston group'}),
             (:Station {name: 'Preston', mode: 'Rail'})
      """
    When executing query:
      """
      MATCH (n:(TrainStation&BusStation)|StationGroup) WITH collect(n.name) AS expression
      MATCH (n { mode: 'Rail' }) WITH expression, collect(n.name) AS rail
      MATCH (n:Station WHERE n.name STARTS WITH 'Preston')
      RETURN expression, rail, collect(n.name) AS preston
      """
    Then the result should be (ignoring element order for lists):
      | expression                               | rail                                                    | preston     |
      | ['Preston Interchange', 'Preston group'] | ['Preston Interchange', 'Preston Park', 'Preston']      | ['Preston'] |
    And no side effects

  Scenario: [4] Relationship patterns: any direction, a direction, a type and a property map
    Given having executed:
      """
      MATCH (a:Station {name: 'Peckham Rye'}), (b:Station {name: 'Denmark Hill'})
      CREATE (a)-[:LINK {distance: 0.24, duration: 'PT4M'}]->(b)
      """
    When executing query:
      """
      MATCH (:Station {name: 'Peckham Rye'})-[r]-() WITH count(r) AS either
      MATCH (:Station {name: 'Peckham Rye'})-[r]->() WITH either, count(r) AS out
      MATCH ()-[r:CALLS_AT]->(:Station {name: 'Peckham Rye'}) WITH either, out, count(r) AS calls
      MATCH (a)-[{ distance: 0.24, duration: 'PT4M' }]->(b)
      RETURN either, out, calls, a.name AS from, b.name AS to
      """
    Then the result should be, in any order:
      | either | out | calls | from          | to             |
      | 4      | 1   | 3     | 'Peckham Rye' | 'Denmark Hill' |
    And no side effects

  Scenario Outline: [5] Valid path patterns: <pattern>
    When executing query:
      """
      MATCH <pattern>
      RETURN count(*) AS matches
      """
    Then the result should be, in any order:
      | matches |
      | <count> |
    And no side effects

    Examples:
      | pattern                                                                  | count |
      | ()                                                                       | 14    |
      | (s)--(e)                                                                 | 30    |
      | (:Station)--()<--(m WHERE m.departs > time('12:00'))-->()-[:NEXT]->(n)   | 0     |

  Scenario Outline: [6] Invalid path patterns: <pattern>
    When executing query:
      """
      MATCH <pattern>
      RETURN count(*) AS matches
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | pattern   |
      | -->       |
      | ()-->     |
      | ()-->-->()|
