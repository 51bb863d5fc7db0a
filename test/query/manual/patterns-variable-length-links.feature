# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Variable-length patterns", its section on
# predicates in quantified path patterns: the London links graph without the stations' locations (the
# page's point.distance() predicate is spatial and left to the spatial scenarios).
Feature: Manual - patterns: variable-length patterns on the London links

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (lbg:Station {name: 'London Bridge'}),
          (bfr:Station {name: 'London Blackfriars'}),
          (eph:Station {name: 'Elephant & Castle'}),
          (dmk:Station {name: 'Denmark Hill'}),
          (pmr:Station {name: 'Peckham Rye'}),
          (qrp:Station {name: 'Queens Rd Peckham'}),
          (sbm:Station {name: 'South Bermondsey'}),
          (lgj:Station {name: 'Loughborough Jn'}),
          (hnh:Station {name: 'Herne Hill'}),
          (tuh:Station {name: 'Tulse Hill'}),
          (ndl:Station {name: 'North Dulwich'}),
          (edw:Station {name: 'East Dulwich'}),
          (brx:Station {name: 'Brixton'})
      CREATE (lbg)<-[:LINK {distance: 1.13}]-(bfr),
          (bfr)<-[:LINK {distance: 1.21}]-(eph),
          (eph)-[:LINK {distance: 2.6}]->(dmk),
          (dmk)-[:LINK {distance: 0.86}]->(pmr),
          (pmr)-[:LINK {distance: 0.71}]->(qrp),
          (qrp)<-[:LINK {distance: 0.95}]-(sbm),
          (sbm)<-[:LINK {distance: 1.8}]-(lbg),
          (lgj)-[:LINK {distance: 0.88}]->(hnh),
          (hnh)-[:LINK {distance: 1.08}]->(tuh),
          (tuh)<-[:LINK {distance: 1.29}]-(ndl),
          (ndl)-[:LINK {distance: 0.53}]->(edw),
          (edw)-[:LINK {distance: 0.84}]->(pmr),
          (eph)-[:LINK {distance: 2.01}]->(lgj),
          (dmk)-[:LINK {distance: 1.11}]->(brx),
          (brx)-[:LINK {distance: 0.51}]->(hnh)
      """

  Scenario: [1] ALL SHORTEST finds the two paths tied for fewest hops, with their distances
    When executing query:
      """
      MATCH (bfr:Station {name: 'London Blackfriars'}),
            (ndl:Station {name: 'North Dulwich'})
      MATCH p = ALL SHORTEST (bfr)-[:LINK]-+(ndl)
      RETURN [n IN nodes(p) | n.name] AS stops,
             length(p) AS stopCount,
             reduce(acc = 0, r IN relationships(p) | round(acc + r.distance, 2)) AS distance
      """
    Then the result should be, in any order:
      | stops                                                                                                          | stopCount | distance |
      | ['London Blackfriars', 'Elephant & Castle', 'Denmark Hill', 'Peckham Rye', 'East Dulwich', 'North Dulwich']     | 5         | 6.04     |
      | ['London Blackfriars', 'Elephant & Castle', 'Loughborough Jn', 'Herne Hill', 'Tulse Hill', 'North Dulwich']     | 5         | 6.47     |
    And no side effects

  Scenario: [2] The shortest path by distance, from every path ordered by distance
    When executing query:
      """
      MATCH (bfr:Station {name: 'London Blackfriars'}),
            (ndl:Station {name: 'North Dulwich'})
      MATCH p = (bfr)-[:LINK]-+(ndl)
      RETURN reduce(acc = 0, r IN relationships(p) | round(acc + r.distance, 2)) AS distance
      ORDER BY distance LIMIT 1
      """
    Then the result should be, in any order:
      | distance |
      | 5.96     |
    And no side effects

  Scenario: [3] The number of paths between the two stations
    When executing query:
      """
      MATCH (bfr:Station {name: 'London Blackfriars'}),
            (ndl:Station {name: 'North Dulwich'})
      MATCH p = (bfr)-[:LINK]-+(ndl)
      RETURN count(*) AS numPaths
      """
    Then the result should be, in any order:
      | numPaths |
      | 7        |
    And no side effects
