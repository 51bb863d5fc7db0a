Feature: UnionMergeCase - UNION composition, MERGE edge cases and CASE forms

  Scenario: [1] UNION removes duplicates across and within parts; UNION ALL keeps them
    Given any graph
    When executing query:
      """
      UNWIND [1, 1, 2] AS x RETURN x
      UNION
      UNWIND [2, 3] AS x RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 2 |
      | 3 |
    And no side effects

  Scenario: [2] UNION ALL keeps every row
    Given any graph
    When executing query:
      """
      UNWIND [1, 1] AS x RETURN x
      UNION ALL
      UNWIND [1] AS x RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 1 |
      | 1 |
    And no side effects

  Scenario Outline: [3] UNION and UNION ALL cannot be mixed
    Given any graph
    When executing query:
      """
      RETURN 1 AS x <first> RETURN 2 AS x <second> RETURN 3 AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

    Examples:
      | first     | second    |
      | UNION     | UNION ALL |
      | UNION ALL | UNION     |

  Scenario Outline: [4] Every part returns the same columns in the same order
    Given any graph
    When executing query:
      """
      <query>
      """
    Then a SyntaxError should be raised at compile time: DifferentColumnsInUnion

    Examples:
      | query                                                |
      | RETURN 1 AS x UNION RETURN 1 AS y                    |
      | RETURN 1 AS x, 2 AS y UNION RETURN 2 AS y, 1 AS x    |
      | RETURN 1 AS x UNION ALL RETURN 1 AS x, 2 AS y        |

  Scenario: [5] MERGE matches what an earlier row of the same statement created
    Given an empty graph
    When executing query:
      """
      UNWIND ['red', 'red', 'blue', 'red'] AS c
      MERGE (k:Colour {name: c})
      RETURN count(*) AS rows, count(DISTINCT k) AS colours
      """
    Then the result should be, in any order:
      | rows | colours |
      | 4    | 2       |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [6] ON CREATE and ON MATCH run for the row that created and the row that matched
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2] AS i
      MERGE (s:Stamp)
        ON CREATE SET s.created = i
        ON MATCH SET s.matched = i
      WITH DISTINCT s
      RETURN s.created AS c, s.matched AS m
      """
    Then the result should be, in any order:
      | c | m |
      | 1 | 2 |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [7] MERGE refuses a null property value
    Given an empty graph
    When executing query:
      """
      MERGE (n:Thing {key: null})
      """
    Then a SemanticError should be raised at runtime: MergeReadOwnWrites

  Scenario: [8] An undirected MERGE finds a relationship in either direction
    Given an empty graph
    And having executed:
      """
      CREATE (:Left)<-[:LINK]-(:Right)
      """
    When executing query:
      """
      MATCH (l:Left), (r:Right)
      MERGE (l)-[k:LINK]-(r)
      RETURN type(k) AS t
      """
    Then the result should be, in any order:
      | t      |
      | 'LINK' |
    And no side effects

  Scenario Outline: [9] MERGE needs one type and a fixed length
    Given any graph
    When executing query:
      """
      MERGE (a)-[<rel>]->(b)
      """
    Then a SyntaxError should be raised at compile time: <detail>

    Examples:
      | rel      | detail                   |
      | :X\|Y    | NoSingleRelationshipType |
      |          | NoSingleRelationshipType |
      | :X*1..2  | CreatingVarLength        |

  Scenario: [10] Simple CASE compares with equality: 1 matches 1.0, null matches nothing
    Given any graph
    When executing query:
      """
      RETURN CASE 1 WHEN 1.0 THEN 'same' ELSE 'other' END AS a,
             CASE null WHEN null THEN 'null' ELSE 'else' END AS b,
             CASE 'z' WHEN 'a' THEN 1 END AS c
      """
    Then the result should be, in any order:
      | a      | b      | c    |
      | 'same' | 'else' | null |
    And no side effects

  Scenario: [11] Generic CASE takes the first true branch; a null condition is not true
    Given any graph
    When executing query:
      """
      UNWIND [null, -3, 0, 8] AS x
      RETURN x, CASE WHEN x < 0 THEN 'neg' WHEN x = 0 THEN 'zero' WHEN x > 5 THEN 'big' ELSE 'other' END AS k
      """
    Then the result should be, in any order:
      | x    | k       |
      | null | 'other' |
      | -3   | 'neg'   |
      | 0    | 'zero'  |
      | 8    | 'big'   |
    And no side effects

  Scenario: [12] List comprehensions filter, map, and propagate a null list
    Given any graph
    When executing query:
      """
      RETURN [x IN range(1, 7) WHERE x % 3 = 0 | x * x] AS a, [x IN [1, null, 4] WHERE x > 2] AS b,
             [x IN null | x] AS c, [x IN ['p', 'q'] | toUpper(x)] AS d
      """
    Then the result should be, in any order:
      | a        | b   | c    | d          |
      | [9, 36]  | [4] | null | ['P', 'Q'] |
    And no side effects

  Scenario: [13] Pattern comprehensions collect per row
    Given an empty graph
    And having executed:
      """
      CREATE (h:Hub {name: 'h'})-[:SPOKE {len: 1}]->(:End {name: 'x'}),
             (h)-[:SPOKE {len: 5}]->(:End {name: 'y'}), (:Hub {name: 'g'})
      """
    When executing query:
      """
      MATCH (hub:Hub)
      RETURN hub.name AS hub, [(hub)-[s:SPOKE]->(e) WHERE s.len > 2 | e.name] AS far,
             size([(hub)-->(e) | e]) AS spokes
      """
    Then the result should be, in any order:
      | hub | far   | spokes |
      | 'h' | ['y'] | 2      |
      | 'g' | []    | 0      |
    And no side effects
