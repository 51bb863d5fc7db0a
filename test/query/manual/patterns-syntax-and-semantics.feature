# Written from the Neo4j 5 Cypher Manual's Patterns chapter, "Syntax and semantics": the rules of
# quantified path patterns (a length above zero, no nesting, group variables outside, singletons
# inside), quantifiers, variable-length relationships and their equijoins, selective path selectors
# (one path pattern per MATCH, PATH/PATHS), the shortestPath() and allShortestPaths() rules and their
# WHERE as a pre-filter, and graph patterns (equijoins only outside quantified path patterns). Its
# quantified path pattern matching example is drawn, not written; the graph here gives its answers.
# Where Weft differs: a variable-length relationship variable repeated in one MATCH is refused
# (`VariableAlreadyBound`), as the openCypher TCK has it for single relationships; the manual's Neo4j
# accepts it and matches nothing.
Feature: Manual - patterns: syntax and semantics

  Scenario: [1] A quantified path pattern matches chained iterations; its variables are lists outside it
    Given an empty graph
    And having executed:
      """
      CREATE (n1:A {h: 1})-[:R]->(n2:A:B {h: 3})-[:R]->(n3:A:B {h: 4})-[:R]->(n5:B {h: 5}),
             (n3)-[:R]->(:B {h: 2})
      """
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

  Scenario: [2] With a quantifier from one to five, paths of one to three iterations match
    Given an empty graph
    And having executed:
      """
      CREATE (n1:A {h: 1})-[:R]->(n2:A:B {h: 3})-[:R]->(n3:A:B {h: 4})-[:R]->(n5:B {h: 5}),
             (n3)-[:R]->(:B {h: 2})
      """
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

  Scenario Outline: [3] Not allowed in a quantified path pattern: <rule>
    Given any graph
    When executing query:
      """
      MATCH <pattern>
      RETURN count(*) AS n
      """
    Then a SyntaxError should be raised at compile time: <error>

    Examples:
      | rule                                            | pattern                                    | error               |
      | a single node cannot be quantified              | ((x:A)){2,4}                               | InvalidQuantifiedPath |
      | nesting                                         | (:A) (()-[:R]->+()){2,3} (:B)              | InvalidQuantifiedPath |
      | a group variable read as a singleton outside    | ((x)-[r]->(z)){2,3} WHERE z.p > x.p        | InvalidArgumentType |
      | a quantified relationship's variable in its end | (n)-[r]->+(m WHERE r.p = m.q)              | InvalidArgumentType |
      | an equijoin on a variable inside one            | (a)-->(b)-->(c), ((b)-->(e))+ (:X)         | VariableAlreadyBound |
      | a variable-length variable as a single one       | (x)-[r*1..2]->(y)-[r]->(z)                 | VariableTypeConflict |

  Scenario Outline: [4] Allowed: <rule>
    Given an empty graph
    And having executed:
      """
      CREATE (a:A {p: 1, q: 1})-[:R {p: 2, q: 0}]->(b:B {p: 30, q: 2})-[:R {p: 2, q: 0}]->(c:A {p: 30, q: 2}),
             (b)-[:S]->(:X), (c)-[:R]->(:Y)
      """
    When executing query:
      """
      MATCH <pattern>
      RETURN count(*) AS n
      """
    Then the result should be, in any order:
      | n       |
      | <count> |
    And no side effects

    Examples:
      | rule                                                   | pattern                                                             | count |
      | a singleton inside the quantified path pattern         | ((n)-[r]->(m WHERE r.p = m.q))+                                     | 3     |
      | a group variable in the far end's WHERE                | (n)-[r]->+(m WHERE all(rel IN r WHERE rel.q < m.q))                 | 3     |
      | a quantified path pattern inside a predicate            | ((n:A)-[:R]->({p: 30}) WHERE EXISTS { (n)-->+(:X) }){1,3}          | 1     |
      | a WHERE outside the node pattern, inside the parentheses | ((x)-[r]->(z) WHERE z.p > x.p){1,3}                                | 1     |
      | several path patterns without a selective selector       | ALL (n:A) (()-->(:B))+, (:X)--(n)--(:Y)                            | 0     |

  Scenario: [5] PATH and PATHS change nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:A)-[:R]->(:B)-[:R]->(:B), (:A)-[:R]->(:C)
      """
    When executing query:
      """
      MATCH ALL SHORTEST PATHS (n:A) (()-->(:B))+
      WITH count(*) AS withPaths
      MATCH ALL SHORTEST (n:A) (()-->(:B))+
      RETURN withPaths, count(*) AS without
      """
    Then the result should be, in any order:
      | withPaths | without |
      | 2         | 2       |
    And no side effects

  Scenario Outline: [6] A selective path pattern must be the only path pattern of its MATCH: <query>
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: InvalidPathSelector

    Examples:
      | query                                                                          |
      | MATCH p = SHORTEST 2 (:A)--+(a)--+(:B), q = ANY 2 (a)-->{,2}(:C) RETURN p, q |
      | MATCH ALL SHORTEST (n:A) (()-->(:B))+, (:X)--(n)--(:Y) RETURN n              |

  Scenario Outline: [7] In separate MATCH clauses selective path patterns are allowed: <query>
    Given any graph
    When executing query:
      """
      <query>
      """
    Then the result should be, in any order:
      | n |
    And no side effects

    Examples:
      | query                                                                                  |
      | MATCH p = SHORTEST 2 (:A)--+(a)--+(:B) MATCH q = ANY 2 (a)-->{,2}(:C) RETURN p AS n  |
      | MATCH ALL SHORTEST (n:A) (()-->(:B))+ MATCH (:X)--(n)--(:Y) RETURN n                 |

  Scenario Outline: [8] shortestPath() and allShortestPaths() take one variable-length relationship from length 0 or 1: <pattern>
    Given any graph
    When executing query:
      """
      MATCH p = <pattern>
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: InvalidShortestPath

    Examples:
      | pattern                                      |
      | shortestPath(((a)-[:R]-(b)){1,5})            |
      | shortestPath((:A)-->+(:B))                   |
      | shortestPath((a)-[:R*1..5]-(b)-->(:X))       |
      | shortestPath((a)-[:R*2..5]-(b))              |
      | shortestPath((:A))                           |

  Scenario: [9] allShortestPaths() takes one path pattern
    Given any graph
    When executing query:
      """
      MATCH p = allShortestPaths((a:A)-[:S*]->(:B), (a)-[:R*1..3]->(:C))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [10] The WHERE of a shortestPath() MATCH is a pre-filter: the shortest path that passes it
    Given an empty graph
    And having executed:
      """
      CREATE (s:N {name: 's', p: 1})-[:R]->(t:N {name: 't', p: 1}),
             (s)-[:R]->(:N {name: 'm', p: 1})-[:R]->(t),
             (s)-[:R]->(:N {name: 'w', p: 50})-[:R]->(t)
      """
    When executing query:
      """
      MATCH p = shortestPath((s:N {name: 's'})-[*]-(t:N {name: 't'}))
      WHERE length(p) > 1 AND all(n IN nodes(p) WHERE n.p < 42)
      RETURN [n IN nodes(p) | n.name] AS stops
      """
    Then the result should be, in any order:
      | stops           |
      | ['s', 'm', 't'] |
    And no side effects

  Scenario: [11] A variable-length relationship's list joins a later MATCH on the same relationships in order
    Given an empty graph
    And having executed:
      """
      CREATE ({name: 'Filipa'})-[:KNOWS]->({name: 'Anders'})-[:KNOWS]->({name: 'Dilshad'})
      """
    When executing query:
      """
      MATCH (a {name: 'Dilshad'})<-[r*1..2]-(b)
      MATCH (c)<-[r*1..2]-(d)
      RETURN a = c, b = d, size(r)
      """
    Then the result should be, in any order:
      | a = c | b = d | size(r) |
      | true  | true  | 1       |
      | true  | true  | 2       |
    And no side effects

  Scenario: [12] The list keeps its order: the other direction joins only a single relationship
    Given an empty graph
    And having executed:
      """
      CREATE ({name: 'Filipa'})-[:KNOWS]->({name: 'Anders'})-[:KNOWS]->({name: 'Dilshad'})
      """
    When executing query:
      """
      MATCH (a {name: 'Dilshad'})<-[r*1..2]-(b)
      MATCH (c)-[r*1..2]->(d)
      RETURN a = c, b = d, size(r)
      """
    Then the result should be, in any order:
      | a = c | b = d | size(r) |
      | false | false | 1       |
    And no side effects

  Scenario: [13] A reversed list joins the other direction
    Given an empty graph
    And having executed:
      """
      CREATE ({name: 'Filipa'})-[:KNOWS]->({name: 'Anders'})-[:KNOWS]->({name: 'Dilshad'})
      """
    When executing query:
      """
      MATCH (a {name: 'Dilshad'})<-[r*1..2]-(b)
      WITH a, b, reverse(r) AS s
      MATCH (c)-[s*1..2]->(d)
      RETURN a = d, b = c, size(s)
      """
    Then the result should be, in any order:
      | a = d | b = c | size(s) |
      | true  | true  | 1       |
      | true  | true  | 2       |
    And no side effects

  Scenario: [14] Only the overlapping lengths of two bounds join
    Given an empty graph
    And having executed:
      """
      CREATE ({name: 'Filipa'})-[:KNOWS]->({name: 'Anders'})-[:KNOWS]->({name: 'Dilshad'})
      """
    When executing query:
      """
      MATCH (a {name: 'Dilshad'})<-[r*1..2]-(b)
      MATCH (c)<-[r*2..3]-(d)
      RETURN a = c, b = d, size(r)
      """
    Then the result should be, in any order:
      | a = c | b = d | size(r) |
      | true  | true  | 2       |
    And no side effects

  Scenario: [15] Graph patterns: a T shape, an H shape and a WHERE over variables inside and outside a quantified path pattern
    Given an empty graph
    And having executed:
      """
      CREATE (a:A {p: 1})-[:R]->(x {p: 1})-[:R]->(:B {p: 2}),
             (x)-[:R]->(m {p: 1})-[:R]->(y {p: 3}),
             (:C)-[:R]->(y)-[:R]->(:D)
      """
    When executing query:
      """
      MATCH (:A)-->(x)--(:B), (x)-[:R]->+(y), (:C)-->(y)-->(:D)
      WITH count(*) AS h
      MATCH (a)-->(b)-->(c), (b) ((d)-->(e))+ WHERE any(n IN d WHERE n.p = a.p) AND a:A
      RETURN h, count(*) AS t
      """
    Then the result should be, in any order:
      | h | t |
      | 1 | 4 |
    And no side effects

  Scenario: [16] After a WITH the same condition is a post-filter of the shortest path
    Given an empty graph
    And having executed:
      """
      CREATE (s:N {name: 's', p: 1})-[:R]->(t:N {name: 't', p: 1}),
             (s)-[:R]->(:N {name: 'm', p: 1})-[:R]->(t),
             (s)-[:R]->(:N {name: 'w', p: 50})-[:R]->(t)
      """
    When executing query:
      """
      MATCH p = shortestPath((s:N {name: 's'})-[*]-(t:N {name: 't'}))
      WITH nodes(p) AS N
      WHERE size(N) > 2 AND all(n IN N WHERE n.p < 42)
      RETURN [n IN N | n.name] AS stops
      """
    Then the result should be, in any order:
      | stops |
    And no side effects
