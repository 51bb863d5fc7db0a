# Written from the error cases the Neo4j 5 Cypher Manual's pages give: what SKIP and LIMIT accept (the
# "SKIP" and "LIMIT" pages), reading an entity the statement deleted ("DELETE"), integer overflow and
# division by zero ("Operators", "Mathematical functions"), and arguments out of range.
Feature: Manual - errors for bad input

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Andy'})-[:KNOWS {since: 2012}]->(:Person {name: 'Timothy'}),
             (:Person {name: 'Peter'})
      """

  Scenario Outline: [1] SKIP and LIMIT take an expression of no variables that gives a non-negative integer: <clause>
    When executing query:
      """
      MATCH (n:Person) RETURN n.name AS name ORDER BY name <clause>
      """
    Then the result should be, in order:
      | name    |
      | 'Peter' |
    And no side effects

    Examples:
      | clause                      |
      | SKIP 1 LIMIT 1              |
      | SKIP 1 + 0 LIMIT size([1])  |
      | SKIP toInteger('1') LIMIT 1 |
      | OFFSET 1 LIMIT 1            |

  Scenario: [2] SKIP and LIMIT from parameters
    Given parameters are:
      | s | 1 |
      | l | 1 |
    When executing query:
      """
      MATCH (n:Person) RETURN n.name AS name ORDER BY name SKIP $s LIMIT $l
      """
    Then the result should be, in order:
      | name    |
      | 'Peter' |
    And no side effects

  Scenario: [3] LIMIT 0 returns no rows and SKIP past the end returns none either
    When executing query:
      """
      MATCH (n:Person) WITH n.name AS name ORDER BY name LIMIT 0 RETURN count(*) AS c
      UNION ALL
      MATCH (n:Person) WITH n.name AS name ORDER BY name SKIP 10 RETURN count(*) AS c
      """
    Then the result should be, in any order:
      | c |
      | 0 |
      | 0 |
    And no side effects

  Scenario Outline: [4] A negative SKIP or LIMIT is refused: <clause>
    When executing query:
      """
      MATCH (n:Person) RETURN n.name <clause>
      """
    Then a SyntaxError should be raised at compile time: NegativeIntegerArgument

    Examples:
      | clause    |
      | SKIP -1   |
      | LIMIT -1  |

  Scenario Outline: [5] A SKIP or LIMIT that is not an integer is refused: <clause>
    When executing query:
      """
      MATCH (n:Person) RETURN n.name <clause>
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | clause        |
      | SKIP 1.5      |
      | LIMIT 1.0     |
      | LIMIT 'one'   |
      | LIMIT rand()  |

  Scenario Outline: [6] A SKIP or LIMIT reading a variable is refused: <clause>
    When executing query:
      """
      MATCH (n:Person) RETURN n.name <clause>
      """
    Then a SyntaxError should be raised at compile time: NonConstantExpression

    Examples:
      | clause            |
      | SKIP size(n.name) |
      | LIMIT n.age       |

  Scenario: [7] A LIMIT parameter that is a float fails when the query runs
    Given parameters are:
      | l | 1.5 |
    When executing query:
      """
      MATCH (n:Person) RETURN n.name LIMIT $l
      """
    Then a ArgumentError should be raised at runtime: InvalidArgumentType

  Scenario: [8] A negative SKIP parameter fails when the query runs
    Given parameters are:
      | s | -2 |
    When executing query:
      """
      MATCH (n:Person) RETURN n.name SKIP $s
      """
    Then a ArgumentError should be raised at runtime: NegativeIntegerArgument

  Scenario Outline: [9] Reading the properties or labels of a deleted node fails: <read>
    When executing query:
      """
      MATCH (n:Person {name: 'Andy'}) DETACH DELETE n RETURN <read> AS result
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess

    Examples:
      | read          |
      | n.name        |
      | labels(n)     |
      | keys(n)       |
      | properties(n) |
      | n {.name}     |

  Scenario: [10] Reading the properties of a deleted relationship fails
    When executing query:
      """
      MATCH ()-[r:KNOWS]->() DELETE r RETURN r.since AS since
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess

  Scenario: [11] A deleted entity may still be counted and its relationship type read
    When executing query:
      """
      MATCH (a:Person {name: 'Andy'})-[r:KNOWS]->() DETACH DELETE a
      RETURN count(a) AS c, type(r) AS t, a IS NULL AS gone
      """
    Then the result should be, in any order:
      | c | t       | gone  |
      | 1 | 'KNOWS' | false |
    And the side effects should be:
      | -nodes         | 1 |
      | -relationships | 1 |
      | -properties    | 2 |

  Scenario: [12] Deleting a node that still has relationships without DETACH fails
    When executing query:
      """
      MATCH (n:Person {name: 'Andy'}) DELETE n
      """
    Then a ConstraintValidationFailed should be raised at runtime: DeleteConnectedNode

  Scenario: [13] Setting a property of a deleted node fails
    When executing query:
      """
      MATCH (n:Person {name: 'Peter'}) DELETE n SET n.age = 1
      """
    Then a EntityNotFound should be raised at runtime: DeletedEntityAccess

  Scenario Outline: [14] Integer arithmetic past 64 bits overflows: <query>
    When executing query:
      """
      WITH 9223372036854775807 AS max, -9223372036854775807 - 1 AS min RETURN <query> AS result
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

    Examples:
      | query         |
      | max + 1       |
      | min - 1       |
      | max * 2       |
      | -min          |
      | abs(min)      |
      | min / -1      |
      | sum(max) + 1  |

  Scenario: [15] The sum of integers past 64 bits overflows
    When executing query:
      """
      UNWIND [9223372036854775807, 1] AS x RETURN sum(x) AS s
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow

  Scenario: [16] An integer literal past 64 bits is refused
    When executing query:
      """
      RETURN 9223372036854775808 AS x
      """
    Then a SyntaxError should be raised at compile time: IntegerOverflow

  Scenario Outline: [17] Integer division and modulo by zero fail: <query>
    When executing query:
      """
      WITH 0 AS zero RETURN <query> AS result
      """
    Then a ArithmeticError should be raised at runtime: DivisionByZero

    Examples:
      | query     |
      | 1 / zero  |
      | 1 % zero  |

  Scenario: [18] Float division by zero gives infinity or NaN, not an error
    When executing query:
      """
      WITH 0.0 AS zero RETURN 1 / zero > 1e308 AS inf, -1.0 / zero < -1e308 AS negInf, isNaN(zero / zero) AS nan, 1 % zero AS mod
      """
    Then the result should be, in any order:
      | inf  | negInf | nan  | mod |
      | true | true   | true | NaN |
    And no side effects

  Scenario Outline: [19] Arguments out of range: <query>
    When executing query:
      """
      WITH 0 AS zero, -1 AS minusOne RETURN <query> AS result
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

    Examples:
      | query                        |
      | range(1, 10, zero)           |
      | substring('hello', 1, minusOne) |
      | substring('hello', minusOne) |
      | left('hello', minusOne)      |
      | right('hello', minusOne)     |

  Scenario: [20] A float too large for an integer does not convert
    When executing query:
      """
      WITH 1e30 AS huge RETURN toInteger(huge) AS result
      """
    Then a ArithmeticError should be raised at runtime: IntegerOverflow
