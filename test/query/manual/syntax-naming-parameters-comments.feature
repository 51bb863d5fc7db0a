# Written from the Neo4j 5 Cypher Manual's Syntax chapter: "Naming rules and recommendations" (letters
# beyond English, no leading digit, backticks for any other character, a doubled backtick and \uxxxx
# inside backticks, case sensitivity, whitespace, names shared by labels, types and keys but not by
# variables), "Parameters" (literals, regular expressions, property maps, SKIP and LIMIT, lists of ids,
# and where a parameter cannot stand) and "Comments". The manual's parameter examples use elementId();
# Weft's element ids are its own, so the id examples here read them from the graph first.
Feature: Manual - syntax: naming, parameters and comments

  Scenario: [1] Names may use letters beyond English and digits after the first character
    Given any graph
    When executing query:
      """
      WITH 1 AS åäöü, 2 AS first1, 3 AS my_variable
      RETURN åäöü + first1 + my_variable AS sum
      """
    Then the result should be, in any order:
      | sum |
      | 6   |
    And no side effects

  Scenario Outline: [2] A name may not start with a digit or hold a symbol unquoted: <name>
    Given any graph
    When executing query:
      """
      WITH 1 AS <name>
      RETURN 1 AS one
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | name    |
      | 1first  |
      | my-var  |
      | $x      |

  Scenario: [3] Backticks quote any name; a doubled backtick is one, \uxxxx a UTF-16 code unit
    Given any graph
    When executing query:
      """
      WITH 1 AS `^n`, 2 AS `1first`, 3 AS `$$n`, 4 AS `my variable has spaces`, 5 AS `a``b`, 6 AS `\u0041bc`
      RETURN `^n` + `1first` + `$$n` + `my variable has spaces` AS sum, `a``b` AS backtick, Abc AS escaped
      """
    Then the result should be, in any order:
      | sum | backtick | escaped |
      | 10  | 5        | 6       |
    And no side effects

  Scenario: [4] A \uxxxx escape in backticks names labels and property keys too
    Given an empty graph
    When executing query:
      """
      CREATE (n:`L\u00e5bel` {`k\u0065y`: 1})
      RETURN labels(n) AS labels, keys(n) AS keys
      """
    Then the result should be, in any order:
      | labels    | keys    |
      | ['Låbel'] | ['key'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [5] Names are case-sensitive and whitespace around them is dropped
    Given an empty graph
    And having executed:
      """
      CREATE (:PERSON), (:Person), (:person), (:Person)
      """
    When executing query:
      """
      WITH 1 AS n, 2 AS N
      MATCH (  a:Person  )
      RETURN n, N, count(a) AS persons
      """
    Then the result should be, in any order:
      | n | N | persons |
      | 1 | 2 | 2       |
    And no side effects

  Scenario: [6] A label, a type and a property key may share a name
    Given an empty graph
    When executing query:
      """
      CREATE (a:a {a: 'a'})-[r:a]->(b:a {a: 'a'})
      RETURN a.a AS key, type(r) AS type, labels(b) AS labels
      """
    Then the result should be, in any order:
      | key | type | labels |
      | 'a' | 'a'  | ['a']  |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 1 |
      | +properties    | 2 |

  Scenario: [7] A node and a relationship may not share a variable
    Given any graph
    When executing query:
      """
      CREATE (a)-[a]->(b)
      """
    Then a SyntaxError should be raised at compile time: VariableTypeConflict

  Scenario: [8] Parameters stand for literals, in WHERE, in a property map, as a regular expression and as a prefix
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Johan'}), (:Person {name: 'Michael'}), (:Person {name: 'Michaela'})
      """
    And parameters are:
      | name   | 'Johan'   |
      | regex  | '.*h.*'   |
      | prefix | 'Michael' |
    When executing query:
      """
      MATCH (n:Person) WHERE n.name = $name WITH count(n) AS byWhere
      MATCH (n:Person {name: $name}) WITH byWhere, count(n) AS byMap
      MATCH (n:Person) WHERE n.name =~ $regex WITH byWhere, byMap, collect(n.name) AS matching
      MATCH (n:Person) WHERE n.name STARTS WITH $prefix
      RETURN byWhere, byMap, matching, collect(n.name) AS prefixed
      """
    Then the result should be (ignoring element order for lists):
      | byWhere | byMap | matching                           | prefixed                |
      | 1       | 1     | ['Johan', 'Michael', 'Michaela']   | ['Michael', 'Michaela'] |
    And no side effects

  Scenario: [9] A map parameter creates a node with its properties
    Given an empty graph
    And parameters are:
      | props | {name: 'Andy', position: 'Developer'} |
    When executing query:
      """
      CREATE (n $props)
      RETURN n.name AS name, n.position AS position
      """
    Then the result should be, in any order:
      | name   | position    |
      | 'Andy' | 'Developer' |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 2 |

  Scenario: [10] A list parameter of maps creates several nodes, and SET n = $props replaces every property
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'Michaela', age: 30})
      """
    And parameters are:
      | list  | [{awesome: true, name: 'Andy', position: 'Developer'}, {children: 3, name: 'Michael', position: 'Developer'}] |
      | props | {name: 'Andy', position: 'Developer'}                                                                         |
    When executing query:
      """
      UNWIND $list AS properties
      CREATE (n:Person)
      SET n = properties
      WITH count(n) AS created
      MATCH (n:Person)
      WHERE n.name = 'Michaela'
      SET n = $props
      RETURN created, n.name AS name, n.age AS age
      """
    Then the result should be, in any order:
      | created | name   | age  |
      | 2       | 'Andy' | null |
    And the side effects should be:
      | +nodes      | 2 |
      | +properties | 8 |
      | -properties | 2 |

  Scenario: [11] SKIP and LIMIT from parameters, and ids from a list parameter
    Given an empty graph
    And having executed:
      """
      CREATE (:Person {name: 'A'}), (:Person {name: 'B'}), (:Person {name: 'C'})
      """
    And parameters are:
      | s | 1 |
      | l | 1 |
    When executing query:
      """
      MATCH (n:Person)
      WITH n ORDER BY n.name
      WITH collect(elementId(n)) AS ids
      MATCH (n)
      WHERE elementId(n) IN ids[$s..]
      RETURN n.name AS name
      ORDER BY name
      SKIP $s
      LIMIT $l
      """
    Then the result should be, in order:
      | name |
      | 'C'  |
    And no side effects

  Scenario Outline: [12] A parameter cannot stand for a property key, a type or a label: <query>
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

    Examples:
      | query                                                   |
      | MATCH (n) WHERE n.$param = 'something' RETURN n         |
      | MATCH (n)-[:$param]->(m) RETURN n                       |
      | MATCH (n:$param) RETURN n                               |

  Scenario: [13] Comments: to the end of a line, whole lines, several lines, but not inside a string
    Given an empty graph
    And having executed:
      """
      CREATE ({property: '//This is NOT a comment'}), ({property: 'other'})
      """
    When executing query:
      """
      MATCH (n) //This is an end of line comment
      //This is a whole line comment
      WHERE n.property = '//This is NOT a comment' /* This is a multi line comment,
      the comment is still going on this line as well
      but we are closing it on this line */
      RETURN n.property AS property
      """
    Then the result should be, in any order:
      | property                  |
      | '//This is NOT a comment' |
    And no side effects
