# Written from the Neo4j 5 Cypher Manual: "FOREACH" (clauses/foreach), "FINISH" (clauses/finish), and the
# `||` operator of "String operators" and "List operators" (syntax/operators).
Feature: ForeachFinishConcat - FOREACH runs updates per element, FINISH ends a query, || concatenates

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Stop {name: 'North'})-[:NEXT]->(:Stop {name: 'Mid'})-[:NEXT]->(:Stop {name: 'South'})
      """

  Scenario: [1] FOREACH sets a property on every node of a path
    When executing query:
      """
      MATCH p = (:Stop {name: 'North'})-[:NEXT*]->(:Stop {name: 'South'})
      FOREACH (s IN nodes(p) | SET s.visited = true)
      RETURN size(nodes(p)) AS stops
      """
    Then the result should be, in any order:
      | stops |
      | 3     |
    And the side effects should be:
      | +properties | 3 |

  Scenario: [2] FOREACH passes each incoming row on once, whatever the list holds
    When executing query:
      """
      UNWIND [[1, 2, 3], [], null] AS xs
      FOREACH (x IN xs | CREATE (:Tick {v: x}))
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 3    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [3] Nested FOREACH
    When executing query:
      """
      FOREACH (i IN [1, 2] | FOREACH (j IN [10, 20] | CREATE (:Cell {v: i * j})))
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 4 |
      | +labels     | 1 |
      | +properties | 4 |

  Scenario: [4] The CASE idiom makes an update conditional
    When executing query:
      """
      MATCH (s:Stop)
      FOREACH (ignored IN CASE WHEN s.name STARTS WITH 'M' THEN [1] ELSE [] END | SET s:Middle)
      WITH s WHERE s:Middle
      RETURN s.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Mid' |
    And the side effects should be:
      | +labels | 1 |

  Scenario: [5] MERGE inside FOREACH sees what the earlier elements created
    When executing query:
      """
      FOREACH (n IN ['a', 'b', 'a', 'c', 'b'] | MERGE (:Letter {name: n}))
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  Scenario: [6] FOREACH may use outer variables and create relationships to them
    When executing query:
      """
      MATCH (s:Stop {name: 'South'})
      FOREACH (k IN range(1, 2) | CREATE (s)-[:EXIT]->(:Gate {k: k}))
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 2 |
      | +labels        | 1 |
      | +properties    | 2 |

  Scenario: [7] A reading clause inside FOREACH is refused
    When executing query:
      """
      FOREACH (x IN [1] | MATCH (n) SET n.x = x)
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [8] The element variable is not visible after FOREACH
    When executing query:
      """
      FOREACH (x IN [1, 2] | CREATE (:T))
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [9] The element variable may not shadow an outer one
    When executing query:
      """
      WITH 1 AS x
      FOREACH (x IN [1, 2] | CREATE (:T))
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [10] FOREACH over a value that is not a list is refused
    When executing query:
      """
      FOREACH (x IN 42 | CREATE (:T))
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [11] FINISH ends a query that writes and returns no rows
    When executing query:
      """
      MATCH (s:Stop)
      SET s.checked = 1
      FINISH
      """
    Then the result should be empty
    And the side effects should be:
      | +properties | 3 |

  Scenario: [12] FINISH may end a query that only reads
    When executing query:
      """
      MATCH (s:Stop)
      FINISH
      """
    Then the result should be empty
    And no side effects

  Scenario: [13] FINISH must be last
    When executing query:
      """
      MATCH (s:Stop)
      FINISH
      RETURN s
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [14] || joins strings and lists, at the precedence of +
    When executing query:
      """
      RETURN 'Mid' || 'night' AS word, [1, 2] || [3] AS list, 'a' || 'b' || 'c' AS three,
             [1] || [] || [[2]] AS nested
      """
    Then the result should be, in any order:
      | word       | list      | three | nested     |
      | 'Midnight' | [1, 2, 3] | 'abc' | [1, [2]]   |
    And no side effects

  Scenario: [15] || with null is null
    When executing query:
      """
      RETURN 'a' || null AS s, null || [1] AS l
      """
    Then the result should be, in any order:
      | s    | l    |
      | null | null |
    And no side effects

  Scenario: [16] || over a property read from the graph
    When executing query:
      """
      MATCH (a:Stop)-[:NEXT]->(b:Stop)
      RETURN a.name || '-' || b.name AS leg
      """
    Then the result should be, in any order:
      | leg         |
      | 'North-Mid' |
      | 'Mid-South' |
    And no side effects

  Scenario: [17] || of a number and a string is a type error
    When executing query:
      """
      WITH 1 AS n
      RETURN n || 'x' AS bad
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [18] FOREACH creating nodes of the label the outer MATCH scans does not feed the scan
    When executing query:
      """
      MATCH (s:Stop)
      FOREACH (i IN [1, 2] | CREATE (:Stop {name: s.name + toString(i)}))
      RETURN count(*) AS stops
      """
    Then the result should be, in any order:
      | stops |
      | 3     |
    And the side effects should be:
      | +nodes      | 6 |
      | +properties | 6 |

  Scenario: [19] DELETE inside FOREACH
    When executing query:
      """
      MATCH p = (:Stop {name: 'North'})-[:NEXT*]->(:Stop {name: 'South'})
      FOREACH (r IN relationships(p) | DELETE r)
      """
    Then the result should be empty
    And the side effects should be:
      | -relationships | 2 |

  Scenario: [20] finish and foreach remain usable as variable names
    When executing query:
      """
      MATCH p = (start:Stop)-[:NEXT*]->(finish:Stop)
      WHERE start.name = 'North' AND finish.name = 'South'
      WITH finish, 1 AS foreach
      RETURN finish.name AS name, foreach
      """
    Then the result should be, in any order:
      | name    | foreach |
      | 'South' | 1       |
    And no side effects

  Scenario: [21] FOREACH over a parameter that is not a list fails when the row is run
    And parameters are:
      | items | 42 |
    When executing query:
      """
      FOREACH (x IN $items | CREATE (:T {v: x}))
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [22] FOREACH over a property that holds a string fails when the row is run, not once per character
    When executing query:
      """
      MATCH (s:Stop {name: 'North'})
      FOREACH (x IN s.name | CREATE (:T {v: x}))
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [23] FOREACH over a null value runs nothing, and the row passes on
    When executing query:
      """
      MATCH (s:Stop {name: 'North'})
      FOREACH (x IN s.missing | CREATE (:T {v: x}))
      RETURN s.name AS name
      """
    Then the result should be, in any order:
      | name    |
      | 'North' |
    And no side effects

  Scenario: [24] FOREACH over a map value fails when the row is run
    And parameters are:
      | items | {a: 1} |
    When executing query:
      """
      FOREACH (x IN $items | CREATE (:T))
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType
