# Written from the Neo4j 5 Cypher Manual's clause pages "MATCH", "OPTIONAL MATCH", "RETURN", "WITH",
# "WHERE", "ORDER BY", "SKIP" and "LIMIT": the examples the clause files under test/conformance do not
# already hold, on the RETURN page's small graph and on literals.
Feature: Manual - reading and returning

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:Person {name: 'A', happy: 'Yes!', age: 55})-[:BLOCKS]->(b:Person {name: 'B', age: 34}),
             (a)-[:KNOWS]->(b), (c:Person {name: 'C'})
      """

  Scenario: [1] Variables and aliases with uncommon characters are quoted with backticks
    When executing query:
      """
      MATCH (`This isn't a common variable`)
      WHERE `This isn't a common variable`.name = 'A'
      RETURN `This isn't a common variable`.happy, `This isn't a common variable`.age AS `Something Totally Different`
      """
    Then the result should be, in any order:
      | `This isn't a common variable`.happy | Something Totally Different |
      | 'Yes!'                               | 55                          |
    And no side effects

  Scenario: [2] Other expressions as columns keep their text as the column name
    When executing query:
      """
      MATCH (a {name: 'A'})
      RETURN a.age > 30, "I'm a literal", size([p = (a)-->() | p]) AS paths
      """
    Then the result should be, in any order:
      | a.age > 30 | "I'm a literal" | paths |
      | true       | 'I\'m a literal' | 2    |
    And no side effects

  Scenario: [3] RETURN DISTINCT and RETURN *
    When executing query:
      """
      MATCH (a {name: 'A'})-->(b) WITH DISTINCT b RETURN *
      """
    Then the result should be, in any order:
      | b                                 |
      | (:Person {name: 'B', age: 34})    |
    And no side effects

  Scenario: [4] WITH filters on an aggregate, and ORDER BY with LIMIT before collect
    When executing query:
      """
      MATCH (a:Person)-->(b)
      WITH a, count(*) AS out WHERE out > 1
      MATCH (n:Person) WITH a, out, n ORDER BY n.name DESC LIMIT 2
      RETURN a.name, out, collect(n.name) AS names
      """
    Then the result should be, in any order:
      | a.name | out | names      |
      | 'A'    | 2   | ['C', 'B'] |
    And no side effects

  Scenario: [5] ORDER BY puts null last ascending and first descending
    When executing query:
      """
      MATCH (n:Person) WITH n ORDER BY n.age RETURN collect(n.name) AS ordered
      UNION ALL
      MATCH (n:Person) WITH n ORDER BY n.age DESC RETURN collect(n.name) AS ordered
      """
    Then the result should be, in order:
      | ordered         |
      | ['B', 'A', 'C'] |
      | ['C', 'A', 'B'] |
    And no side effects

  Scenario: [6] ORDER BY a property not returned, and by several keys
    When executing query:
      """
      MATCH (n:Person) RETURN n.name AS name ORDER BY n.age IS NULL, n.age DESC, n.name
      """
    Then the result should be, in order:
      | name |
      | 'A'  |
      | 'B'  |
      | 'C'  |
    And no side effects

  Scenario: [7] ORDER BY across types follows the global sort order
    When executing query:
      """
      UNWIND [1, 'a', true, null, [1], {a: 1}, 0.5, false, 'B'] AS x
      RETURN x ORDER BY x
      """
    Then the result should be, in order:
      | x      |
      | {a: 1} |
      | [1]    |
      | 'B'    |
      | 'a'    |
      | false  |
      | true   |
      | 0.5    |
      | 1      |
      | null   |
    And no side effects

  Scenario: [8] OPTIONAL MATCH gives null where the pattern is missing, and count() of it 0
    When executing query:
      """
      MATCH (n:Person {name: 'C'})
      OPTIONAL MATCH (n)-[r]->(m)
      OPTIONAL MATCH p = (n)-->()
      RETURN n.name, r, m.name, p, count(m) AS c
      """
    Then the result should be, in any order:
      | n.name | r    | m.name | p    | c |
      | 'C'    | null | null   | null | 0 |
    And no side effects

  Scenario: [9] OPTIONAL MATCH with a WHERE that no match passes
    When executing query:
      """
      MATCH (a {name: 'A'}) OPTIONAL MATCH (a)-->(x) WHERE x.name = 'zzz' RETURN a.name, x
      """
    Then the result should be, in any order:
      | a.name | x    |
      | 'A'    | null |
    And no side effects

  Scenario Outline: [10] WHERE forms: <where>
    When executing query:
      """
      MATCH (n:Person) WHERE <where> RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | <name> |
    And no side effects

    Examples:
      | where                                   | name |
      | n.name = 'A' XOR n.age > 100            | 'A'  |
      | n.name =~ '(?i)a'                       | 'A'  |
      | n['na' + 'me'] = 'B'                    | 'B'  |
      | n.age IS NULL                           | 'C'  |
      | 21 < n.age <= 34                        | 'B'  |
      | (n)-[:BLOCKS]->()                       | 'A'  |
      | NOT (n)-->() AND n.age IS NOT NULL      | 'B'  |
      | n.name IN ['C', 'D']                    | 'C'  |
      | n.name STARTS WITH 'B' OR n.age > 50 AND n.name ENDS WITH 'Z' | 'B' |

  Scenario: [11] A WHERE inside a node pattern
    When executing query:
      """
      MATCH (n:Person WHERE n.age > 50)-[r WHERE type(r) STARTS WITH 'BL']->(m) RETURN m.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'B'  |
    And no side effects

  Scenario: [12] An ORDER BY on a variable a RETURN with aggregation dropped is refused
    When executing query:
      """
      MATCH (n:Person) RETURN count(*) AS c ORDER BY n.name
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable
