Feature: DeletedEntityAccess - what may still be read of an entity the statement deleted

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Ship {name: 'Argo'})-[:DOCKED_AT {berth: 4}]->(:Port {name: 'Iolcus'})
      """

  Scenario: [1] The type of a deleted relationship stays readable
    When executing query:
      """
      MATCH (:Ship)-[d]->(:Port)
      DELETE d
      RETURN type(d) AS t
      """
    Then the result should be, in any order:
      | t           |
      | 'DOCKED_AT' |
    And the side effects should be:
      | -relationships | 1 |
      | -properties    | 1 |

  Scenario: [2] The type of a relationship created and deleted in one statement stays readable
    When executing query:
      """
      MATCH (s:Ship), (p:Port)
      CREATE (s)-[m:MOORED]->(p)
      DELETE m
      RETURN type(m) AS t
      """
    Then the result should be, in any order:
      | t        |
      | 'MOORED' |
    And no side effects

  Scenario Outline: [3] Properties and labels of a deleted entity cannot be read
    When executing query:
      """
      MATCH (s:Ship)-[d]->(:Port)
      <delete>
      RETURN <read> AS x
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess

    Examples:
      | delete          | read          |
      | DETACH DELETE s | s.name        |
      | DETACH DELETE s | labels(s)     |
      | DETACH DELETE s | keys(s)       |
      | DETACH DELETE s | properties(s) |
      | DETACH DELETE s | s['name']     |
      | DETACH DELETE s | s {.name}     |
      | DELETE d        | d.berth       |
      | DELETE d        | properties(d) |

  Scenario: [4] A deleted node can still be counted and returned
    When executing query:
      """
      MATCH (s:Ship)
      DETACH DELETE s
      RETURN count(s) AS deleted
      """
    Then the result should be, in any order:
      | deleted |
      | 1       |
    And the side effects should be:
      | -nodes         | 1 |
      | -relationships | 1 |
      | -properties    | 2 |
      | -labels        | 1 |

  Scenario: [5] Reading a deleted node later in the statement fails too
    When executing query:
      """
      MATCH (s:Ship)
      DETACH DELETE s
      WITH s
      RETURN s.name AS n
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess
