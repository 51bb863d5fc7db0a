# Written from the Neo4j 5 Cypher Manual's subquery pages: "CALL subqueries" on the page's team graph,
# and "EXISTS subqueries", "COUNT subqueries" and "COLLECT subqueries" on their pets graph: each example,
# and the errors the pages name.
Feature: Manual - CALL, EXISTS, COUNT and COLLECT subqueries

  Scenario: [1] A CALL subquery runs once per incoming row
    Given an empty graph
    When executing query:
      """
      UNWIND [0, 1, 2] AS x CALL () { RETURN 'hello' AS innerReturn } RETURN innerReturn
      """
    Then the result should be, in any order:
      | innerReturn |
      | 'hello'     |
      | 'hello'     |
      | 'hello'     |
    And no side effects

  Scenario: [2] A CALL subquery aggregates per imported team
    Given an empty graph
    And having executed:
      """
      CREATE (teamA:Team {name: 'Team A'}), (teamB:Team {name: 'Team B'}), (teamC:Team {name: 'Team C'}),
             (playerA:Player {name: 'Player A', age: 21}), (playerB:Player {name: 'Player B', age: 23}),
             (playerC:Player {name: 'Player C', age: 19}), (playerD:Player {name: 'Player D', age: 30}),
             (playerE:Player {name: 'Player E', age: 25}), (playerF:Player {name: 'Player F', age: 35}),
             (playerA)-[:PLAYS_FOR]->(teamA), (playerB)-[:PLAYS_FOR]->(teamA), (playerC)-[:PLAYS_FOR]->(teamA),
             (playerD)-[:PLAYS_FOR]->(teamB), (playerE)-[:PLAYS_FOR]->(teamC), (playerF)-[:PLAYS_FOR]->(teamC),
             (playerA)-[:FRIEND_OF]->(playerB), (playerA)-[:FRIEND_OF]->(playerC),
             (playerB)-[:FRIEND_OF]->(playerF), (playerC)-[:FRIEND_OF]->(playerD),
             (teamA)-[:OWES {dollars: 1500}]->(teamB), (teamA)-[:OWES {dollars: 3000}]->(teamB),
             (teamB)-[:OWES {dollars: 1700}]->(teamC), (teamC)-[:OWES {dollars: 5000}]->(teamB)
      """
    When executing query:
      """
      MATCH (t:Team)
      CALL (t) {
        MATCH (t)-[o:OWES]->(other:Team)
        RETURN sum(o.dollars) AS owedAmount, other.name AS owedTeam
      }
      RETURN t.name AS owingTeam, owedAmount, owedTeam
      """
    Then the result should be, in any order:
      | owingTeam | owedAmount | owedTeam |
      | 'Team A'  | 4500       | 'Team B' |
      | 'Team B'  | 1700       | 'Team C' |
      | 'Team C'  | 5000       | 'Team B' |
    And no side effects

  Scenario: [3] Post-union processing: the youngest and the oldest player
    Given an empty graph
    And having executed:
      """
      CREATE (:Player {name: 'Player A', age: 21}), (:Player {name: 'Player B', age: 23}),
             (:Player {name: 'Player C', age: 19}), (:Player {name: 'Player F', age: 35})
      """
    When executing query:
      """
      CALL () {
        MATCH (p:Player) RETURN p ORDER BY p.age ASC LIMIT 1
        UNION
        MATCH (p:Player) RETURN p ORDER BY p.age DESC LIMIT 1
      }
      RETURN p.name AS playerName, p.age AS age
      """
    Then the result should be, in any order:
      | playerName | age |
      | 'Player C' | 19  |
      | 'Player F' | 35  |
    And no side effects

  Scenario: [4] A unit subquery writes and keeps the outer rows as they were
    Given an empty graph
    And having executed:
      """
      CREATE (:Player {name: 'Player A'}), (:Player {name: 'Player B'})
      """
    When executing query:
      """
      MATCH (p:Player)
      CALL (p) { UNWIND range(1, 3) AS i CREATE (:Person {name: p.name, i: i}) }
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 2    |
    And the side effects should be:
      | +nodes      | 6  |
      | +labels     | 1  |
      | +properties | 12 |

  Scenario: [5] CALL (*) imports every variable and CALL () none
    Given an empty graph
    When executing query:
      """
      WITH 1 AS x, 2 AS y
      CALL (*) { RETURN x + y AS sum }
      CALL () { RETURN 10 AS ten }
      RETURN sum, ten
      """
    Then the result should be, in any order:
      | sum | ten |
      | 3   | 10  |
    And no side effects

  Scenario: [6] A variable not imported is not in scope inside the subquery
    Given an empty graph
    When executing query:
      """
      WITH 1 AS x CALL () { RETURN x AS y } RETURN y
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [7] A subquery may not return a variable the outer scope already has
    Given an empty graph
    When executing query:
      """
      WITH 1 AS x CALL () { RETURN 2 AS x } RETURN x
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario Outline: [8] The pets graph: <title>
    Given an empty graph
    And having executed:
      """
      CREATE (andy:Swedish:Person {name: 'Andy', age: 36}),
             (timothy:Person {name: 'Timothy', nickname: 'Tim', age: 25}),
             (peter:Person {name: 'Peter', nickname: 'Pete', age: 35}),
             (andy)-[:HAS_DOG {since: 2016}]->(:Dog {name: 'Andy'}),
             (timothy)-[:HAS_CAT {since: 2019}]->(:Cat {name: 'Mittens'}),
             (fido:Dog {name: 'Fido'})<-[:HAS_DOG {since: 2010}]-(peter)-[:HAS_DOG {since: 2018}]->(:Dog {name: 'Ozzy'}),
             (fido)-[:HAS_TOY]->(:Toy {name: 'Banana'})
      """
    When executing query:
      """
      MATCH (person:Person) WHERE <condition> RETURN person.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | <name> |
    And no side effects

    Examples:
      | title                               | condition                                                                                                          | name    |
      | EXISTS of a pattern                 | EXISTS { (person)-[:HAS_DOG]->(:Dog) } AND person.age > 35                                                          | 'Andy'  |
      | EXISTS with a WHERE                 | EXISTS { MATCH (person)-[:HAS_DOG]->(dog:Dog) WHERE person.name = dog.name }                                        | 'Andy'  |
      | nested EXISTS                       | EXISTS { MATCH (person)-[:HAS_DOG]->(dog:Dog) WHERE EXISTS { MATCH (dog)-[:HAS_TOY]->(toy:Toy) WHERE toy.name = 'Banana' } } | 'Peter' |
      | EXISTS beginning with WITH          | EXISTS { WITH 'Ozzy' AS dogName MATCH (person)-[:HAS_DOG]->(d:Dog) WHERE d.name = dogName }                        | 'Peter' |
      | COUNT of a pattern                  | COUNT { (person)-[:HAS_DOG]->(:Dog) } > 1                                                                           | 'Peter' |
      | COUNT with a WHERE                  | COUNT { (person)-[:HAS_DOG]->(dog:Dog) WHERE person.name = dog.name } = 1                                          | 'Andy'  |
      | COUNT beginning with WITH           | COUNT { WITH 'Ozzy' AS dogName MATCH (person)-[:HAS_DOG]->(d:Dog) WHERE d.name = dogName } = 1                     | 'Peter' |
      | COUNT with a RETURN                 | COUNT { MATCH (person)-[:HAS_DOG]->(:Dog) RETURN person.name } = 1                                                  | 'Andy'  |
      | COLLECT in an IN                    | 'Ozzy' IN COLLECT { MATCH (person)-[:HAS_DOG]->(dog:Dog) RETURN dog.name }                                          | 'Peter' |
      | COLLECT compared with the empty list | COLLECT { MATCH (person)-[:HAS_DOG]->(d:Dog) RETURN d.name } = []                                                  | 'Timothy' |

  Scenario: [9] EXISTS, COUNT and COLLECT as values, with UNION inside
    Given an empty graph
    And having executed:
      """
      CREATE (andy:Swedish:Person {name: 'Andy', age: 36}),
             (timothy:Person {name: 'Timothy', nickname: 'Tim', age: 25}),
             (peter:Person {name: 'Peter', nickname: 'Pete', age: 35}),
             (andy)-[:HAS_DOG {since: 2016}]->(:Dog {name: 'Andy'}),
             (timothy)-[:HAS_CAT {since: 2019}]->(:Cat {name: 'Mittens'}),
             (fido:Dog {name: 'Fido'})<-[:HAS_DOG {since: 2010}]-(peter)-[:HAS_DOG {since: 2018}]->(:Dog {name: 'Ozzy'})
      """
    When executing query:
      """
      MATCH (person:Person)
      RETURN person.name AS name,
             EXISTS { MATCH (person)-[:HAS_DOG]->(:Dog) } AS hasDog,
             EXISTS { MATCH (person)-[:HAS_DOG]->(:Dog) UNION MATCH (person)-[:HAS_CAT]->(:Cat) } AS hasPet,
             COUNT { (person)-[:HAS_DOG]->(:Dog) } AS howManyDogs,
             COUNT { MATCH (person)-[:HAS_DOG]->(dog:Dog) RETURN dog.name AS petName
                     UNION MATCH (person)-[:HAS_CAT]->(cat:Cat) RETURN cat.name AS petName } AS numPets,
             COLLECT { MATCH (person)-[r:HAS_DOG]->(dog:Dog) WHERE r.since > 2017 RETURN dog.name } AS youngDogs,
             COLLECT { MATCH (person)-[:HAS_DOG]->(dog:Dog) RETURN dog.name AS petName
                       UNION MATCH (person)-[:HAS_CAT]->(cat:Cat) RETURN cat.name AS petName } AS petNames
      """
    Then the result should be (ignoring element order for lists):
      | name      | hasDog | hasPet | howManyDogs | numPets | youngDogs | petNames         |
      | 'Andy'    | true   | true   | 1           | 1       | []        | ['Andy']         |
      | 'Timothy' | false  | true   | 0           | 1       | []        | ['Mittens']      |
      | 'Peter'   | true   | true   | 2           | 2       | ['Ozzy']  | ['Ozzy', 'Fido'] |
    And no side effects

  Scenario: [10] COUNT and COLLECT in SET, in CASE and as grouping keys
    Given an empty graph
    And having executed:
      """
      CREATE (andy:Person {name: 'Andy', age: 36}), (timothy:Person {name: 'Timothy', age: 25}),
             (peter:Person {name: 'Peter', age: 35}),
             (andy)-[:HAS_DOG]->(:Dog {name: 'Andy'}), (timothy)-[:HAS_CAT]->(:Cat {name: 'Mittens'}),
             (peter)-[:HAS_DOG]->(:Dog {name: 'Fido'}), (peter)-[:HAS_DOG]->(:Dog {name: 'Ozzy'})
      """
    When executing query:
      """
      MATCH (person:Person)
      SET person.howManyDogs = COUNT { (person)-[:HAS_DOG]->(:Dog) }
      WITH person
      RETURN CASE WHEN person.howManyDogs > 1 THEN 'Doglover ' + person.name ELSE person.name END AS result,
             COLLECT { MATCH (person)-[:HAS_CAT]->(c:Cat) RETURN c.name } AS catNames
      """
    Then the result should be, in any order:
      | result           | catNames    |
      | 'Andy'           | []          |
      | 'Timothy'        | ['Mittens'] |
      | 'Doglover Peter' | []          |
    And the side effects should be:
      | +properties | 3 |

  Scenario: [11] A COUNT subquery as a grouping key
    Given an empty graph
    And having executed:
      """
      CREATE (andy:Person {name: 'Andy', age: 36}), (timothy:Person {name: 'Timothy', age: 25}),
             (peter:Person {name: 'Peter', age: 35}),
             (andy)-[:HAS_DOG]->(:Dog), (peter)-[:HAS_DOG]->(:Dog), (peter)-[:HAS_DOG]->(:Dog)
      """
    When executing query:
      """
      MATCH (person:Person)
      RETURN COUNT { (person)-[:HAS_DOG]->(:Dog) } AS numDogs, avg(person.age) AS averageAge
      ORDER BY numDogs
      """
    Then the result should be, in order:
      | numDogs | averageAge |
      | 0       | 25.0       |
      | 1       | 36.0       |
      | 2       | 35.0       |
    And no side effects

  Scenario: [12] A COLLECT subquery must return exactly one column
    Given an empty graph
    When executing query:
      """
      MATCH (person:Person)
      RETURN COLLECT { MATCH (person)-[:HAS_DOG]->(dog:Dog) RETURN dog.name, dog.age } AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [13] A subquery expression may not write
    Given an empty graph
    When executing query:
      """
      MATCH (person:Person) RETURN COUNT { MATCH (person) SET person.x = 1 RETURN person } AS n
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition
