# Written from the Neo4j 5 Cypher Manual, "Shortest paths" (patterns/shortest-paths and the
# reference's rules): SHORTEST k, ALL SHORTEST, SHORTEST k GROUPS, ANY k, ALL, partitions by end
# nodes, pre-filters inside the path pattern and post-filters in the MATCH's WHERE.
Feature: PathSelectors - selective path selectors in front of a path pattern

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:S {n: 'a'})-[:R]->(b:S {n: 'b'})-[:R]->(c:S {n: 'c'})-[:R]->(d:S {n: 'd'}),
             (a)-[:R]->(x:S {n: 'x'})-[:R]->(d),
             (a)-[:R]->(y:S {n: 'y'})-[:R]->(z:S {n: 'z'})-[:R]->(w:S {n: 'w'})-[:R]->(d)
      """

  Scenario: [1] SHORTEST 1 keeps one shortest path per pair of end nodes
    When executing query:
      """
      MATCH p = SHORTEST 1 (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
    And no side effects

  Scenario: [2] SHORTEST k keeps the k shortest, ALL SHORTEST every path tied for shortest
    When executing query:
      """
      MATCH p = SHORTEST 2 (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      WITH collect(length(p)) AS two
      MATCH q = ALL SHORTEST (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN two, collect(length(q)) AS tied
      """
    Then the result should be (ignoring element order for lists):
      | two    | tied |
      | [2, 3] | [2]  |
    And no side effects

  Scenario: [3] SHORTEST k GROUPS keeps every path of the k smallest lengths
    When executing query:
      """
      MATCH p = SHORTEST 2 GROUPS (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
      | 3   |
    And no side effects

  Scenario: [4] Selection is per partition of start and end node
    When executing query:
      """
      MATCH p = SHORTEST 1 (s:S {n: 'a'})-[:R]->+(t)
      RETURN t.n AS t, length(p) AS len
      """
    Then the result should be, in any order:
      | t   | len |
      | 'b' | 1   |
      | 'x' | 1   |
      | 'y' | 1   |
      | 'c' | 2   |
      | 'z' | 2   |
      | 'w' | 3   |
      | 'd' | 2   |
    And no side effects

  Scenario: [5] ANY k returns k paths of a partition, whichever they are
    When executing query:
      """
      MATCH p = ANY 2 PATHS (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN count(p) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  Scenario: [6] ALL selects every path, as no selector does
    When executing query:
      """
      MATCH p = ALL PATHS (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN count(p) AS n
      """
    Then the result should be, in any order:
      | n |
      | 3 |
    And no side effects

  Scenario: [7] A predicate inside the path pattern filters before the selection
    When executing query:
      """
      MATCH p = SHORTEST 1 (:S {n: 'a'}) ((u)-[:R]->(v) WHERE v.n <> 'x'){1,} (:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 3   |
    And no side effects

  Scenario: [8] The MATCH's WHERE filters after the selection
    When executing query:
      """
      MATCH p = SHORTEST 1 (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      WHERE none(n IN nodes(p) WHERE n.n = 'x')
      RETURN count(p) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  Scenario: [9] ANY SHORTEST is SHORTEST 1, a node WHERE is a pre-filter
    When executing query:
      """
      MATCH p = ANY SHORTEST (:S {n: 'a'})-[:R]->+(t WHERE t.n IN ['c', 'w'])
      RETURN t.n AS t, length(p) AS len
      """
    Then the result should be, in any order:
      | t   | len |
      | 'c' | 2   |
      | 'w' | 3   |
    And no side effects

  Scenario: [10] A selective path pattern must be the only path pattern of its MATCH
    When executing query:
      """
      MATCH p = SHORTEST 2 (:S)--+(a)--+(:S), q = ANY 2 (a)-->{,2}(:S)
      RETURN p, q
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

  Scenario: [11] SHORTEST without a number selects groups only
    When executing query:
      """
      MATCH p = SHORTEST (:S)-[:R]->+(:S)
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

  Scenario: [12] The number of paths must be positive
    When executing query:
      """
      MATCH p = ANY 0 (:S)-[:R]->+(:S)
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

  Scenario: [13] A WHERE in a parenthesized path pattern with a subpath variable filters before the selection
    When executing query:
      """
      MATCH SHORTEST 1 (p = (:S {n: 'a'})-[:R]->+(:S {n: 'd'}) WHERE length(p) % 2 = 1)
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 3   |
    And no side effects

  Scenario: [14] The same condition in the MATCH's WHERE filters the selected path away
    When executing query:
      """
      MATCH p = SHORTEST 1 (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      WHERE length(p) % 2 = 1
      RETURN count(p) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  Scenario: [15] A subpath variable needs a selective path selector
    When executing query:
      """
      MATCH (p = (:S {n: 'a'})-[:R]->+(:S))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

  Scenario: [16] Without a selector, a parenthesized path pattern's WHERE is part of the MATCH's
    When executing query:
      """
      MATCH ((a:S {n: 'a'})-[:R]->(b) WHERE b.n <> 'x')
      RETURN b.n AS b
      """
    Then the result should be, in any order:
      | b   |
      | 'b' |
      | 'y' |
    And no side effects

  Scenario: [17] SHORTEST k GROUPS with more groups than lengths returns every path
    When executing query:
      """
      MATCH p = SHORTEST 5 GROUPS (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
      | 3   |
      | 4   |
    And no side effects

  Scenario: [18] The number of paths may be a parameter
    Given parameters are:
      | k | 2 |
    When executing query:
      """
      MATCH p = SHORTEST $k (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
      | 3   |
    And no side effects

  Scenario: [19] A parameter number of groups below 1 fails when the statement runs
    Given parameters are:
      | k | 0 |
    When executing query:
      """
      MATCH p = SHORTEST $k GROUPS (:S {n: 'a'})-[:R]->+(:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then an ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [20] SHORTEST k GROUPS over a quantified path pattern of two hops, with group variables
    When executing query:
      """
      MATCH p = SHORTEST 2 GROUPS (:S {n: 'a'}) ((u)-[:R]->(m)-[:R]->(v)){1,} (:S {n: 'd'})
      RETURN length(p) AS len, [q IN m | q.n] AS ms
      """
    Then the result should be, in any order:
      | len | ms         |
      | 2   | ['x']      |
      | 4   | ['y', 'w'] |
    And no side effects

  Scenario: [21] The WHERE inside a quantified path pattern filters before ANY k selects
    When executing query:
      """
      MATCH p = ANY 2 (:S {n: 'a'}) ((u)-[:R]->(v) WHERE v.n <> 'x'){1,} (:S {n: 'd'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 3   |
      | 4   |
    And no side effects

  Scenario: [22] A far end's WHERE filters before the selection, per far end
    When executing query:
      """
      MATCH p = SHORTEST 1 (:S {n: 'a'}) ((u)-[:R]->(v)){1,} (t WHERE t.n IN ['c', 'w'])
      RETURN t.n AS t, length(p) AS len
      """
    Then the result should be, in any order:
      | t   | len |
      | 'c' | 2   |
      | 'w' | 3   |
    And no side effects

  Scenario: [23] A path variable and a subpath variable name the same path
    When executing query:
      """
      MATCH p = SHORTEST 1 (q = (:S {n: 'a'}) ((u)-[:R]->(v)){1,} (:S {n: 'd'}))
      RETURN length(p) AS lp, length(q) AS lq, p = q AS same
      """
    Then the result should be, in any order:
      | lp | lq | same |
      | 2  | 2  | true |
    And no side effects

  Scenario: [24] Subpath variables at every depth of parentheses name the same path
    When executing query:
      """
      MATCH SHORTEST 1 (q = (r = (:S {n: 'a'})-[:R]->+(t:S {n: 'w'})) WHERE length(q) > 1)
      RETURN length(q) AS lq, length(r) AS lr, t.n AS t
      """
    Then the result should be, in any order:
      | lq | lr | t   |
      | 3  | 3  | 'w' |
    And no side effects

  Scenario: [25] A subpath variable inside a quantified path pattern is refused
    When executing query:
      """
      MATCH (:S {n: 'a'}) (p = (x)-[:R]->(y))+ (:S {n: 'd'})
      RETURN 1
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax
