# Written from the Neo4j 5 Cypher Manual, "Syntax and semantics" (patterns/reference): quantified path
# patterns, group variables, node pattern pairs, graph pattern rules, and their errors. The graph is
# the manual's matching example: x:A -R-> z:B with the h values it lists.
Feature: QuantifiedPathPatterns - quantified path patterns with group variables

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (n1:A {h: 1})-[:R]->(n2:A:B {h: 3})-[:R]->(n3:A:B {h: 4})-[:R]->(n5:B {h: 5}),
             (n2)-[:R]->(n4:B {h: 2}),
             (n3)-[:S]->(n1)
      """

  Scenario: [1] Two iterations: the last node of the first is the first node of the second
    When executing query:
      """
      MATCH ((x:A)-[:R]->(z:B WHERE z.h > 2)){2}
      RETURN [n IN x | n.h] AS x_h, [n IN z | n.h] AS z_h
      """
    Then the result should be, in any order:
      | x_h    | z_h    |
      | [1, 3] | [3, 4] |
      | [3, 4] | [4, 5] |
    And no side effects

  Scenario: [2] One to five iterations match every length that exists
    When executing query:
      """
      MATCH ((x:A)-[:R]->(z:B WHERE z.h > 2)){1,5}
      RETURN [n IN x | n.h] AS x_h, [n IN z | n.h] AS z_h
      """
    Then the result should be, in any order:
      | x_h       | z_h       |
      | [1]       | [3]       |
      | [3]       | [4]       |
      | [4]       | [5]       |
      | [1, 3]    | [3, 4]    |
      | [3, 4]    | [4, 5]    |
      | [1, 3, 4] | [3, 4, 5] |
    And no side effects

  Scenario: [3] A WHERE inside the parentheses compares singletons of one iteration
    When executing query:
      """
      MATCH ((x)-[r]->(z) WHERE z.h > x.h){2,3}
      RETURN [n IN x | n.h] AS x_h, [n IN z | n.h] AS z_h
      """
    Then the result should be, in any order:
      | x_h       | z_h       |
      | [1, 3]    | [3, 4]    |
      | [3, 4]    | [4, 5]    |
      | [1, 3, 4] | [3, 4, 5] |
    And no side effects

  Scenario: [4] An inner path of two hops, joined to fixed parts before and after
    When executing query:
      """
      MATCH (s {h: 1})-[:R]->(m) ((x)-[:R]->(y)-[:R]->(z)){1} (e)
      RETURN m.h AS m, [n IN y | n.h] AS y_h, e.h AS e
      """
    Then the result should be, in any order:
      | m | y_h | e |
      | 3 | [4] | 5 |
    And no side effects

  Scenario: [5] A path variable over a quantified path pattern lists every node and relationship
    When executing query:
      """
      MATCH p = (a {h: 1}) ((x)-[r]->(y)){1,3} (b)
      RETURN [n IN nodes(p) | n.h] AS hs, size(r) = length(p) AS same
      """
    Then the result should be, in any order:
      | hs           | same |
      | [1, 3]       | true |
      | [1, 3, 4]    | true |
      | [1, 3, 2]    | true |
      | [1, 3, 4, 5] | true |
      | [1, 3, 4, 1] | true |
    And no side effects

  Scenario: [6] A relationship is traversed once per match (trail semantics), nodes may repeat
    When executing query:
      """
      MATCH (a {h: 1}) ((x)-[r]->(y)){1,} (a)
      RETURN size(r) AS hops
      """
    Then the result should be, in any order:
      | hops |
      | 3    |
    And no side effects

  Scenario: [7] Relationship uniqueness holds across the whole MATCH
    When executing query:
      """
      MATCH (a {h: 1})-[s:R]->(b), (b) ((x)<-[r]-(y)){1,2} (c)
      RETURN count(*) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  Scenario: [8] Zero iterations pair the nodes on either side
    When executing query:
      """
      MATCH (s:A {h: 1}) ((a)-[:R]->(b:B)){0,1} (t)
      RETURN t.h AS t, size(a) AS n
      """
    Then the result should be, in any order:
      | t | n |
      | 1 | 0 |
      | 3 | 1 |
    And no side effects

  Scenario: [9] The node after a quantified path pattern is its last iteration's last node
    When executing query:
      """
      MATCH (s {h: 1}) ((a)-[:R]->(b)){1,3} (t:B WHERE t.h > 3)
      RETURN t.h AS t, [n IN b | n.h] AS b_h
      """
    Then the result should be, in any order:
      | t | b_h       |
      | 4 | [3, 4]    |
      | 5 | [3, 4, 5] |
    And no side effects

  Scenario: [10] Two quantified path patterns adjoin at a shared node
    When executing query:
      """
      MATCH (s {h: 1}) ((a)-[:R]->(b)){1} ((c)-[:R]->(d)){1,2}
      RETURN [n IN b | n.h] AS b_h, [n IN d | n.h] AS d_h
      """
    Then the result should be, in any order:
      | b_h | d_h    |
      | [3] | [4]    |
      | [3] | [2]    |
      | [3] | [4, 5] |
    And no side effects

  Scenario: [11] A path walked right to left keeps group variables in pattern order
    When executing query:
      """
      MATCH (e {h: 5}) WITH e
      MATCH (s) ((x)-[:R]->(y)){2} (e)
      RETURN s.h AS s, [n IN x | n.h] AS x_h
      """
    Then the result should be, in any order:
      | s | x_h    |
      | 3 | [3, 4] |
    And no side effects

  Scenario: [12] Variables of earlier clauses can be read inside a quantified path pattern
    When executing query:
      """
      MATCH (m {h: 3})
      MATCH (a {h: 1}) ((x)-[r]->(y) WHERE y.h >= m.h){1,3} (b)
      RETURN [n IN y | n.h] AS y_h
      """
    Then the result should be, in any order:
      | y_h       |
      | [3]       |
      | [3, 4]    |
      | [3, 4, 5] |
    And no side effects

  Scenario: [13] A group variable in the MATCH's WHERE is a list
    When executing query:
      """
      MATCH (a {h: 1}) ((x)-[r]->(y)){1,3} (b)
      WHERE any(n IN y WHERE n.h = 2)
      RETURN b.h AS b
      """
    Then the result should be, in any order:
      | b |
      | 2 |
    And no side effects

  Scenario: [14] An EXISTS subquery inside a quantified path pattern is not nesting
    When executing query:
      """
      MATCH ((n:A)-[:R]->(m) WHERE EXISTS { (m)-[:R]->+(:B {h: 5}) }){2}
      RETURN [x IN n | x.h] AS n_h
      """
    Then the result should be, in any order:
      | n_h    |
      | [1, 3] |
    And no side effects

  Scenario: [15] Quantified path patterns in OPTIONAL MATCH, COUNT and pattern comprehensions
    When executing query:
      """
      MATCH (a {h: 1})
      OPTIONAL MATCH (a) ((x)-[:T]->(y)){1,2} (c)
      RETURN c, COUNT { (a) ((u)-->(v)){1,3} (z) } AS paths, [(a) ((u)-->(v)){2} (z) | z.h] AS reach
      """
    Then the result should be (ignoring element order for lists):
      | c    | paths | reach  |
      | null | 5     | [4, 2] |
    And no side effects

  Scenario: [16] A group variable cannot be read as a singleton outside its pattern
    When executing query:
      """
      MATCH ((x)-[r]->(z)){2,3} WHERE z.h > x.h
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [17] A single node cannot be quantified
    When executing query:
      """
      MATCH ((x:A)){2,4}
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [18] Quantified path patterns cannot be nested
    When executing query:
      """
      MATCH (:A) (()-[:R]->+()){2,3} (:B)
      RETURN 1
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [19] A path of one quantified path pattern needs at least one iteration
    When executing query:
      """
      MATCH ((n)-[r]->(m)){0,10}
      RETURN n
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [20] Equijoins cannot be made with a variable inside a quantified path pattern
    When executing query:
      """
      MATCH (a)-->(b)-->(c), ((b)-->(e))+ (:X)
      RETURN a
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [21] A variable of the same MATCH outside the pattern cannot be read inside it
    When executing query:
      """
      MATCH (a) ((x)-->(y) WHERE y.h > a.h){1,2} (b)
      RETURN b
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [22] One group variable cannot come from two quantified path patterns
    When executing query:
      """
      MATCH ((x)-->(y)){1,2} ((x)-->(z)){1,2}
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [23] A quantified path pattern cannot be created
    When executing query:
      """
      CREATE ((a)-[:R]->(b)){2}
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [24] shortestPath() takes a variable-length relationship, not a quantified path pattern
    When executing query:
      """
      MATCH shortestPath(((a)-[:R]-(b)){1,5})
      RETURN a
      """
    Then a SyntaxError should be raised at compile time: InvalidShortestPath

  Scenario: [25] A WHERE inside a quantified relationship holds for every hop
    When executing query:
      """
      MATCH (s {h: 1})-[r:R WHERE endNode(r).h > 2]->+(t)
      RETURN t.h AS t, size(r) AS hops
      """
    Then the result should be, in any order:
      | t | hops |
      | 3 | 1    |
      | 4 | 2    |
      | 5 | 3    |
    And no side effects

  Scenario: [26] A relationship WHERE inside a quantified path pattern reads that pattern's singletons
    When executing query:
      """
      MATCH (s {h: 1}) ((a)-[r:R WHERE a.h < 4]->(b)){1,3} (t)
      RETURN [n IN b | n.h] AS b_h
      """
    Then the result should be, in any order:
      | b_h    |
      | [3]    |
      | [3, 4] |
      | [3, 2] |
    And no side effects

  Scenario: [27] A relationship WHERE outside MATCH is refused
    When executing query:
      """
      CREATE (a)-[r:R WHERE r.w > 1]->(b)
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [28] A pattern cannot mix variable-length relationships with quantified forms
    When executing query:
      """
      MATCH (s)-[*1..2]->(m), (m)-[:R]->+(t)
      RETURN t
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [29] Nor can one path pattern mix them with a quantified path pattern
    When executing query:
      """
      MATCH (s)-[*]->(m) ((a)-[:R]->(b)){1,2} (t)
      RETURN t
      """
    Then a SyntaxError should be raised at compile time: InvalidQuantifiedPath

  Scenario: [30] Separate MATCH clauses may use one form each
    When executing query:
      """
      MATCH (s {h: 1})-[*1..1]->(m)
      MATCH (m)-[:R]->+(t)
      RETURN t.h AS t
      """
    Then the result should be, in any order:
      | t |
      | 4 |
      | 5 |
      | 2 |
    And no side effects

  Scenario: [31] shortestPath() takes a variable-length relationship, not a quantified relationship
    When executing query:
      """
      MATCH p = shortestPath((a:A)-[:R]->+(b:B))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: InvalidShortestPath
