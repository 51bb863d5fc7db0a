# Written from the Neo4j 5 Cypher Manual's page "Casting data values": its examples on the page's graph,
# the error for a value a conversion does not take, and the OrNull and List forms beside it.
Feature: Manual - casting data values

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (keanu:Person {name: 'Keanu Reeves', age: 58, active: true}),
             (carrieAnne:Person {name: 'Carrie-Anne Moss', age: 55, active: true}),
             (keanu)-[r:KNOWS {since: 1999}]->(carrieAnne)
      """

  Scenario: [1] Returning converted values: null where a string does not convert
    When executing query:
      """
      MATCH (keanu:Person {name: 'Keanu Reeves'}) RETURN toFloat(keanu.age), toInteger(keanu.name)
      """
    Then the result should be, in any order:
      | toFloat(keanu.age) | toInteger(keanu.name) |
      | 58.0               | null                  |
    And no side effects

  Scenario: [2] A conversion of a value it does not take is an error
    When executing query:
      """
      WITH date({year: 2023, month: 5, day: 2}) AS d RETURN toFloat(d)
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [3] The OrNull form of the same conversion gives null
    When executing query:
      """
      WITH date({year: 2023, month: 5, day: 2}) AS d RETURN toFloatOrNull(d) AS f, toIntegerOrNull(d) AS i, toStringOrNull(d) AS s
      """
    Then the result should be, in any order:
      | f    | i    | s            |
      | null | null | '2023-05-02' |
    And no side effects

  Scenario: [4] Updating property value types with converted values
    When executing query:
      """
      MATCH (keanu:Person {name: 'Keanu Reeves'})
      SET keanu.age = toFloat(keanu.age), keanu.active = toString(keanu.active)
      RETURN keanu.age AS age, keanu.active AS active
      """
    Then the result should be, in any order:
      | age  | active |
      | 58.0 | 'true' |
    And the side effects should be:
      | +properties | 2 |
      | -properties | 2 |

  Scenario: [5] Converting lists of values
    When executing query:
      """
      MATCH (n:Person)
      RETURN toStringList(collect(n.age)) AS ages, toIntegerList(['1', '2.5', 'x']) AS ints,
             toFloatList(collect(n.age)) AS floats, toBooleanList(['true', 'no', null]) AS bools
      """
    Then the result should be (ignoring element order for lists):
      | ages         | ints         | floats       | bools               |
      | ['58', '55'] | [1, 2, null] | [58.0, 55.0] | [true, null, null]  |
    And no side effects
