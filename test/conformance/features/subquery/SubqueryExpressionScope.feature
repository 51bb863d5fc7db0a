# Sources: Neo4j Cypher manual 5, subqueries/existential, subqueries/count and subqueries/collect
# (outer variables are visible in the whole body, also after a WITH, and may not be shadowed there;
# a UNION ALL body needs no RETURN, a UNION body does; COLLECT keeps nulls, collect() drops them;
# a subquery expression may be a grouping key and may be written by SET).
Feature: SubqueryExpressionScope - outer variables in EXISTS, COUNT and COLLECT bodies, UNION bodies, nulls

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (ada:Owner {name: 'Ada', age: 40, alias: 'A'}),
             (bo:Owner {name: 'Bo', age: 30}),
             (cy:Owner {name: 'Cy', age: 50, alias: 'C'}),
             (ada)-[:HAS_DOG {since: 2019}]->(:Dog {name: 'Rex'}),
             (ada)-[:HAS_DOG {since: 2021}]->(:Dog {name: 'Ada'}),
             (bo)-[:HAS_CAT {since: 2020}]->(:Cat {name: 'Tom'}),
             (cy)-[:HAS_DOG {since: 2021}]->(:Dog {name: 'Fido'})
      """

  Scenario: [1] An outer variable stays visible after a WITH inside the body
    When executing query:
      """
      MATCH (o:Owner)
      RETURN o.name AS name,
             COUNT { WITH 2021 AS year MATCH (o)-[r:HAS_DOG]->() WHERE r.since = year } AS recent,
             EXISTS { WITH 'Rex' AS wanted MATCH (o)-->(d:Dog {name: wanted}) } AS hasRex,
             COLLECT { WITH 2019 AS year MATCH (o)-[r]->(p) WHERE r.since > year RETURN p.name ORDER BY p.name } AS later
      ORDER BY name
      """
    Then the result should be, in order:
      | name | recent | hasRex | later         |
      | 'Ada' | 1     | true   | ['Ada']       |
      | 'Bo'  | 0     | false  | ['Tom']       |
      | 'Cy'  | 1     | false  | ['Fido']      |
    And no side effects

  Scenario: [2] An outer variable may be passed on by name inside the body
    When executing query:
      """
      MATCH (o:Owner {name: 'Ada'})
      RETURN COUNT { MATCH (o)-->(d:Dog) WITH o, d RETURN o.name AS owner, d.name AS dog } AS c
      """
    Then the result should be, in any order:
      | c |
      | 2 |
    And no side effects

  Scenario Outline: [3] A WITH or RETURN inside the body may not shadow an outer variable
    When executing query:
      """
      WITH 'Ada' AS name
      MATCH (o:Owner {name: name})
      RETURN <subquery> AS r
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

    Examples:
      | subquery                                                          |
      | COUNT { WITH 'Rex' AS name MATCH (o)-->(d:Dog {name: name}) }     |
      | EXISTS { MATCH (o)-->(d) WITH d.name AS name RETURN name }        |
      | COLLECT { MATCH (o)-->(d) RETURN d.name AS name }                 |
      | COLLECT { MATCH (x:Owner) WITH x AS o RETURN o.name AS n }        |

  Scenario: [4] A UNION ALL body needs no RETURN: every part's rows are counted
    When executing query:
      """
      MATCH (o:Owner)
      RETURN o.name AS name,
             COUNT { MATCH (o)-[:HAS_DOG]->() UNION ALL MATCH (o)-[:HAS_CAT]->() } AS pets,
             EXISTS { MATCH (o)-[:HAS_CAT]->() UNION ALL MATCH (o)-[:HAS_BIRD]->() } AS catOrBird
      ORDER BY name
      """
    Then the result should be, in order:
      | name  | pets | catOrBird |
      | 'Ada' | 2    | false     |
      | 'Bo'  | 1    | true      |
      | 'Cy'  | 1    | false     |
    And no side effects

  Scenario: [5] A COUNT body with a UNION that removes duplicates needs RETURN in every part
    When executing query:
      """
      MATCH (o:Owner)
      RETURN COUNT { MATCH (o)-[:HAS_DOG]->() UNION MATCH (o)-[:HAS_CAT]->() } AS pets
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [10] An EXISTS body with a UNION needs no RETURN
    When executing query:
      """
      MATCH (o:Owner)
      RETURN o.name AS name, EXISTS { MATCH (o)-[:HAS_CAT]->() UNION MATCH (o)-[r:HAS_DOG]->() WHERE r.since < 2020 } AS e
      ORDER BY name
      """
    Then the result should be, in order:
      | name  | e     |
      | 'Ada' | true  |
      | 'Bo'  | true  |
      | 'Cy'  | false |
    And no side effects

  Scenario: [6] With RETURN, UNION counts distinct rows and UNION ALL every row
    When executing query:
      """
      MATCH (o:Owner {name: 'Ada'})
      RETURN COUNT { MATCH (o)-->(d) RETURN labels(d) AS l UNION MATCH (o)-->(d) RETURN labels(d) AS l } AS distinctKinds,
             COUNT { MATCH (o)-->(d) RETURN labels(d) AS l UNION ALL MATCH (o)-->(d) RETURN labels(d) AS l } AS allRows
      """
    Then the result should be, in any order:
      | distinctKinds | allRows |
      | 1             | 4       |
    And no side effects

  Scenario: [7] COLLECT keeps the nulls the aggregate collect() drops
    When executing query:
      """
      MATCH (o:Owner) WITH o ORDER BY o.name
      WITH collect(o.alias) AS aggregated
      RETURN aggregated, COLLECT { MATCH (x:Owner) RETURN x.alias ORDER BY x.name } AS subquery
      """
    Then the result should be, in any order:
      | aggregated | subquery        |
      | ['A', 'C'] | ['A', null, 'C'] |
    And no side effects

  Scenario: [8] A COLLECT subquery as a grouping key
    When executing query:
      """
      MATCH (o:Owner)
      RETURN COLLECT { MATCH (o)-[:HAS_DOG]->(d) RETURN count(d) AS n } AS dogs, avg(o.age) AS age
      ORDER BY age
      """
    Then the result should be, in order:
      | dogs | age  |
      | [0]  | 30.0 |
      | [2]  | 40.0 |
      | [1]  | 50.0 |
    And no side effects

  Scenario: [9] A COUNT subquery written by SET
    When executing query:
      """
      MATCH (o:Owner {name: 'Ada'})
      SET o.dogs = COUNT { (o)-[:HAS_DOG]->(:Dog) }
      RETURN o.dogs AS dogs
      """
    Then the result should be, in any order:
      | dogs |
      | 2    |
    And the side effects should be:
      | +properties | 1 |
