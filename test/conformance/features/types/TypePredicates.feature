# Sources: Neo4j Cypher manual 5, expressions/predicates/type-predicate-expressions (IS [NOT] :: and
# IS [NOT] TYPED, NOT NULL, closed dynamic unions, LIST<...>, PROPERTY VALUE, synonyms) and
# functions/scalar (valueType); values-and-types/types-and-their-synonyms.
Feature: TypePredicates - IS :: TYPE, IS NOT :: TYPE, NOT NULL, unions and lists, and valueType()

  Scenario: [1] Each value is of its own type and not of another
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: INTEGER AS a, 1 IS :: FLOAT AS b, 1.5 IS :: FLOAT AS c, 'x' IS :: STRING AS d,
             true IS :: BOOLEAN AS e, date('2020-01-01') IS :: DATE AS f, duration('P1D') IS :: DURATION AS g,
             {k: 1} IS :: MAP AS h, [1] IS :: LIST<INTEGER> AS i, 'x' IS :: INTEGER AS j
      """
    Then the result should be, in any order:
      | a    | b     | c    | d    | e    | f    | g    | h    | i    | j     |
      | true | false | true | true | true | true | true | true | true | false |
    And no side effects

  Scenario: [2] null is of every type unless NOT NULL is asked for
    Given any graph
    When executing query:
      """
      RETURN null IS :: INTEGER AS a, null IS :: INTEGER NOT NULL AS b, null IS NOT :: STRING AS c,
             null IS :: NULL AS d, 1 IS :: NULL AS e, null IS :: ANY AS f, null IS :: ANY NOT NULL AS g
      """
    Then the result should be, in any order:
      | a    | b     | c     | d    | e     | f    | g     |
      | true | false | false | true | false | true | false |
    And no side effects

  Scenario: [3] IS NOT :: and IS TYPED
    Given any graph
    When executing query:
      """
      RETURN 'a' IS NOT :: STRING AS a, 'a' IS NOT :: INTEGER AS b, 1 IS TYPED INTEGER AS c, 1 IS NOT TYPED INTEGER AS d,
             1 :: INTEGER AS e
      """
    Then the result should be, in any order:
      | a     | b    | c    | d     | e    |
      | false | true | true | false | true |
    And no side effects

  Scenario: [4] Unions of types
    Given any graph
    When executing query:
      """
      UNWIND [1, 1.5, 'x', null] AS v
      RETURN v, v IS :: INTEGER | FLOAT AS number, v IS :: INTEGER NOT NULL | STRING NOT NULL AS intOrString
      """
    Then the result should be, in any order:
      | v    | number | intOrString |
      | 1    | true   | true        |
      | 1.5  | true   | false       |
      | 'x'  | false  | true        |
      | null | true   | false       |
    And no side effects

  Scenario: [5] List types check every element
    Given any graph
    When executing query:
      """
      RETURN [1, null] IS :: LIST<INTEGER> AS a, [1, null] IS :: LIST<INTEGER NOT NULL> AS b, [] IS :: LIST<STRING> AS c,
             [1, 'x'] IS :: LIST<INTEGER> AS d, [1, 'x'] IS :: LIST<INTEGER | STRING> AS e, [[1]] IS :: LIST<LIST<INTEGER>> AS f,
             [1] IS :: LIST<ANY> AS g, 'x' IS :: LIST<ANY> AS h, [] IS :: LIST<NOTHING> AS i
      """
    Then the result should be, in any order:
      | a    | b     | c    | d     | e    | f    | g    | h     | i    |
      | true | false | true | false | true | true | true | false | true |
    And no side effects

  Scenario: [6] Synonyms of type names
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: INT AS a, 1 IS :: SIGNED INTEGER AS b, true IS :: BOOL AS c, 'x' IS :: VARCHAR AS d,
             localtime('10:00') IS :: LOCAL TIME AS e, localtime('10:00') IS :: TIME WITHOUT TIME ZONE AS f,
             time('10:00Z') IS :: ZONED TIME AS g, localdatetime('2020-01-01T10:00') IS :: LOCAL DATETIME AS h,
             datetime('2020-01-01T10:00Z') IS :: ZONED DATETIME AS i, datetime('2020-01-01T10:00Z') IS :: TIMESTAMP WITH TIME ZONE AS j,
             [1] IS :: ARRAY<INT> AS k, {a: 1} IS :: ANY MAP AS l
      """
    Then the result should be, in any order:
      | a    | b    | c    | d    | e    | f    | g    | h    | i    | j    | k    | l    |
      | true | true | true | true | true | true | true | true | true | true | true | true |
    And no side effects

  Scenario: [7] Graph element types
    Given an empty graph
    And having executed:
      """
      CREATE (:A)-[:T]->(:B)
      """
    When executing query:
      """
      MATCH p = (a)-[r]->(b)
      RETURN a IS :: NODE AS a1, r IS :: RELATIONSHIP AS r1, p IS :: PATH AS p1, a IS :: RELATIONSHIP AS a2,
             r IS :: EDGE AS r2, a IS :: VERTEX AS a3, a IS :: ANY NODE AS a4, p IS :: MAP AS p2
      """
    Then the result should be, in any order:
      | a1   | r1   | p1   | a2    | r2   | a3   | a4   | p2    |
      | true | true | true | false | true | true | true | false |
    And no side effects

  Scenario: [8] PROPERTY VALUE is any value a property can hold
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: PROPERTY VALUE AS a, [1, 2] IS :: PROPERTY VALUE AS b, [1, 'x'] IS :: PROPERTY VALUE AS c,
             {a: 1} IS :: PROPERTY VALUE AS d, null IS :: PROPERTY VALUE AS e, date('2020-01-01') IS :: ANY PROPERTY VALUE AS f
      """
    Then the result should be, in any order:
      | a    | b    | c     | d     | e    | f    |
      | true | true | false | false | true | true |
    And no side effects

  Scenario: [9] A type predicate filters rows and binds tighter than AND
    Given any graph
    When executing query:
      """
      UNWIND [1, 'two', 3.0, [4], null] AS v
      WITH v WHERE v IS :: INTEGER NOT NULL OR v IS :: FLOAT NOT NULL AND v > 2
      RETURN v
      """
    Then the result should be, in any order:
      | v   |
      | 1   |
      | 3.0 |
    And no side effects

  Scenario: [10] An unknown type name is a syntax error
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: WHOLE NUMBER AS r
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [11] valueType names the type of scalars, temporal values and null
    Given any graph
    When executing query:
      """
      UNWIND [1, 1.5, 'x', true, null, date('2020-01-01'), localtime('10:00'), time('10:00Z'),
              localdatetime('2020-01-01T10:00'), datetime('2020-01-01T10:00Z'), duration('P1D')] AS v
      RETURN valueType(v) AS t
      """
    Then the result should be, in any order:
      | t                         |
      | 'INTEGER NOT NULL'        |
      | 'FLOAT NOT NULL'          |
      | 'STRING NOT NULL'         |
      | 'BOOLEAN NOT NULL'        |
      | 'NULL'                    |
      | 'DATE NOT NULL'           |
      | 'LOCAL TIME NOT NULL'     |
      | 'ZONED TIME NOT NULL'     |
      | 'LOCAL DATETIME NOT NULL' |
      | 'ZONED DATETIME NOT NULL' |
      | 'DURATION NOT NULL'       |
    And no side effects

  Scenario: [12] valueType of lists, maps and graph elements
    Given an empty graph
    And having executed:
      """
      CREATE (:A)-[:T]->(:B)
      """
    When executing query:
      """
      MATCH p = (a)-[r]->(b)
      RETURN valueType([1, 2]) AS a, valueType([]) AS b, valueType({k: 1}) AS c, valueType(a) AS d,
             valueType(r) AS e, valueType(p) AS f, valueType([date('2020-01-01')]) AS g
      """
    Then the result should be, in any order:
      | a                                | b                          | c              | d               | e                       | f               | g                             |
      | 'LIST<INTEGER NOT NULL> NOT NULL' | 'LIST<NOTHING> NOT NULL'   | 'MAP NOT NULL' | 'NODE NOT NULL' | 'RELATIONSHIP NOT NULL' | 'PATH NOT NULL' | 'LIST<DATE NOT NULL> NOT NULL' |
    And no side effects

  Scenario Outline: [13] A union is nullable as a whole or not at all
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: <type> AS t
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | type                              |
      | INTEGER NOT NULL \| FLOAT         |
      | STRING \| BOOLEAN NOT NULL        |
      | LIST<INTEGER NOT NULL \| STRING>  |

  Scenario: [14] A union of NOT NULL types refuses null, a union of nullable types takes it
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: INTEGER NOT NULL | FLOAT NOT NULL AS a, null IS :: INTEGER NOT NULL | FLOAT NOT NULL AS b,
             null IS :: INTEGER | FLOAT AS c
      """
    Then the result should be, in any order:
      | a    | b     | c    |
      | true | false | true |
    And no side effects
