# Written from the Neo4j 5 Cypher Manual's Values and types chapter, "Property, structural, and
# constructed values": what a property may hold (homogeneous lists, not maps or mixed lists), the types
# and their synonyms in type predicates, and the ranges of the property types. POINT is left to the
# spatial scenarios; byte arrays have no literal.
Feature: Manual - values: property, structural and constructed values

  Scenario Outline: [1] A type and its synonyms name the same type: <type>
    Given any graph
    When executing query:
      """
      RETURN <value> IS :: <type> AS is, 'not a <type>' IS :: <type> AS other
      """
    Then the result should be, in any order:
      | is   | other |
      | true | false |
    And no side effects

    Examples:
      | value                | type                        |
      | true                 | BOOL                        |
      | 1                    | INT                         |
      | 1                    | SIGNED INTEGER              |
      | [1, 2]               | ARRAY<INTEGER>              |
      | [1, 2]               | INTEGER LIST                |
      | [1, 2]               | INTEGER ARRAY               |
      | localdatetime()      | TIMESTAMP WITHOUT TIMEZONE  |
      | localtime()          | TIME WITHOUT TIMEZONE       |
      | datetime()           | TIMESTAMP WITH TIMEZONE     |
      | time()               | TIME WITH TIMEZONE          |
      | 1.5                  | FLOAT                       |
      | date()               | DATE                        |
      | duration('P1D')      | DURATION                    |
      | {a: 1}               | MAP                         |

  Scenario: [2] Structural types and their synonyms: NODE or VERTEX, RELATIONSHIP or EDGE, PATH
    Given an empty graph
    And having executed:
      """
      CREATE (:A)-[:R]->(:B)
      """
    When executing query:
      """
      MATCH p = (a)-[r]->(b)
      RETURN a IS :: NODE AND a IS :: VERTEX AS node, r IS :: RELATIONSHIP AND r IS :: EDGE AS rel,
             p IS :: PATH AS path, a IS :: RELATIONSHIP AS crossed
      """
    Then the result should be, in any order:
      | node | rel  | path | crossed |
      | true | true | true | false   |
    And no side effects

  Scenario: [3] A property holds a homogeneous list
    Given an empty graph
    When executing query:
      """
      CREATE (n {ints: [1, 2], strings: ['a', 'b'], dates: [date('2024-01-01')]})
      RETURN n.ints AS ints, n.strings AS strings, size(n.dates) AS dates
      """
    Then the result should be, in any order:
      | ints   | strings    | dates |
      | [1, 2] | ['a', 'b'] | 1     |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 3 |

  Scenario Outline: [4] A property cannot hold <what>
    Given an empty graph
    When executing query:
      """
      CREATE (n {p: <value>})
      """
    Then a TypeError should be raised at runtime: InvalidPropertyType

    Examples:
      | what             | value         |
      | a map            | {a: 1}        |
      | a mixed list     | [1, 'a']      |
      | a list of lists  | [[1], [2]]    |

  Scenario: [5] The ranges of the property types
    Given any graph
    When executing query:
      """
      RETURN 9223372036854775807 AS maxInt, -9223372036854775808 AS minInt,
             1.7976931348623157e+308 > 1.0e308 AS maxFloat,
             toString(date('-999999999-01-01')) AS minDate, toString(date('+999999999-12-31')) AS maxDate,
             toString(localtime('23:59:59.999999999')) AS maxTime
      """
    Then the result should be, in any order:
      | maxInt              | minInt               | maxFloat                | minDate             | maxDate             | maxTime              |
      | 9223372036854775807 | -9223372036854775808 | true                    | '-999999999-01-01'  | '+999999999-12-31'  | '23:59:59.999999999' |
    And no side effects

  Scenario: [6] Past the range of INTEGER is an error
    Given any graph
    When executing query:
      """
      RETURN 9223372036854775807 + 1 AS tooLarge
      """
    Then an ArithmeticError should be raised at runtime: IntegerOverflow
