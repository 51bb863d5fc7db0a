# Sources: Neo4j Cypher manual 5, clauses/where (a WHERE inside a relationship pattern, in MATCH and
# in pattern comprehensions), clauses/union (UNION DISTINCT), clauses/delete (NODETACH DELETE) and clauses/create (INSERT),
# the last three being GQL spellings of UNION, DELETE and CREATE.
Feature: RelationshipWhereAndGqlSpellings - WHERE inside a relationship pattern, UNION DISTINCT, NODETACH DELETE, INSERT

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:Person {name: 'A'})-[:KNOWS {since: 1990}]->(b:Person {name: 'B'})-[:KNOWS {since: 2010}]->(c:Person {name: 'C'})
      """

  Scenario: [1] A WHERE inside a relationship pattern filters that relationship, and sees earlier variables
    When executing query:
      """
      WITH 2000 AS before
      MATCH (x:Person)-[r:KNOWS WHERE r.since < before]->(y)
      RETURN x.name AS x, y.name AS y, r.since AS since
      """
    Then the result should be, in any order:
      | x   | y   | since |
      | 'A' | 'B' | 1990  |
    And no side effects

  Scenario: [2] Without a type, together with properties, in a pattern comprehension and in EXISTS
    When executing query:
      """
      MATCH (p:Person {name: 'A'})
      RETURN [(p)-[r WHERE r.since < 2000]->(q) | q.name] AS early,
             [()-[r {since: 2010} WHERE r.since > 2000]->(q) | q.name] AS late,
             EXISTS { (p)-[r WHERE r.since > 2000]->() } AS aLate
      """
    Then the result should be, in any order:
      | early | late  | aLate |
      | ['B'] | ['C'] | false |
    And no side effects

  Scenario Outline: [3] A WHERE inside a relationship pattern only in MATCH, and not on a variable length
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | query                                                 |
      | MATCH (a)-[r:KNOWS* WHERE true]->(b) RETURN a         |
      | CREATE (a)-[r:T WHERE true]->(b)                      |
      | MATCH (a) MERGE (a)-[r:T WHERE r.x = 1]->(b)          |

  Scenario: [4] UNION DISTINCT removes duplicates as UNION does
    When executing query:
      """
      UNWIND [1, 1, 2] AS x RETURN x
      UNION DISTINCT
      UNWIND [2, 3] AS x RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 2 |
      | 3 |
    And no side effects

  Scenario: [5] UNION DISTINCT and UNION ALL cannot be mixed
    When executing query:
      """
      RETURN 1 AS x UNION DISTINCT RETURN 1 AS x UNION ALL RETURN 1 AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [6] NODETACH DELETE deletes a node without relationships
    When executing query:
      """
      CREATE (n:Lonely)
      WITH n
      NODETACH DELETE n
      """
    Then the result should be empty
    And no side effects

  Scenario: [7] NODETACH DELETE refuses a node that still has relationships
    When executing query:
      """
      MATCH (n:Person {name: 'C'}) NODETACH DELETE n
      """
    Then a ConstraintValidationFailed should be raised at runtime: DeleteConnectedNode

  Scenario: [8] nodetach remains usable as a variable name
    When executing query:
      """
      WITH 1 AS nodetach RETURN nodetach
      """
    Then the result should be, in any order:
      | nodetach |
      | 1        |
    And no side effects

  Scenario: [9] INSERT creates as CREATE does
    When executing query:
      """
      INSERT (tom:Person&Actor {name: 'Tom'})-[:ACTED_IN]->(:Movie {title: 'M'})
      RETURN labels(tom) AS labels
      """
    Then the result should be (ignoring element order for lists):
      | labels              |
      | ['Person', 'Actor'] |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 2 |
      | +properties    | 2 |

  Scenario: [10] insert remains usable as a variable name
    When executing query:
      """
      WITH 2 AS insert RETURN insert * 2 AS twice
      """
    Then the result should be, in any order:
      | twice |
      | 4     |
    And no side effects
