# Written from the Neo4j 5 Cypher Manual: "MATCH", "CREATE", "SET" and "REMOVE" (dynamic labels, types and
# properties, `$(expr)`, `$any(expr)`, `n[key]`, new in 5.26), and "Property access" for `n[key]` reads.
Feature: DynamicLabelsTypesProperties - labels, types and property keys named by values

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Fruit:Red {name: 'cherry', kg: 2}), (:Fruit:Green {name: 'lime', kg: 5}),
             (:Veg:Green {name: 'leek', kg: 1}),
             (:Farm {name: 'Oak'})-[:GROWS {acres: 3}]->(:Orchard {name: 'East'}),
             (:Farm {name: 'Elm'})-[:SELLS {acres: 1}]->(:Orchard {name: 'West'})
      """

  Scenario: [1] MATCH by a label given as a parameter
    Given parameters are:
      | label | 'Fruit' |
    When executing query:
      """
      MATCH (n:$($label))
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name     |
      | 'cherry' |
      | 'lime'   |
    And no side effects

  Scenario: [2] A list names labels a node must all have
    When executing query:
      """
      MATCH (n:$(['Fruit', 'Green']))
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | 'lime' |
    And no side effects

  Scenario: [3] $any matches a node with any of the labels
    When executing query:
      """
      MATCH (n:$any(['Red', 'Veg']))
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name     |
      | 'cherry' |
      | 'leek'   |
    And no side effects

  Scenario: [4] A written label and a dynamic one together
    When executing query:
      """
      WITH 'Green' AS colour
      MATCH (n:Veg:$(colour))
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name   |
      | 'leek' |
    And no side effects

  Scenario: [5] MATCH by a relationship type given as a value
    When executing query:
      """
      UNWIND ['GROWS', 'SELLS'] AS t
      MATCH (f:Farm)-[r:$(t)]->(o)
      RETURN t, f.name AS farm, r.acres AS acres
      """
    Then the result should be, in any order:
      | t       | farm  | acres |
      | 'GROWS' | 'Oak' | 3     |
      | 'SELLS' | 'Elm' | 1     |
    And no side effects

  Scenario: [6] $any over relationship types, without a relationship variable
    When executing query:
      """
      MATCH (f:Farm)-[:$any(['GROWS', 'LEASES'])]->(o)
      RETURN o.name AS orchard
      """
    Then the result should be, in any order:
      | orchard |
      | 'East'  |
    And no side effects

  Scenario: [7] A dynamic label as a predicate in WHERE
    When executing query:
      """
      MATCH (n) WHERE n:$('Red')
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name     |
      | 'cherry' |
    And no side effects

  Scenario: [8] CREATE with dynamic labels and a dynamic relationship type
    Given parameters are:
      | labels | ['Tool', 'Metal'] |
      | type   | 'HANGS_IN'        |
    When executing query:
      """
      CREATE (t:$($labels) {name: 'saw'})-[r:$($type)]->(:Shed)
      RETURN labels(t) AS labels, type(r) AS type
      """
    Then the result should be, in any order:
      | labels             | type       |
      | ['Tool', 'Metal']  | 'HANGS_IN' |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 3 |
      | +properties    | 1 |

  Scenario: [9] SET and REMOVE a label named per row
    When executing query:
      """
      MATCH (n:Fruit)
      SET n:$(toUpper(n.name))
      REMOVE n:$('Fruit')
      RETURN n.name AS name, labels(n) AS labels
      """
    Then the result should be, in any order:
      | name     | labels              |
      | 'cherry' | ['Red', 'CHERRY']   |
      | 'lime'   | ['Green', 'LIME']   |
    And the side effects should be:
      | +labels | 2 |
      | -labels | 1 |

  Scenario: [10] SET and REMOVE a property named by a value
    When executing query:
      """
      MATCH (n:Veg)
      WITH n, 'colour' AS key
      SET n[key] = 'green'
      REMOVE n['kg']
      RETURN n[key] AS colour, n.kg AS kg, keys(n) AS keys
      """
    Then the result should be, in any order:
      | colour  | kg   | keys               |
      | 'green' | null | ['name', 'colour'] |
    And the side effects should be:
      | +properties | 1 |
      | -properties | 1 |

  Scenario: [11] Reading a property by a computed key
    When executing query:
      """
      MATCH (n:Fruit)
      UNWIND ['name', 'kg'] AS k
      RETURN n.name AS fruit, k, n[k] AS value
      ORDER BY fruit, k
      """
    Then the result should be, in order:
      | fruit    | k      | value    |
      | 'cherry' | 'kg'   | 2        |
      | 'cherry' | 'name' | 'cherry' |
      | 'lime'   | 'kg'   | 5        |
      | 'lime'   | 'name' | 'lime'   |
    And no side effects

  Scenario: [12] A dynamic label that is not a string is a type error
    When executing query:
      """
      MATCH (n:$(42))
      RETURN n
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [13] A dynamic relationship type to create names exactly one type
    When executing query:
      """
      CREATE (:A)-[:$(['X', 'Y'])]->(:B)
      """
    Then an ArgumentError should be raised at runtime: InvalidArgumentValue

  Scenario: [14] A dynamic property key must be a string
    When executing query:
      """
      MATCH (n:Veg)
      SET n[1] = 'x'
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [15] MERGE finds a node by its dynamic labels, or creates it with them
    When executing query:
      """
      UNWIND [['Fruit', 'Red'], ['Fruit', 'Purple']] AS labels
      MERGE (n:$(labels) {name: 'cherry'})
      RETURN labels(n) AS labels
      """
    Then the result should be, in any order:
      | labels              |
      | ['Fruit', 'Red']    |
      | ['Fruit', 'Purple'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [17] MERGE of a relationship with a dynamic type
    When executing query:
      """
      MATCH (f:Farm {name: 'Oak'}), (o:Orchard {name: 'East'})
      UNWIND ['GROWS', 'OWNS', 'OWNS'] AS t
      MERGE (f)-[r:$(t)]->(o)
      RETURN t, type(r) AS type
      """
    Then the result should be, in any order:
      | t       | type    |
      | 'GROWS' | 'GROWS' |
      | 'OWNS'  | 'OWNS'  |
      | 'OWNS'  | 'OWNS'  |
    And the side effects should be:
      | +relationships | 1 |

  Scenario: [18] Dynamic labels and types inside an EXISTS or COUNT pattern
    When executing query:
      """
      MATCH (f:Farm)
      WHERE EXISTS { (f)-[:$('GROWS')]->(:$('Orchard')) }
      RETURN f.name AS name, COUNT { (f)-[:$any(['GROWS', 'SELLS'])]->() } AS links
      """
    Then the result should be, in any order:
      | name  | links |
      | 'Oak' | 1     |
    And no side effects

  Scenario: [19] Dynamic labels and label expressions in a pattern comprehension
    When executing query:
      """
      MATCH (f:Farm)
      RETURN f.name AS farm, [(f)-[:$('GROWS')]->(o:$('Orchard')) | o.name] AS grown,
             [(f)-->(o:Orchard|Shed WHERE o.name STARTS WITH 'W') | o.name] AS west
      """
    Then the result should be, in any order:
      | farm  | grown    | west     |
      | 'Oak' | ['East'] | []       |
      | 'Elm' | []       | ['West'] |
    And no side effects

  Scenario: [16] A constraint names its label
    When executing query:
      """
      CREATE CONSTRAINT FOR (n:$('Fruit')) REQUIRE n.name IS UNIQUE
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [20] An EXISTS pattern takes label expressions and a WHERE inside a node, as MATCH does
    When executing query:
      """
      MATCH (n)
      WHERE EXISTS { (n:Fruit|Veg WHERE n.kg > 1) }
      RETURN n.name AS name
      """
    Then the result should be, in any order:
      | name     |
      | 'cherry' |
      | 'lime'   |
    And no side effects
