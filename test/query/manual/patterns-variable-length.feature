# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Variable-length patterns": quantified path
# patterns, quantified relationships, group variables and predicates in quantified path patterns (its
# point.distance() example is spatial and left to the spatial scenarios; the graph is built without the
# stations' locations).
Feature: Manual - patterns: variable-length patterns

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (pmr:Station {name: 'Peckham Rye'}),
        (dmk:Station {name: 'Denmark Hill'}),
        (clp:Station {name: 'Clapham High Street'}),
        (wwr:Station {name: 'Wandsworth Road'}),
        (clj:Station {name: 'Clapham Junction'}),
        (s1:Stop {arrives: time('17:19'), departs: time('17:20')}),
        (s2:Stop {arrives: time('17:12'), departs: time('17:13')}),
        (s3:Stop {arrives: time('17:10'), departs: time('17:11')}),
        (s4:Stop {arrives: time('17:06'), departs: time('17:07')}),
        (s5:Stop {arrives: time('16:58'), departs: time('17:01')}),
        (s6:Stop {arrives: time('17:17'), departs: time('17:20')}),
        (s7:Stop {arrives: time('17:08'), departs: time('17:10')}),
        (clj)<-[:CALLS_AT]-(s1), (wwr)<-[:CALLS_AT]-(s2),
        (clp)<-[:CALLS_AT]-(s3), (dmk)<-[:CALLS_AT]-(s4),
        (pmr)<-[:CALLS_AT]-(s5), (clj)<-[:CALLS_AT]-(s6),
        (dmk)<-[:CALLS_AT]-(s7),
        (s5)-[:NEXT {distance: 1.2}]->(s4), (s4)-[:NEXT {distance: 0.34}]->(s3),
        (s3)-[:NEXT {distance: 0.76}]->(s2), (s2)-[:NEXT {distance: 0.3}]->(s1),
        (s7)-[:NEXT {distance: 1.4}]->(s6)
      """

  Scenario: [1] Two fixed-length path patterns joined by UNION find both services
    When executing query:
      """
      MATCH (:Station { name: 'Denmark Hill' })<-[:CALLS_AT]-(d:Stop)
              -[:NEXT]->(:Stop)
              -[:NEXT]->(:Stop)
              -[:NEXT]->(a:Stop)-[:CALLS_AT]->
            (:Station { name: 'Clapham Junction' })
      RETURN toString(d.departs) AS departureTime, toString(a.arrives) AS arrivalTime
      UNION
      MATCH (:Station { name: 'Denmark Hill' })<-[:CALLS_AT]-(d:Stop)
              -[:NEXT]->(a:Stop)-[:CALLS_AT]->
            (:Station { name: 'Clapham Junction' })
      RETURN toString(d.departs) AS departureTime, toString(a.arrives) AS arrivalTime
      """
    Then the result should be, in any order:
      | departureTime | arrivalTime |
      | '17:07Z'      | '17:19Z'    |
      | '17:10Z'      | '17:17Z'    |
    And no side effects

  Scenario: [2] One quantified path pattern finds both services
    When executing query:
      """
      MATCH (:Station { name: 'Denmark Hill' })<-[:CALLS_AT]-(d:Stop)
            ((:Stop)-[:NEXT]->(:Stop)){1,3}
            (a:Stop)-[:CALLS_AT]->(:Station { name: 'Clapham Junction' })
      RETURN toString(d.departs) AS departureTime, toString(a.arrives) AS arrivalTime
      """
    Then the result should be, in any order:
      | departureTime | arrivalTime |
      | '17:10Z'      | '17:17Z'    |
      | '17:07Z'      | '17:19Z'    |
    And no side effects

  Scenario Outline: [3] A quantified path pattern, without labels inside, and as a quantified relationship: <form>
    When executing query:
      """
      MATCH (d:Station { name: 'Denmark Hill' })<-[:CALLS_AT]-<path>-[:CALLS_AT]->(a:Station { name: 'Clapham Junction' })
      WHERE m.arrives < time('17:18')
      RETURN toString(n.departs) AS departureTime
      """
    Then the result should be, in any order:
      | departureTime |
      | '17:10Z'      |
    And no side effects

    Examples:
      | form                              | path                                        |
      | quantified path pattern           | (n:Stop) ((:Stop)-[:NEXT]->(:Stop)){1,10} (m:Stop) |
      | quantified path pattern, no label | (n:Stop) (()-[:NEXT]->()){1,10} (m:Stop)    |
      | quantified relationship           | (n:Stop)-[:NEXT]->{1,10}(m:Stop)            |

  Scenario: [4] Group variables are lists of what each iteration bound
    When executing query:
      """
      MATCH (:Station {name: 'Denmark Hill'})<-[:CALLS_AT]-(origin)
            ((l)-[r:NEXT]->(m)){1,3}
            ()-[:CALLS_AT]->(:Station {name: 'Clapham Junction'})
      RETURN [t IN origin.departs + [stop IN m | stop.departs] | toString(t)] AS departureTimes,
             reduce(acc = 0.0, next IN r | round(acc + next.distance, 2)) AS totalDistance
      """
    Then the result should be, in any order:
      | departureTimes                           | totalDistance |
      | ['17:10Z', '17:20Z']                     | 1.4           |
      | ['17:07Z', '17:11Z', '17:13Z', '17:20Z'] | 1.4           |
    And no side effects

  Scenario: [5] Group variables bind one element per iteration, a singleton once
    When executing query:
      """
      MATCH (:Station {name: 'Denmark Hill'})<-[:CALLS_AT]-(origin)
            ((l)-[r:NEXT]->(m)){1,3}
            ()-[:CALLS_AT]->(:Station {name: 'Clapham Junction'})
      RETURN toString(origin.departs) AS origin, size(l) AS ls, size(r) AS rs, size(m) AS ms,
             l[0] = origin AS firstIsOrigin, l[1..] = m[..-1] AS joined
      """
    Then the result should be, in any order:
      | origin   | ls | rs | ms | firstIsOrigin | joined |
      | '17:07Z' | 3  | 3  | 3  | true          | true   |
      | '17:10Z' | 1  | 1  | 1  | true          | true   |
    And no side effects
