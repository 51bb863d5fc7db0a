# Sources: openCypher 9 reference, SET and REMOVE (replace with =, mutate with +=, null removes);
# Neo4j Cypher manual 5, clauses/set and clauses/remove (labels already present, absent things, null targets).
Feature: SetRemoveInDetail - replacing and mutating properties, labels, nulls and absent things

  Scenario: [1] SET n = map replaces every property and drops null entries
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1, b: 2})
      """
    When executing query:
      """
      MATCH (n:Item) SET n = {c: 3, a: null} RETURN n
      """
    Then the result should be, in any order:
      | n                |
      | (:Item {c: 3})   |
    And the side effects should be:
      | +properties | 1 |
      | -properties | 2 |

  Scenario: [2] SET n += map keeps other properties, overwrites named ones, removes nulls
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1, b: 2})
      """
    When executing query:
      """
      MATCH (n:Item) SET n += {b: 20, c: 3, a: null} RETURN n
      """
    Then the result should be, in any order:
      | n                        |
      | (:Item {b: 20, c: 3})    |
    And the side effects should be:
      | +properties | 2 |
      | -properties | 2 |

  Scenario: [3] SET n = {} clears, SET n += {} changes nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:A {x: 1}), (:B {y: 2})
      """
    When executing query:
      """
      MATCH (a:A), (b:B) SET a = {}, b += {} RETURN a, b
      """
    Then the result should be, in any order:
      | a     | b            |
      | (:A)  | (:B {y: 2})  |
    And the side effects should be:
      | -properties | 1 |

  Scenario: [4] Setting a property to null removes it
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1, b: 2})
      """
    When executing query:
      """
      MATCH (n:Item) SET n.a = null RETURN keys(n) AS k
      """
    Then the result should be, in any order:
      | k     |
      | ['b'] |
    And the side effects should be:
      | -properties | 1 |

  Scenario: [5] Setting a label the node already has changes nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:Item:Red)
      """
    When executing query:
      """
      MATCH (n:Item) SET n:Red, n:Item RETURN labels(n) AS l
      """
    Then the result should be (ignoring element order for lists):
      | l               |
      | ['Item', 'Red'] |
    And no side effects

  Scenario: [6] Removing an absent property or label changes nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1})
      """
    When executing query:
      """
      MATCH (n:Item) REMOVE n.missing, n:Blue RETURN n
      """
    Then the result should be, in any order:
      | n               |
      | (:Item {a: 1})  |
    And no side effects

  Scenario Outline: [7] SET and REMOVE on a null node do nothing
    Given an empty graph
    When executing query:
      """
      OPTIONAL MATCH (n:Nowhere) <update> RETURN n
      """
    Then the result should be, in any order:
      | n    |
      | null |
    And no side effects

    Examples:
      | update            |
      | SET n.p = 1       |
      | SET n:Here        |
      | SET n = {p: 1}    |
      | SET n += {p: 1}   |
      | REMOVE n.p        |
      | REMOVE n:Here     |

  Scenario: [8] SET copies all properties of another node or relationship
    Given an empty graph
    And having executed:
      """
      CREATE (:Src {a: 1, b: 'x'})-[:LINK {w: 5}]->(:Dst {old: true})
      """
    When executing query:
      """
      MATCH (s:Src)-[r:LINK]->(d:Dst) SET d = s, r += s RETURN d, r
      """
    Then the result should be, in any order:
      | d                      | r                              |
      | (:Dst {a: 1, b: 'x'})  | [:LINK {w: 5, a: 1, b: 'x'}]   |
    And the side effects should be:
      | +properties | 4 |
      | -properties | 1 |

  Scenario Outline: [9] A property value must be a storable value
    Given an empty graph
    And having executed:
      """
      CREATE (:Item)
      """
    When executing query:
      """
      MATCH (n:Item) SET n.p = <value>
      """
    Then a TypeError should be raised at runtime: InvalidPropertyType

    Examples:
      | value          |
      | {k: 1}         |
      | [1, 'one']     |
      | [[1], [2]]     |
      | [1, null]      |
      | [{k: 1}]       |

  Scenario: [10] Empty and homogeneous lists are storable
    Given an empty graph
    And having executed:
      """
      CREATE (:Item)
      """
    When executing query:
      """
      MATCH (n:Item) SET n.e = [], n.i = [1, 2], n.s = ['a'], n.d = [date('2020-01-01')]
      RETURN n.e AS e, n.i AS i, n.s AS s, n.d AS d
      """
    Then the result should be, in any order:
      | e  | i      | s     | d              |
      | [] | [1, 2] | ['a'] | ['2020-01-01'] |
    And the side effects should be:
      | +properties | 4 |

  Scenario: [11] SET with a value that is not a map or entity is refused
    Given an empty graph
    And having executed:
      """
      CREATE (:Item)
      """
    When executing query:
      """
      MATCH (n:Item) WITH n, 'text' AS t SET n = t
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [12] A property of a value that is not an entity cannot be set
    Given any graph
    When executing query:
      """
      WITH 5 AS x SET x.p = 1
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [13] SET and REMOVE of labels together
    Given an empty graph
    And having executed:
      """
      CREATE (:Draft {t: 1})
      """
    When executing query:
      """
      MATCH (n:Draft) SET n:Final:Signed REMOVE n:Draft RETURN labels(n) AS l
      """
    Then the result should be (ignoring element order for lists):
      | l                   |
      | ['Final', 'Signed'] |
    And the side effects should be:
      | +labels | 2 |
      | -labels | 1 |

  Scenario: [14] Setting a property to the value it has is no change
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1})
      """
    When executing query:
      """
      MATCH (n:Item) SET n.a = 1, n += {a: 1} RETURN n.a AS a
      """
    Then the result should be, in any order:
      | a |
      | 1 |
    And no side effects

  Scenario: [15] SET on a parenthesised entity expression
    Given an empty graph
    And having executed:
      """
      CREATE (:Item {a: 1})
      """
    When executing query:
      """
      MATCH (n:Item) WITH [n] AS ns SET (ns[0]).a = 2 RETURN ns[0].a AS a
      """
    Then the result should be, in any order:
      | a |
      | 2 |
    And the side effects should be:
      | +properties | 1 |
      | -properties | 1 |
