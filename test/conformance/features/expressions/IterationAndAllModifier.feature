# Sources: Neo4j Cypher manual 5, functions/predicate (any() over a property that holds a single
# string tests that string), functions/aggregating (count(ALL x) next to count(DISTINCT x)), and the
# openCypher 9 reference (a list expression whose type is known not to be a list is a type error
# found before running).
Feature: IterationAndAllModifier - what comprehensions, quantifiers and reduce iterate, and f(ALL x)

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:P {name: 'a', tags: 'red'}), (:P {name: 'b', tags: ['red', 'blue']}), (:P {name: 'c', tags: 'blue'}), (:P {name: 'd'})
      """

  Scenario: [1] A quantifier over a property holding one value tests that value
    When executing query:
      """
      MATCH (p:P) WHERE any(t IN p.tags WHERE t = 'red')
      RETURN p.name AS name ORDER BY name
      """
    Then the result should be, in order:
      | name |
      | 'a'  |
      | 'b'  |
    And no side effects

  Scenario: [2] Comprehensions and reduce treat a single value as a list of itself, and null as null
    When executing query:
      """
      MATCH (p:P)
      RETURN p.name AS name, [t IN p.tags | toUpper(t)] AS upper, reduce(s = '', t IN p.tags | s + t) AS joined,
             all(t IN p.tags WHERE size(t) = 3) AS short, size([t IN p.tags WHERE t <> 'red']) AS others
      ORDER BY name
      """
    Then the result should be, in order:
      | name | upper           | joined    | short | others |
      | 'a'  | ['RED']         | 'red'     | true  | 0      |
      | 'b'  | ['RED', 'BLUE'] | 'redblue' | false | 1      |
      | 'c'  | ['BLUE']        | 'blue'    | false | 1      |
      | 'd'  | null            | null      | null  | null   |
    And no side effects

  Scenario Outline: [3] A value known not to be a list cannot be iterated
    Given any graph
    When executing query:
      """
      WITH 5 AS n, 'abc' AS s, {a: 1} AS m
      RETURN <expression> AS r
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | expression                        |
      | [x IN s \| x]                     |
      | all(x IN n WHERE x > 0)           |
      | none(x IN m WHERE true)           |
      | single(x IN 1.5 WHERE true)       |
      | reduce(acc = 0, x IN n \| acc + x) |

  Scenario: [4] ALL before an aggregate's argument keeps duplicates, the default
    Given any graph
    When executing query:
      """
      UNWIND [1, 1, 2, null] AS x
      RETURN count(ALL x) AS every, count(DISTINCT x) AS different, collect(ALL x) AS xs, sum(ALL x) AS s
      """
    Then the result should be, in any order:
      | every | different | xs        | s |
      | 3     | 2         | [1, 1, 2] | 4 |
    And no side effects

  Scenario: [5] all() as a quantifier is still read as one inside a function call
    Given any graph
    When executing query:
      """
      RETURN coalesce(all(x IN [1, 2] WHERE x > 0), false) AS a, count(all(x IN [1] WHERE x = 2)) AS c
      """
    Then the result should be, in any order:
      | a    | c |
      | true | 1 |
    And no side effects
