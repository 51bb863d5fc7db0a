# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Non-linear patterns": an equijoin (a node
# variable repeated to close a cycle) and a graph pattern of three path patterns joined on shared nodes.
# The manual prints times in its results with seconds ("08:40:00Z"); Weft, as the openCypher TCK,
# prints them without zero seconds ('08:40Z').
Feature: Manual - patterns: non-linear patterns

  Scenario: [1] An equijoin closes a round trip on the node it names twice
    Given an empty graph
    And having executed:
      """
      CREATE (bhi:Station {name: 'Birmingham International'}),
        (cov:Station {name: 'Coventry'}),
        (eus:Station {name: 'London Euston'}),
        (bhi)<-[:CALLS_AT]-(s1:Stop {departs: time('12:03')}),
        (cov)<-[:CALLS_AT]-(s2:Stop {departs: time('11:33')})-[:NEXT]->(s1),
        (eus)<-[:CALLS_AT]-(s3:Stop {departs: time('15:54')}),
        (cov)<-[:CALLS_AT]-(s4:Stop {departs: time('14:45')})-[:NEXT]->(s3),
        (cov)<-[:CALLS_AT]-(s5:Stop {departs: time('09:34')}),
        (eus)<-[:CALLS_AT]-(s6:Stop {departs: time('08:40')})-[:NEXT]->(s5)
      """
    When executing query:
      """
      MATCH (n:Station {name: 'London Euston'})<-[:CALLS_AT]-(s1:Stop)
        -[:NEXT]->(s2:Stop)-[:CALLS_AT]->(:Station {name: 'Coventry'})
        <-[:CALLS_AT]-(s3:Stop)-[:NEXT]->(s4:Stop)-[:CALLS_AT]->(n)
      RETURN s1.departs+'-'+s2.departs AS outbound,
        s3.departs+'-'+s4.departs AS `return`
      """
    Then the result should be, in any order:
      | outbound        | return          |
      | '08:40Z-09:34Z' | '14:45Z-15:54Z' |
    And no side effects

  Scenario: [2] A graph pattern of three path patterns, joined on shared nodes, finds the earliest change
    Given an empty graph
    And having executed:
      """
      CREATE (hgt:Station {name: 'Harrogate'}), (lds:Station {name: 'Leeds'}),
      (sbe:Station {name: 'Starbeck'}), (hbp:Station {name: 'Hornbeam Park'}),
      (wet:Station {name: 'Weeton'}), (hrs:Station {name: 'Horsforth'}),
      (hdy:Station {name: 'Headingley'}), (buy:Station {name: 'Burley Park'}),
      (pnl:Station {name: 'Pannal'}), (hud:Station {name: 'Huddersfield'}),
      (s9:Stop {arrives: time('11:53')}),
      (s8:Stop {arrives: time('11:44'), departs: time('11:45')}),
      (s7:Stop {arrives: time('11:40'), departs: time('11:43')}),
      (s6:Stop {arrives: time('11:38'), departs: time('11:39')}),
      (s5:Stop {arrives: time('11:29'), departs: time('11:30')}),
      (s4:Stop {arrives: time('11:24'), departs: time('11:25')}),
      (s3:Stop {arrives: time('11:19'), departs: time('11:20')}),
      (s2:Stop {arrives: time('11:16'), departs: time('11:17')}),
      (s1:Stop {departs: time('11:11')}), (s21:Stop {arrives: time('11:25')}),
      (s211:Stop {departs: time('11:00')}), (s10:Stop {arrives: time('11:45')}),
      (s101:Stop {departs: time('11:20')}), (s11:Stop {arrives: time('12:05')}),
      (s111:Stop {departs: time('11:40')}), (s12:Stop {arrives: time('12:07')}),
      (s121:Stop {departs: time('11:50')}), (s13:Stop {arrives: time('12:37')}),
      (s131:Stop {departs: time('12:20')}),
      (lds)<-[:CALLS_AT]-(s9), (buy)<-[:CALLS_AT]-(s8)-[:NEXT]->(s9),
      (hdy)<-[:CALLS_AT]-(s7)-[:NEXT]->(s8), (hrs)<-[:CALLS_AT]-(s6)-[:NEXT]->(s7),
      (wet)<-[:CALLS_AT]-(s5)-[:NEXT]->(s6), (pnl)<-[:CALLS_AT]-(s4)-[:NEXT]->(s5),
      (hbp)<-[:CALLS_AT]-(s3)-[:NEXT]->(s4), (hgt)<-[:CALLS_AT]-(s2)-[:NEXT]->(s3),
      (sbe)<-[:CALLS_AT]-(s1)-[:NEXT]->(s2), (lds)<-[:CALLS_AT]-(s21), (hgt)<-[:CALLS_AT]-(s211)-[:NEXT]->(s21),
      (lds)<-[:CALLS_AT]-(s10), (hgt)<-[:CALLS_AT]-(s101)-[:NEXT]->(s10), (lds)<-[:CALLS_AT]-(s11),
      (hgt)<-[:CALLS_AT]-(s111)-[:NEXT]->(s11), (hud)<-[:CALLS_AT]-(s12), (lds)<-[:CALLS_AT]-(s121)-[:NEXT]->(s12),
      (hud)<-[:CALLS_AT]-(s13), (lds)<-[:CALLS_AT]-(s131)-[:NEXT]->(s13)
      """
    When executing query:
      """
      MATCH (:Station {name: 'Starbeck'})<-[:CALLS_AT]-
              (a:Stop {departs: time('11:11')})-[:NEXT]->*(b)-[:NEXT]->*
              (c:Stop)-[:CALLS_AT]->(lds:Station {name: 'Leeds'}),
            (b)-[:CALLS_AT]->(l:Station)<-[:CALLS_AT]-(m:Stop)-[:NEXT]->*
              (n:Stop)-[:CALLS_AT]->(lds),
            (lds)<-[:CALLS_AT]-(x:Stop)-[:NEXT]->*(y:Stop)-[:CALLS_AT]->
              (:Station {name: 'Huddersfield'})
      WHERE b.arrives < m.departs AND n.arrives < x.departs
      RETURN toString(a.departs) AS departs,
             l.name AS changeAt,
             toString(m.departs) AS changeDeparts,
             toString(y.arrives) AS arrives
      ORDER BY y.arrives LIMIT 1
      """
    Then the result should be, in any order:
      | departs  | changeAt    | changeDeparts | arrives  |
      | '11:11Z' | 'Harrogate' | '11:20Z'      | '12:07Z' |
    And no side effects
