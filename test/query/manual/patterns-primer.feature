# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Primer": fixed-length paths, quantified
# relationships and path patterns, a WHERE holding an EXISTS subquery, group variables unwound into a
# later MATCH, a cycle through an equijoin and a graph pattern, on the page's Stations and Stops. Times
# print without zero seconds ('22:36Z'), as in the openCypher TCK (docs/cypher.md, 2.5).
Feature: Manual - patterns: primer

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (n1:Station {name: 'Denmark Hill'}),
      (n5:Station {name: 'Battersea Park'}),
      (n6:Station {name: 'Wandsworth Road'}),
      (n15:Station {name: 'Clapham High Street'}),
      (n16:Station {name: 'Peckham Rye'}),
      (n17:Station {name: 'Brixton'}),
      (n14:Station {name: 'London Victoria'}),
      (n18:Station {name: 'Clapham Junction'}),
      (p10:Stop {departs: time('22:37'), arrives: time('22:36')}),
      (p0:Stop {departs: time('22:41'), arrives: time('22:41')}),
      (p2:Stop {departs: time('22:43'), arrives: time('22:43')}),
      (p17:Stop {arrives: time('22:50'), departs: time('22:50')}),
      (p18:Stop {arrives: time('22:46'), departs: time('22:46')}),
      (p19:Stop {departs: time('22:33'), arrives: time('22:31')}),
      (p21:Stop {arrives: time('22:55')}),
      (p20:Stop {departs: time('22:44'), arrives: time('22:43')}),
      (p22:Stop {arrives: time('22:55')}),
      (p23:Stop {arrives: time('22:48')}),
      (n15)-[:LINK {distance: 1.96}]->(n1)-[:LINK {distance: 0.86}]->(n16),
      (n15)-[:LINK {distance: 0.39}]->(n6)<-[:LINK {distance: 0.7}]-(n5)-[:LINK {distance: 1.24}]->(n14), (n5)-[:LINK {distance: 1.45}]->(n18),
      (n14)<-[:LINK {distance: 3.18}]-(n17)-[:LINK {distance: 1.11}]->(n1),
      (p2)-[:CALLS_AT]->(n6), (p17)-[:CALLS_AT]->(n5), (p19)-[:CALLS_AT]->(n16),
      (p22)-[:CALLS_AT]->(n14), (p18)-[:CALLS_AT]->(n18), (p0)-[:CALLS_AT]->(n15), (p23)-[:CALLS_AT]->(n5), (p20)-[:CALLS_AT]->(n1),
      (p21)-[:CALLS_AT]->(n14), (p10)-[:CALLS_AT]->(n1), (p19)-[:NEXT]->(p10)-[:NEXT]->(p0)-[:NEXT]->(p2)-[:NEXT]->(p23),
      (p22)<-[:NEXT]-(p17)<-[:NEXT]-(p18), (p21)<-[:NEXT]-(p20)
      """

  Scenario: [1] Every node, and the Stop nodes
    When executing query:
      """
      MATCH () WITH count(*) AS numNodes
      MATCH (:Stop)
      RETURN numNodes, count(*) AS numStops
      """
    Then the result should be, in any order:
      | numNodes | numStops |
      | 18       | 10       |
    And no side effects

  Scenario: [2] The arrival times of the trains calling at Denmark Hill
    When executing query:
      """
      MATCH (s:Stop)-[:CALLS_AT]->(:Station {name: 'Denmark Hill'})
      RETURN toString(s.arrives) AS arrivalTime
      """
    Then the result should be, in any order:
      | arrivalTime |
      | '22:36Z'    |
      | '22:43Z'    |
    And no side effects

  Scenario: [3] An inline WHERE picks the service whose next calling point is returned
    When executing query:
      """
      MATCH (n:Station {name: 'Denmark Hill'})<-[:CALLS_AT]-
              (s:Stop WHERE s.departs = time('22:37'))-[:NEXT]->
              (:Stop)-[:CALLS_AT]->(d:Station)
      RETURN d.name AS nextCallingPoint
      """
    Then the result should be, in any order:
      | nextCallingPoint      |
      | 'Clapham High Street' |
    And no side effects

  Scenario: [4] A quantified relationship's variable lists the links of each route
    When executing query:
      """
      MATCH (:Station {name: 'Peckham Rye'})-[link:LINK]-+
              (:Station {name: 'Clapham Junction'})
      RETURN reduce(acc = 0.0, l IN link | round(acc + l.distance, 2)) AS totalDistance
      """
    Then the result should be, in any order:
      | totalDistance |
      | 7.84          |
      | 5.36          |
    And no side effects

  Scenario: [5] A quantified path pattern with a WHERE on every link
    When executing query:
      """
      MATCH (:Station {name: 'Peckham Rye'})
            (()-[link:LINK]-(s) WHERE link.distance <= 2)+
            (:Station {name: 'London Victoria'})
      UNWIND s AS station
      RETURN station.name AS callingPoint
      """
    Then the result should be, in order:
      | callingPoint          |
      | 'Denmark Hill'        |
      | 'Clapham High Street' |
      | 'Wandsworth Road'     |
      | 'Battersea Park'      |
      | 'London Victoria'     |
    And no side effects

  Scenario: [6] An EXISTS subquery in a node's WHERE anchors on the last stop of each service
    When executing query:
      """
      MATCH (:Station {name: 'Denmark Hill'})<-[:CALLS_AT]-(s1:Stop)-[:NEXT]->+
              (sN:Stop WHERE NOT EXISTS { (sN)-[:NEXT]->(:Stop) })-[:CALLS_AT]->
              (d:Station)
      RETURN toString(s1.departs) AS departure, toString(sN.arrives) AS arrival,
             d.name AS finalDestination
      """
    Then the result should be, in any order:
      | departure | arrival  | finalDestination  |
      | '22:37Z'  | '22:48Z' | 'Battersea Park'  |
      | '22:44Z'  | '22:55Z' | 'London Victoria' |
    And no side effects

  Scenario: [7] A group variable unwound into a later MATCH lists the calling points
    When executing query:
      """
      MATCH (:Station {name: 'Peckham Rye'})<-[:CALLS_AT]-(:Stop)
            (()-[:NEXT]->(s:Stop))+
            ()-[:CALLS_AT]->(:Station {name: 'Battersea Park'})
      UNWIND s AS stop
      MATCH (stop)-[:CALLS_AT]->(station:Station)
      RETURN toString(stop.arrives) AS arrival, station.name AS callingPoint
      """
    Then the result should be, in any order:
      | arrival  | callingPoint          |
      | '22:36Z' | 'Denmark Hill'        |
      | '22:41Z' | 'Clapham High Street' |
      | '22:43Z' | 'Wandsworth Road'     |
      | '22:48Z' | 'Battersea Park'      |
    And no side effects

  Scenario: [8] A node variable repeated at both ends finds the stations on a cycle
    When executing query:
      """
      MATCH (n:Station)-[:LINK]-+(n)
      RETURN DISTINCT n.name AS station
      """
    Then the result should be, in any order:
      | station               |
      | 'Denmark Hill'        |
      | 'Battersea Park'      |
      | 'Wandsworth Road'     |
      | 'Clapham High Street' |
      | 'Brixton'             |
      | 'London Victoria'     |
    And no side effects

  Scenario: [9] A graph pattern joins two services at the changeover stop
    When executing query:
      """
      MATCH (:Station {name: 'Denmark Hill'})<-[:CALLS_AT]-
              (s1:Stop)-[:NEXT]->+(s2:Stop)-[:CALLS_AT]->
              (c:Station)<-[:CALLS_AT]-(x:Stop),
             (:Station {name: 'Clapham Junction'})<-[:CALLS_AT]-
               (t1:Stop)-[:NEXT]->+(x)-[:NEXT]->+(:Stop)-[:CALLS_AT]->
               (:Station {name: 'London Victoria'})
      WHERE t1.departs = time('22:46')
            AND s2.arrives < x.departs
      RETURN toString(s1.departs) AS departure, toString(s2.arrives) AS changeArrival,
             c.name AS changeAt
      """
    Then the result should be, in any order:
      | departure | changeArrival | changeAt         |
      | '22:37Z'  | '22:48Z'      | 'Battersea Park' |
    And no side effects
