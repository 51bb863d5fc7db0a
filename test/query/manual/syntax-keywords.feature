# Written from the Neo4j 5 Cypher Manual's Syntax chapter, "Keywords": a snippet that can be a keyword
# or an unquoted identifier is the keyword; in backticks it is always the identifier. Keywords as names
# beyond these examples are in test/query/features/KeywordsAsNames.feature.
Feature: Manual - syntax: keywords

  Scenario: [1] An unquoted true is the literal, even where a column is named true
    Given any graph
    When executing query:
      """
      WITH 123 AS true
      RETURN true AS x
      """
    Then the result should be, in any order:
      | x    |
      | true |
    And no side effects

  Scenario: [2] In backticks, true is the column's name
    Given any graph
    When executing query:
      """
      WITH 123 AS true
      RETURN `true` AS x
      """
    Then the result should be, in any order:
      | x   |
      | 123 |
    And no side effects

  Scenario: [3] Keywords that name no literal may be variables, labels, types and keys
    Given an empty graph
    When executing query:
      """
      CREATE (match:MATCH {where: 1})-[return:RETURN {order: 2}]->(end:END)
      WITH match, return, end
      RETURN match.where AS where, return.order AS order, labels(end) AS labels, type(return) AS type
      """
    Then the result should be, in any order:
      | where | order | labels  | type     |
      | 1     | 2     | ['END'] | 'RETURN' |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 2 |
      | +properties    | 2 |
