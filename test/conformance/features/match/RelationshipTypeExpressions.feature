# Sources: Neo4j Cypher manual 5, patterns/reference (label expressions on relationships: |, &, !, %
# and groups, also on variable-length relationships) and expressions/predicates/label-expression
# predicates (`r:T` in WHERE tests the relationship's type).
Feature: RelationshipTypeExpressions - label expressions on relationships, in patterns and as predicates

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:A {x: 1})-[:K {w: 1}]->(b:B {x: 2})-[:L {w: 2}]->(c:C {x: 3}), (a)-[:M {w: 3}]->(c)
      """

  Scenario Outline: [1] A type expression on a relationship in MATCH
    When executing query:
      """
      MATCH ()-[r<types>]->() WITH r.w AS w ORDER BY w RETURN collect(w) AS ws
      """
    Then the result should be, in any order:
      | ws   |
      | <ws> |
    And no side effects

    Examples:
      | types        | ws        |
      | :K\|L        | [1, 2]    |
      | :K\|:L       | [1, 2]    |
      | :!K          | [2, 3]    |
      | :%           | [1, 2, 3] |
      | :!%          | []        |
      | :K&L         | []        |
      | :!(K\|L)     | [3]       |
      | :(K\|M)&!M   | [1]       |

  Scenario Outline: [2] The same expressions as predicates on a relationship in WHERE
    When executing query:
      """
      MATCH ()-[r]->() WHERE r<types> WITH r.w AS w ORDER BY w RETURN collect(w) AS ws
      """
    Then the result should be, in any order:
      | ws   |
      | <ws> |
    And no side effects

    Examples:
      | types        | ws        |
      | :K           | [1]       |
      | :K\|M        | [1, 3]    |
      | :!K          | [2, 3]    |
      | :%           | [1, 2, 3] |
      | :K:K         | [1]       |
      | :K&L         | []        |
      | :$('L')      | [2]       |
      | :$any(['K', 'M']) | [1, 3] |

  Scenario: [3] A type test in a projection and after the relationship was carried in a list
    When executing query:
      """
      MATCH ()-[r]->() WITH collect(r) AS rs UNWIND rs AS r
      RETURN type(r) AS t, r:K AS k, r:!K AS notK, r:K|L AS kl ORDER BY t
      """
    Then the result should be, in order:
      | t   | k     | notK  | kl    |
      | 'K' | true  | false | true  |
      | 'L' | false | true  | true  |
      | 'M' | false | true  | false |
    And no side effects

  Scenario: [4] A type expression holds for every hop of a variable-length relationship
    When executing query:
      """
      MATCH (:A)-[:!K*]->(c) WITH c.x AS x ORDER BY x RETURN collect(x) AS direct, [(:A)-[:!M*1..2]->(d) | d.x] AS around
      """
    Then the result should be (ignoring element order for lists):
      | direct | around |
      | [3]    | [2, 3] |
    And no side effects

  Scenario: [5] Type expressions in EXISTS, COUNT and pattern comprehensions
    When executing query:
      """
      MATCH (a:A)
      RETURN EXISTS { (a)-[:K&!L]->() } AS e, COUNT { (a)-[r]->() WHERE r:% } AS c,
             COUNT { ()-[:!%]->() } AS none, [(a)-[:!K]->(b) | b.x] AS xs
      """
    Then the result should be, in any order:
      | e    | c | none | xs  |
      | true | 2 | 0    | [3] |
    And no side effects

  Scenario Outline: [6] A relationship to create or merge needs one plain type
    When executing query:
      """
      <clause> ()-[:<types>]->()
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | clause | types |
      | CREATE | !K    |
      | CREATE | %     |
      | MERGE  | K&L   |

  Scenario Outline: [7] A label test on a value that is neither a node nor a relationship is refused
    When executing query:
      """
      WITH <value> AS x RETURN x<test> AS t
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | value | test |
      | 1     | :A   |
      | 'a'   | :%   |
      | [1]   | :!A  |
