# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Shortest paths": SHORTEST k, ALL SHORTEST,
# SHORTEST k GROUPS, ANY, partitions, pre-filters and post-filters, a pre-filter over a path variable,
# and the rule that a selective path pattern is the only path pattern of its MATCH; each example on the
# page's rail network.
Feature: Manual - patterns: shortest paths

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (asc:Station {name: 'Ashchurch'}),
             (bmv:Station {name: 'Bromsgrove'}),
             (cnm:Station {name: 'Cheltenham Spa'}),
             (dtw:Station {name: 'Droitwich Spa'}),
             (hby:Station {name: 'Hartlebury'}),
             (psh:Station {name: 'Pershore'}),
             (wop:Station {name: 'Worcestershire Parkway'}),
             (wof:Station {name: 'Worcester Foregate Street'}),
             (wos:Station {name: 'Worcester Shrub Hill'})
      CREATE (asc)-[:LINK {distance: 7.25}]->(cnm),
             (asc)-[:LINK {distance: 11.29}]->(wop),
             (asc)-[:LINK {distance: 14.75}]->(wos),
             (bmv)-[:LINK {distance: 31.14}]->(cnm),
             (bmv)-[:LINK {distance: 6.16}]->(dtw),
             (bmv)-[:LINK {distance: 12.6}]->(wop),
             (dtw)-[:LINK {distance: 5.64}]->(hby),
             (dtw)-[:LINK {distance: 6.03}]->(wof),
             (dtw)-[:LINK {distance: 5.76}]->(wos),
             (psh)-[:LINK {distance: 4.16}]->(wop),
             (wop)-[:LINK {distance: 3.71}]->(wos),
             (wof)-[:LINK {distance: 0.65}]->(wos)
      """

  Scenario: [1] SHORTEST 1 returns one of the two paths tied for shortest
    When executing query:
      """
      MATCH p = SHORTEST 1 (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN length(p) AS result
      """
    Then the result should be, in any order:
      | result |
      | 2      |
    And no side effects

  Scenario: [2] SHORTEST 2 returns both shortest paths
    When executing query:
      """
      MATCH p = SHORTEST 2 (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN [n IN nodes(p) | n.name] AS stops
      """
    Then the result should be, in any order:
      | stops                                                                 |
      | ['Worcester Shrub Hill', 'Droitwich Spa', 'Bromsgrove']               |
      | ['Worcester Shrub Hill', 'Worcestershire Parkway', 'Bromsgrove']      |
    And no side effects

  Scenario: [3] SHORTEST 5 returns the two shortest and the three second shortest paths
    When executing query:
      """
      MATCH p = SHORTEST 5 (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN [n IN nodes(p) | n.name] AS stops
      """
    Then the result should be, in any order:
      | stops                                                                                  |
      | ['Worcester Shrub Hill', 'Droitwich Spa', 'Bromsgrove']                                |
      | ['Worcester Shrub Hill', 'Worcestershire Parkway', 'Bromsgrove']                       |
      | ['Worcester Shrub Hill', 'Worcester Foregate Street', 'Droitwich Spa', 'Bromsgrove']   |
      | ['Worcester Shrub Hill', 'Ashchurch', 'Worcestershire Parkway', 'Bromsgrove']          |
      | ['Worcester Shrub Hill', 'Ashchurch', 'Cheltenham Spa', 'Bromsgrove']                  |
    And no side effects

  Scenario: [4] ALL SHORTEST returns every path tied for shortest
    When executing query:
      """
      MATCH p = ALL SHORTEST (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN [n IN nodes(p) | n.name] AS stops
      """
    Then the result should be, in any order:
      | stops                                                                 |
      | ['Worcester Shrub Hill', 'Droitwich Spa', 'Bromsgrove']               |
      | ['Worcester Shrub Hill', 'Worcestershire Parkway', 'Bromsgrove']      |
    And no side effects

  Scenario: [5] SHORTEST 2 GROUPS returns the paths of the two smallest lengths
    When executing query:
      """
      MATCH p = SHORTEST 2 GROUPS (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN [n IN nodes(p) | n.name] AS stops, length(p) AS pathLength
      """
    Then the result should be, in any order:
      | stops                                                                                  | pathLength |
      | ['Worcester Shrub Hill', 'Droitwich Spa', 'Bromsgrove']                                | 2          |
      | ['Worcester Shrub Hill', 'Worcestershire Parkway', 'Bromsgrove']                       | 2          |
      | ['Worcester Shrub Hill', 'Worcester Foregate Street', 'Droitwich Spa', 'Bromsgrove']   | 3          |
      | ['Worcester Shrub Hill', 'Ashchurch', 'Worcestershire Parkway', 'Bromsgrove']          | 3          |
      | ['Worcester Shrub Hill', 'Ashchurch', 'Cheltenham Spa', 'Bromsgrove']                  | 3          |
    And no side effects

  Scenario: [6] More groups than there are lengths returns every path
    When executing query:
      """
      MATCH p = SHORTEST 8 GROUPS (wos:Station)-[:LINK]-+(bmv:Station)
      WHERE wos.name = 'Worcester Shrub Hill' AND bmv.name = 'Bromsgrove'
      RETURN length(p) AS pathLength, count(*) AS numPaths
      """
    Then the result should be, in any order:
      | pathLength | numPaths |
      | 2          | 2        |
      | 3          | 3        |
      | 4          | 1        |
      | 5          | 4        |
      | 6          | 8        |
      | 7          | 10       |
      | 8          | 6        |
    And no side effects

  Scenario: [7] ANY tests reachability along relationships that pass a WHERE
    When executing query:
      """
      MATCH path = ANY
        (:Station {name: 'Pershore'})-[l:LINK WHERE l.distance < 10]-+(b:Station {name: 'Bromsgrove'})
      RETURN [r IN relationships(path) | r.distance] AS distances
      """
    Then the result should be, in any order:
      | distances                |
      | [4.16, 3.71, 5.76, 6.16] |
    And no side effects

  Scenario: [8] Shortest paths are selected per partition of start and end node
    When executing query:
      """
      UNWIND ['Droitwich Spa', 'Hartlebury'] AS a
      UNWIND ['Ashchurch', 'Cheltenham Spa'] AS b
      MATCH SHORTEST 2 GROUPS (o:Station {name: a})-[l]-+(d:Station {name: b})
      RETURN o.name AS start, d.name AS end,
          size(l) AS pathLength, count(*) AS numPaths
      ORDER BY start, end, pathLength
      """
    Then the result should be, in order:
      | start           | end              | pathLength | numPaths |
      | 'Droitwich Spa' | 'Ashchurch'      | 2          | 1        |
      | 'Droitwich Spa' | 'Ashchurch'      | 3          | 4        |
      | 'Droitwich Spa' | 'Cheltenham Spa' | 2          | 1        |
      | 'Droitwich Spa' | 'Cheltenham Spa' | 3          | 1        |
      | 'Hartlebury'    | 'Ashchurch'      | 3          | 1        |
      | 'Hartlebury'    | 'Ashchurch'      | 4          | 4        |
      | 'Hartlebury'    | 'Cheltenham Spa' | 3          | 1        |
      | 'Hartlebury'    | 'Cheltenham Spa' | 4          | 1        |
    And no side effects

  Scenario: [9] The shortest path from Hartlebury to Cheltenham Spa goes via Bromsgrove
    When executing query:
      """
      MATCH SHORTEST 1
        (:Station {name: 'Hartlebury'})
        (()--(n))+
        (:Station {name: 'Cheltenham Spa'})
      RETURN [stop IN n[..-1] | stop.name] AS stops
      """
    Then the result should be, in any order:
      | stops                            |
      | ['Droitwich Spa', 'Bromsgrove']  |
    And no side effects

  Scenario: [10] The MATCH's WHERE is a post-filter: it removes the only shortest path
    When executing query:
      """
      MATCH SHORTEST 1
        (:Station {name: 'Hartlebury'})
        (()--(n:Station))+
        (:Station {name: 'Cheltenham Spa'})
      WHERE none(stop IN n[..-1] WHERE stop.name = 'Bromsgrove')
      RETURN [stop IN n[..-1] | stop.name] AS stops
      """
    Then the result should be, in any order:
      | stops |
    And no side effects

  Scenario: [11] A predicate inlined into the quantified path pattern is a pre-filter
    When executing query:
      """
      MATCH SHORTEST 1
        (:Station {name: 'Hartlebury'})
        (()--(n:Station WHERE n.name <> 'Bromsgrove'))+
        (:Station {name: 'Cheltenham Spa'})
      RETURN [stop IN n[..-1] | stop.name] AS stops
      """
    Then the result should be, in any order:
      | stops                                                     |
      | ['Droitwich Spa', 'Worcester Shrub Hill', 'Ashchurch']    |
    And no side effects

  Scenario: [12] A WHERE inside parentheses around the path pattern is a pre-filter over its group variables
    When executing query:
      """
      MATCH SHORTEST 1
        ( (:Station {name: 'Hartlebury'})
          (()--(n:Station))+
          (:Station {name: 'Cheltenham Spa'})
           WHERE none(stop IN n[..-1] WHERE stop.name = 'Bromsgrove') )
      RETURN [stop IN n[..-1] | stop.name] AS stops
      """
    Then the result should be, in any order:
      | stops                                                     |
      | ['Droitwich Spa', 'Worcester Shrub Hill', 'Ashchurch']    |
    And no side effects

  Scenario: [13] The shortest path from Hartlebury to each other station
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Station {name: 'Hartlebury'})--+(b:Station)
      RETURN b.name AS destination, length(p) AS pathLength
      ORDER BY pathLength, destination
      """
    Then the result should be, in order:
      | destination                 | pathLength |
      | 'Droitwich Spa'             | 1          |
      | 'Bromsgrove'                | 2          |
      | 'Worcester Foregate Street' | 2          |
      | 'Worcester Shrub Hill'      | 2          |
      | 'Ashchurch'                 | 3          |
      | 'Cheltenham Spa'            | 3          |
      | 'Worcestershire Parkway'    | 3          |
      | 'Pershore'                  | 4          |
    And no side effects

  Scenario: [14] A WHERE on the path variable at the MATCH is a post-filter
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Station {name: 'Hartlebury'})--+(b:Station)
      WHERE length(p) % 2 = 0
      RETURN b.name AS destination, length(p) AS pathLength
      ORDER BY pathLength, destination
      """
    Then the result should be, in order:
      | destination                 | pathLength |
      | 'Bromsgrove'                | 2          |
      | 'Worcester Foregate Street' | 2          |
      | 'Worcester Shrub Hill'      | 2          |
      | 'Pershore'                  | 4          |
    And no side effects

  Scenario: [15] A path variable declared inside the parentheses makes its WHERE a pre-filter
    When executing query:
      """
      MATCH SHORTEST 1
        (p = (:Station {name: 'Hartlebury'})--+(b:Station)
          WHERE length(p) % 2 = 0 )
      RETURN b.name AS destination, length(p) AS pathLength
      ORDER BY pathLength, destination
      """
    Then the result should be, in order:
      | destination                 | pathLength |
      | 'Bromsgrove'                | 2          |
      | 'Worcester Foregate Street' | 2          |
      | 'Worcester Shrub Hill'      | 2          |
      | 'Ashchurch'                 | 4          |
      | 'Cheltenham Spa'            | 4          |
      | 'Droitwich Spa'             | 4          |
      | 'Pershore'                  | 4          |
      | 'Worcestershire Parkway'    | 4          |
    And no side effects

  Scenario: [16] Two selective path patterns may not share a MATCH
    When executing query:
      """
      MATCH (d:Station {name: 'Droitwich Spa'}),
            (w:Station {name: 'Worcestershire Parkway'}),
            (c:Station {name: 'Cheltenham Spa'})
      MATCH p = SHORTEST 1 (d)--+(w), q = SHORTEST 1 (d)--+(c)
      RETURN [stop IN nodes(p) | stop.name] AS r1,
             [stop IN nodes(q) | stop.name] AS r2
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

  Scenario: [17] In separate MATCH clauses the two selective path patterns may share a relationship
    When executing query:
      """
      MATCH (d:Station {name: 'Droitwich Spa'}),
            (w:Station {name: 'Worcestershire Parkway'}),
            (c:Station {name: 'Cheltenham Spa'})
      MATCH p = SHORTEST 1 (d)--+(w)
      MATCH q = SHORTEST 1 (d)--+(c)
      RETURN [stop IN nodes(q) | stop.name] AS r2, length(p) AS r1Length
      """
    Then the result should be, in any order:
      | r2                                                  | r1Length |
      | ['Droitwich Spa', 'Bromsgrove', 'Cheltenham Spa']   | 2        |
    And no side effects

  Scenario: [18] ALL SHORTEST over a quantified path pattern of two hops, from each of three end stations
    When executing query:
      """
      MATCH p = ALL SHORTEST (a:Station)(()-[]-()-[]-()){1,}(b:Station)
      WHERE b.name = 'Cheltenham Spa' OR b.name = 'Hartlebury' OR b.name = 'Pershore'
      RETURN count(p) AS paths
      """
    Then the result should be, in any order:
      | paths |
      | 45    |
    And no side effects
