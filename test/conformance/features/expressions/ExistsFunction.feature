Feature: ExistsFunction - openCypher 9's exists() on a property or a pattern

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Tree {kind: 'oak', age: 120})-[:SHADES]->(:Tree {kind: 'birch'}), (:Tree)
      """

  Scenario: [1] exists(n.prop) is true when the property is present
    When executing query:
      """
      MATCH (t:Tree)
      RETURN t.kind AS kind, exists(t.age) AS aged, exists(t.kind) AS named
      """
    Then the result should be, in any order:
      | kind    | aged  | named |
      | 'oak'   | true  | true  |
      | 'birch' | false | true  |
      | null    | false | false |
    And no side effects

  Scenario: [2] exists(pattern) is true when the pattern has a match, in WHERE and in RETURN
    When executing query:
      """
      MATCH (t:Tree)
      WHERE exists(t.kind)
      RETURN t.kind AS kind, exists((t)-[:SHADES]->()) AS shades, exists((t)<--()) AS shaded
      """
    Then the result should be, in any order:
      | kind    | shades | shaded |
      | 'oak'   | true   | false  |
      | 'birch' | false  | true   |
    And no side effects

  Scenario: [3] exists() on a map key
    When executing query:
      """
      WITH {a: 1, b: null} AS m
      RETURN exists(m.a) AS a, exists(m.b) AS b, exists(m.c) AS c
      """
    Then the result should be, in any order:
      | a    | b     | c     |
      | true | false | false |
    And no side effects

  Scenario Outline: [4] exists() of anything else is refused
    When executing query:
      """
      MATCH (t:Tree)
      RETURN exists(<arg>) AS e
      """
    Then a SyntaxError should be raised at compile time: <detail>

    Examples:
      | arg             | detail                   |
      | t               | InvalidArgumentType      |
      | 42              | InvalidArgumentType      |
      | t.kind, t.age   | InvalidNumberOfArguments |
      | (t)-->(other)   | UndefinedVariable        |
