# Sources: openCypher 9 reference, map projection (property selector, all-properties selector .*,
# literal entry, variable selector); Neo4j Cypher manual 5, values-and-types/maps (map projection on null).
Feature: MapProjections - selectors on nodes, relationships and maps, and on null

  Scenario: [1] All properties, a variable, a literal entry and a repeated property selector
    Given an empty graph
    And having executed:
      """
      CREATE (:Fish {kind: 'cod', kg: 3})
      """
    When executing query:
      """
      MATCH (f:Fish) WITH f, 7 AS k
      RETURN f {.*, k, extra: 'x', .kind} AS m
      """
    Then the result should be, in any order:
      | m                                        |
      | {kind: 'cod', kg: 3, k: 7, extra: 'x'}   |
    And no side effects

  Scenario: [2] A missing property is projected as null
    Given an empty graph
    And having executed:
      """
      CREATE (:Fish {kind: 'cod'})
      """
    When executing query:
      """
      MATCH (f:Fish) RETURN f {.missing, .kind} AS m
      """
    Then the result should be, in any order:
      | m                              |
      | {missing: null, kind: 'cod'}   |
    And no side effects

  Scenario: [3] A projection of null is null
    Given an empty graph
    When executing query:
      """
      OPTIONAL MATCH (f:Fish) RETURN f {.*, x: 1} AS m, f {.kind} AS n
      """
    Then the result should be, in any order:
      | m    | n    |
      | null | null |
    And no side effects

  Scenario: [4] On a map, a literal entry overrides what .* brought
    Given any graph
    When executing query:
      """
      WITH {a: 1, b: {c: 2}} AS map
      RETURN map {.*, a: 10} AS m, map {.b} AS n, map {} AS o
      """
    Then the result should be, in any order:
      | m                   | n           | o  |
      | {a: 10, b: {c: 2}}  | {b: {c: 2}} | {} |
    And no side effects

  Scenario: [5] Relationship projections
    Given an empty graph
    And having executed:
      """
      CREATE ()-[:EATS {g: 200}]->()
      """
    When executing query:
      """
      MATCH ()-[r:EATS]->() RETURN r {.*, t: type(r)} AS m
      """
    Then the result should be, in any order:
      | m                   |
      | {g: 200, t: 'EATS'} |
    And no side effects

  Scenario: [6] A projection of a value that is not a map or entity is refused
    Given any graph
    When executing query:
      """
      WITH 5 AS x RETURN x {.a} AS m
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [7] Projections inside comprehensions and collect
    Given an empty graph
    And having executed:
      """
      CREATE (:Fish {kind: 'cod', kg: 3}), (:Fish {kind: 'eel', kg: 1})
      """
    When executing query:
      """
      MATCH (f:Fish) WITH f ORDER BY f.kg
      RETURN collect(f {.kind}) AS kinds
      """
    Then the result should be, in any order:
      | kinds                              |
      | [{kind: 'eel'}, {kind: 'cod'}]     |
    And no side effects
