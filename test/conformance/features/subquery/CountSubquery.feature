Feature: CountSubquery - COUNT { ... } counts the rows of a pattern or a query per outer row

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (ann:Author {name: 'Ann'}), (bo:Author {name: 'Bo'}), (cy:Author {name: 'Cy'}),
             (ann)-[:WROTE]->(:Book {year: 1999}), (ann)-[:WROTE]->(:Book {year: 2004}),
             (ann)-[:WROTE]->(:Book {year: 2011}), (bo)-[:WROTE]->(:Book {year: 2004})
      """

  Scenario: [1] Counting a pattern per row
    When executing query:
      """
      MATCH (a:Author)
      RETURN a.name AS name, COUNT { (a)-[:WROTE]->(:Book) } AS books
      """
    Then the result should be, in any order:
      | name | books |
      | 'Ann' | 3    |
      | 'Bo'  | 1    |
      | 'Cy'  | 0    |
    And no side effects

  Scenario: [2] A pattern body with WHERE
    When executing query:
      """
      MATCH (a:Author)
      RETURN a.name AS name, COUNT { (a)-->(b:Book) WHERE b.year >= 2004 } AS recent
      """
    Then the result should be, in any order:
      | name  | recent |
      | 'Ann' | 2      |
      | 'Bo'  | 1      |
      | 'Cy'  | 0      |
    And no side effects

  Scenario: [3] A count in WHERE and in arithmetic
    When executing query:
      """
      MATCH (a:Author)
      WHERE COUNT { (a)-->() } > 1
      RETURN a.name AS name, COUNT { MATCH (a)-->(b) } * 10 AS score
      """
    Then the result should be, in any order:
      | name  | score |
      | 'Ann' | 30    |
    And no side effects

  Scenario: [4] A query body with RETURN, and UNION against UNION ALL
    When executing query:
      """
      MATCH (a:Author {name: 'Ann'})
      RETURN COUNT { MATCH (a)-->(b) RETURN b.year AS y UNION MATCH (a)-->(b) RETURN b.year AS y } AS distinctRows,
             COUNT { MATCH (a)-->(b) RETURN b.year AS y UNION ALL MATCH (a)-->(b) RETURN b.year AS y } AS allRows
      """
    Then the result should be, in any order:
      | distinctRows | allRows |
      | 3            | 6       |
    And no side effects

  Scenario: [5] Counts aggregate like any integer
    When executing query:
      """
      MATCH (a:Author)
      RETURN sum(COUNT { (a)-[:WROTE]->() }) AS total, max(COUNT { (a)-[:WROTE]->() }) AS most
      """
    Then the result should be, in any order:
      | total | most |
      | 4     | 3    |
    And no side effects

  Scenario: [6] The count function and a COUNT subquery, which groups as a key, side by side
    When executing query:
      """
      MATCH (b:Book)
      RETURN count(b) AS books, COUNT { MATCH (x:Author) } AS authors
      """
    Then the result should be, in any order:
      | books | authors |
      | 4     | 3       |
    And no side effects
