Feature: CollectSubquery - COLLECT { ... } makes a list of its one returned column per outer row

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (ann:Author {name: 'Ann'}), (bo:Author {name: 'Bo'}), (cy:Author {name: 'Cy'}),
             (ann)-[:WROTE]->(:Book {year: 1999}), (ann)-[:WROTE]->(:Book {year: 2004}),
             (ann)-[:WROTE]->(:Book {year: 2011}), (bo)-[:WROTE]->(:Book {year: 2004})
      """

  Scenario: [1] A list per row, in the order the body returns, empty where it finds nothing
    When executing query:
      """
      MATCH (a:Author)
      RETURN a.name AS name, COLLECT { MATCH (a)-[:WROTE]->(b:Book) RETURN b.year AS y ORDER BY y DESC } AS years
      """
    Then the result should be, in any order:
      | name  | years              |
      | 'Ann' | [2011, 2004, 1999] |
      | 'Bo'  | [2004]             |
      | 'Cy'  | []                 |
    And no side effects

  Scenario: [2] A list in WHERE and through list functions, with duplicates kept
    When executing query:
      """
      MATCH (a:Author)
      WHERE 2004 IN COLLECT { MATCH (a)-->(b) RETURN b.year }
      RETURN a.name AS name, size(COLLECT { MATCH (a)-->(b) RETURN b.year UNION ALL MATCH (a)-->(b) RETURN b.year }) AS twice
      """
    Then the result should be, in any order:
      | name  | twice |
      | 'Ann' | 6     |
      | 'Bo'  | 2     |
    And no side effects

  Scenario: [3] UNION removes duplicate rows before they are listed
    When executing query:
      """
      MATCH (a:Author {name: 'Bo'})
      RETURN COLLECT { MATCH (a)-->(b) RETURN b.year AS y UNION MATCH (a)-->(b) RETURN b.year AS y } AS years
      """
    Then the result should be, in any order:
      | years  |
      | [2004] |
    And no side effects

  Scenario: [4] The body must return exactly one column
    When executing query:
      """
      MATCH (a:Author)
      RETURN COLLECT { MATCH (a)-->(b) RETURN b.year, b } AS pairs
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [5] A pattern alone is not a COLLECT body
    When executing query:
      """
      MATCH (a:Author)
      RETURN COLLECT { (a)-->(b) } AS books
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [6] collect() is still the aggregate, and collect a variable name
    When executing query:
      """
      MATCH (a:Author)-->(b:Book)
      WITH a.name AS collect, b.year AS year
      RETURN collect, collect(year) AS years
      ORDER BY collect
      """
    Then the result should be, in order:
      | collect | years              |
      | 'Ann'   | [1999, 2004, 2011] |
      | 'Bo'    | [2004]             |
    And no side effects
