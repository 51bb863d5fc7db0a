# Written from the Neo4j 5 Cypher Manual's pages "WHERE", "RETURN", "WITH", "ORDER BY", "SKIP", "LIMIT",
# "SET", "REMOVE", "DELETE" and "MERGE": their examples over the WHERE page's graph (Andy, Timothy, Peter),
# and the errors they name, where the other files here do not already hold them.
Feature: ManualFilteringExamples - WHERE and projection examples from the manual

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (andy:Swedish:Person {name: 'Andy', age: 36, belt: 'white'}),
             (timothy:Person {name: 'Timothy', age: 25}),
             (peter:Person {name: 'Peter', age: 35, email: 'peter_n@example.com'}),
             (andy)-[:KNOWS {since: 2012}]->(timothy),
             (andy)-[:KNOWS {since: 1999}]->(peter)
      """

  Scenario: [1] Boolean operators with XOR, OR and NOT
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name = 'Peter' XOR (n.age < 30 AND n.name = 'Timothy') OR NOT (n.name = 'Timothy' OR n.name = 'Peter')
      RETURN n.name AS name, n.age AS age
      ORDER BY name
      """
    Then the result should be, in order:
      | name      | age |
      | 'Andy'    | 36  |
      | 'Peter'   | 35  |
      | 'Timothy' | 25  |
    And no side effects

  Scenario: [2] Filtering on a relationship property
    When executing query:
      """
      MATCH (n:Person)-[k:KNOWS]->(f)
      WHERE k.since < 2000
      RETURN f.name AS name, f.age AS age, f.email AS email
      """
    Then the result should be, in any order:
      | name    | age | email                 |
      | 'Peter' | 35  | 'peter_n@example.com' |
    And no side effects

  Scenario: [3] Filtering on a property named by a parameter
    And parameters are:
      | prop | 'age' |
    When executing query:
      """
      MATCH (n:Person)
      WHERE n[$prop] < 30
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name      |
      | 'Timothy' |
    And no side effects

  Scenario: [4] A property that is there, or missing
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.belt = 'white' OR n.belt IS NULL
      RETURN n.name AS name, n.belt AS belt
      ORDER BY name
      """
    Then the result should be, in order:
      | name      | belt    |
      | 'Andy'    | 'white' |
      | 'Peter'   | null    |
      | 'Timothy' | null    |
    And no side effects

  Scenario: [5] String comparison and a chained range
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name < 'B' OR 30 < n.age <= 35
      RETURN n.name AS name
      ORDER BY name
      """
    Then the result should be, in order:
      | name    |
      | 'Andy'  |
      | 'Peter' |
    And no side effects

  Scenario: [6] STARTS WITH, ENDS WITH and CONTAINS together, and with a non-string operand
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name STARTS WITH 'Pet' AND NOT n.name ENDS WITH 's' AND n.name CONTAINS 'ete'
      RETURN n.name AS name, n.name STARTS WITH 1 AS number, n.name STARTS WITH null AS nothing
      """
    Then the result should be, in any order:
      | name    | number | nothing |
      | 'Peter' | null   | null    |
    And no side effects

  Scenario: [7] A pattern predicate with a property map on an unnamed node
    When executing query:
      """
      MATCH (n:Person)
      WHERE (n)-[:KNOWS]-({name: 'Timothy'})
      RETURN n.name AS name, n.age AS age
      """
    Then the result should be, in any order:
      | name   | age |
      | 'Andy' | 36  |
    And no side effects

  Scenario: [8] A variable-length relationship with a property map holds it on every hop
    When executing query:
      """
      MATCH p = (a:Person {name: 'Andy'})-[:KNOWS*1..2 {since: 2012}]->(b)
      RETURN b.name AS name, length(p) AS hops
      """
    Then the result should be, in any order:
      | name      | hops |
      | 'Timothy' | 1    |
    And no side effects

  Scenario: [9] A label predicate in WHERE
    When executing query:
      """
      MATCH (n)
      WHERE n:Swedish
      RETURN n.name AS name, n.age AS age
      """
    Then the result should be, in any order:
      | name   | age |
      | 'Andy' | 36  |
    And no side effects

  Scenario: [10] ORDER BY after RETURN DISTINCT cannot read what was not returned
    When executing query:
      """
      MATCH (n:Person)
      RETURN DISTINCT n.name AS name
      ORDER BY n.age
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [11] ORDER BY after an aggregation cannot read what was not grouped
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name, count(*) AS c
      ORDER BY n.age
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [12] ORDER BY on two keys, SKIP and LIMIT from parameters
    And parameters are:
      | s | 1 |
      | l | 1 |
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name
      ORDER BY n.age DESC, n.name
      SKIP $s
      LIMIT $l
      """
    Then the result should be, in order:
      | name    |
      | 'Peter' |
    And no side effects

  Scenario: [13] A negative SKIP or LIMIT from a parameter fails when the query runs
    And parameters are:
      | l | -1 |
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name
      LIMIT $l
      """
    Then a ArgumentError should be raised at runtime: NegativeIntegerArgument

  Scenario: [14] A negative literal SKIP is refused before the query runs
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name
      SKIP -1
      """
    Then a SyntaxError should be raised at compile time: NegativeIntegerArgument

  Scenario: [15] SET and REMOVE on a null from OPTIONAL MATCH do nothing
    When executing query:
      """
      OPTIONAL MATCH (n:Missing)
      SET n.x = 1, n:Found
      REMOVE n.y
      RETURN n
      """
    Then the result should be, in any order:
      | n    |
      | null |
    And no side effects

  Scenario: [16] Setting a property to an expression that is null removes it
    When executing query:
      """
      MATCH (n:Person {name: 'Peter'})
      SET n.age = n.missing + 1
      RETURN n.age AS age, keys(n) AS keys
      """
    Then the result should be (ignoring element order for lists):
      | age  | keys              |
      | null | ['name', 'email'] |
    And the side effects should be:
      | -properties | 1 |

  Scenario: [17] A map parameter cannot stand for the properties MERGE matches
    And parameters are:
      | props | {name: 'Andy'} |
    When executing query:
      """
      MERGE (n $props)
      RETURN n
      """
    Then a SyntaxError should be raised at compile time: InvalidParameterUse

  Scenario: [18] MERGE on a property of a map parameter, then ON CREATE SET += the map
    And parameters are:
      | p | {name: 'Zed', age: 9} |
    When executing query:
      """
      MERGE (n:Person {name: $p.name})
        ON CREATE SET n += $p
      RETURN n.name AS name, n.age AS age
      """
    Then the result should be, in any order:
      | name  | age |
      | 'Zed' | 9   |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 2 |

  Scenario: [19] Creating a node per map of a list parameter
    And parameters are:
      | props | [{name: 'Andy', position: 'Developer'}, {name: 'Michael', position: 'Developer'}] |
    When executing query:
      """
      UNWIND $props AS map
      CREATE (n:Employee)
      SET n = map
      RETURN count(n) AS created
      """
    Then the result should be, in any order:
      | created |
      | 2       |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 4 |

  Scenario: [20] DETACH DELETE of a path deletes its nodes and relationships
    When executing query:
      """
      MATCH p = (:Person {name: 'Andy'})-[:KNOWS]->(:Person {name: 'Timothy'})
      DETACH DELETE p
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 2 |
      | -relationships | 2 |
      | -properties    | 7 |
      | -labels        | 1 |

  Scenario: [21] After DELETE the node may be counted but not read
    When executing query:
      """
      MATCH (n:Person {name: 'Peter'})
      DETACH DELETE n
      RETURN n.name AS name
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess

  Scenario: [22] WITH ORDER BY and LIMIT, then a RETURN of the kept column
    When executing query:
      """
      MATCH (n:Person)
      WITH n.name AS name, n.age AS age
      ORDER BY age
      LIMIT 1
      RETURN name
      """
    Then the result should be, in any order:
      | name      |
      | 'Timothy' |
    And no side effects

  Scenario: [23] WITH * with an extra column
    When executing query:
      """
      MATCH (n:Person {name: 'Andy'})
      WITH *, n.age + 1 AS next
      RETURN n.name AS name, next
      """
    Then the result should be, in any order:
      | name   | next |
      | 'Andy' | 37   |
    And no side effects

  Scenario: [24] Two columns of one name are refused
    When executing query:
      """
      MATCH (n:Person)
      RETURN n.name AS name, n.age AS name
      """
    Then a SyntaxError should be raised at compile time: ColumnNameConflict

  Scenario: [25] RETURN * with no variables in scope is refused
    When executing query:
      """
      RETURN *
      """
    Then a SyntaxError should be raised at compile time: NoVariablesInScope

  Scenario: [26] A literal, a comparison and an EXISTS subquery as returned columns
    When executing query:
      """
      MATCH (a:Person {name: 'Andy'})
      RETURN a.age > 30 AS older, "I'm a literal" AS literal, EXISTS { (a)-->() } AS knows
      """
    Then the result should be, in any order:
      | older | literal         | knows |
      | true  | 'I\'m a literal' | true  |
    And no side effects
