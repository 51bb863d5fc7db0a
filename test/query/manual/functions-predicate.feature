# Written from the Neo4j 5 Cypher Manual's page "Predicate functions" and the quantifier rows of
# "Working with null": each example on the page's graph, then the quantifiers over empty lists, nulls
# and values that are not lists.
Feature: Manual - predicate functions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (keanu:Person {name: 'Keanu Reeves', age: 58, nationality: 'Canadian'}),
             (carrie:Person {name: 'Carrie Anne Moss', age: 55, nationality: 'American'}),
             (liam:Person {name: 'Liam Neeson', age: 70, nationality: 'Northern Irish'}),
             (guy:Person {name: 'Guy Pearce', age: 55, nationality: 'Australian'}),
             (kathryn:Person {name: 'Kathryn Bigelow', age: 71, nationality: 'American'}),
             (jessica:Person {name: 'Jessica Chastain', age: 45, address: ''}),
             (theMatrix:Movie {title: 'The Matrix'}),
             (keanu)-[:KNOWS]->(carrie), (keanu)-[:KNOWS]->(liam), (keanu)-[:KNOWS]->(kathryn),
             (kathryn)-[:KNOWS]->(jessica), (carrie)-[:KNOWS]->(guy), (liam)-[:KNOWS]->(guy),
             (keanu)-[:ACTED_IN]->(theMatrix), (carrie)-[:ACTED_IN]->(theMatrix)
      """

  Scenario: [1] all() keeps the paths whose every node is younger than 60
    When executing query:
      """
      MATCH p = (a)-[*]->(b)
      WHERE a.name = 'Keanu Reeves' AND b.name = 'Guy Pearce' AND all(x IN nodes(p) WHERE x.age < 60)
      RETURN [n IN nodes(p) | n.name] AS path
      """
    Then the result should be, in any order:
      | path                                                  |
      | ['Keanu Reeves', 'Carrie Anne Moss', 'Guy Pearce']    |
    And no side effects

  Scenario: [2] any() over a string property iterates it as a list of one
    When executing query:
      """
      MATCH (p:Person) WHERE any(nationality IN p.nationality WHERE nationality = 'American')
      RETURN p.name AS name
      """
    Then the result should be, in any order:
      | name               |
      | 'Carrie Anne Moss' |
      | 'Kathryn Bigelow'  |
    And no side effects

  Scenario: [3] exists() of a pattern
    When executing query:
      """
      MATCH (p:Person)
      RETURN p.name AS name, exists((p)-[:ACTED_IN]->()) AS has_acted_in_rels
      """
    Then the result should be, in any order:
      | name               | has_acted_in_rels |
      | 'Keanu Reeves'     | true              |
      | 'Carrie Anne Moss' | true              |
      | 'Liam Neeson'      | false             |
      | 'Guy Pearce'       | false             |
      | 'Kathryn Bigelow'  | false             |
      | 'Jessica Chastain' | false             |
    And no side effects

  Scenario: [4] isEmpty() of a string property: null where the property is missing
    When executing query:
      """
      MATCH (p:Person) WHERE NOT isEmpty(p.nationality) RETURN p.name, p.nationality
      """
    Then the result should be, in any order:
      | p.name             | p.nationality    |
      | 'Keanu Reeves'     | 'Canadian'       |
      | 'Carrie Anne Moss' | 'American'       |
      | 'Liam Neeson'      | 'Northern Irish' |
      | 'Guy Pearce'       | 'Australian'     |
      | 'Kathryn Bigelow'  | 'American'       |
    And no side effects

  Scenario: [5] isEmpty() of a map: no node is without properties
    When executing query:
      """
      MATCH (n) WHERE isEmpty(properties(n)) RETURN n
      """
    Then the result should be, in any order:
      | n |
    And no side effects

  Scenario: [6] isEmpty() of the empty string
    When executing query:
      """
      MATCH (p:Person) WHERE isEmpty(p.address) RETURN p.name AS name
      """
    Then the result should be, in any order:
      | name               |
      | 'Jessica Chastain' |
    And no side effects

  Scenario: [7] none() drops a path through someone older than 60, and one where the answer is unknown
    When executing query:
      """
      MATCH p = (n)-[*]->(b)
      WHERE n.name = 'Keanu Reeves' AND none(x IN nodes(p) WHERE x.age > 60)
      RETURN [x IN nodes(p) | x.name] AS connected_actors
      """
    Then the result should be, in any order:
      | connected_actors                                   |
      | ['Keanu Reeves', 'Carrie Anne Moss']               |
      | ['Keanu Reeves', 'Carrie Anne Moss', 'Guy Pearce'] |
    And no side effects

  Scenario: [8] single() keeps the one path with exactly one Northern Irish node
    When executing query:
      """
      MATCH p = (n)-->(b)
      WHERE n.name = 'Keanu Reeves' AND single(x IN nodes(p) WHERE x.nationality = 'Northern Irish')
      RETURN b.name AS name
      """
    Then the result should be, in any order:
      | name          |
      | 'Liam Neeson' |
    And no side effects

  Scenario Outline: [9] Quantifiers over empty lists, nulls and unknown elements: <query>
    When executing query:
      """
      RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                  | result |
      | all(x IN [] WHERE x > 0)               | true   |
      | any(x IN [] WHERE x > 0)               | false  |
      | none(x IN [] WHERE x > 0)              | true   |
      | single(x IN [] WHERE x > 0)            | false  |
      | all(x IN null WHERE x > 0)             | null   |
      | any(x IN null WHERE x > 0)             | null   |
      | none(x IN null WHERE x > 0)            | null   |
      | single(x IN null WHERE x > 0)          | null   |
      | any(x IN [1, null] WHERE x = 1)        | true   |
      | any(x IN [2, null] WHERE x = 1)        | null   |
      | all(x IN [1, null] WHERE x = 1)        | null   |
      | all(x IN [2, null] WHERE x = 1)        | false  |
      | none(x IN [1, null] WHERE x = 1)       | false  |
      | none(x IN [2, null] WHERE x = 1)       | null   |
      | single(x IN [1, 1, null] WHERE x = 1)  | false  |
      | single(x IN [1, null] WHERE x = 1)     | null   |
      | single(x IN [1, 2] WHERE x = 1)        | true   |
      | isEmpty([])                            | true   |
      | isEmpty({})                            | true   |
      | isEmpty('')                            | true   |
      | isEmpty([null])                        | false  |
      | isEmpty(null)                          | null   |

  Scenario: [10] isEmpty() of a number is refused
    When executing query:
      """
      RETURN isEmpty(1) AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [11] A quantifier over a value known not to be a list is refused
    When executing query:
      """
      RETURN all(x IN 1 WHERE x > 0) AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType
