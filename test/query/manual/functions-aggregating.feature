# Written from the Neo4j 5 Cypher Manual's page "Aggregating functions": each example on the page's graph,
# then what each function does with nulls, with no rows, and with arguments of the wrong type or out of range.
Feature: Manual - aggregating functions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (keanu:Person {name: 'Keanu Reeves', age: 58}),
             (liam:Person {name: 'Liam Neeson', age: 70}),
             (carrie:Person {name: 'Carrie Anne Moss', age: 55}),
             (guy:Person {name: 'Guy Pearce', age: 55}),
             (kathryn:Person {name: 'Kathryn Bigelow', age: 71}),
             (speed:Movie {title: 'Speed'}),
             (keanu)-[:ACTED_IN]->(speed),
             (keanu)-[:KNOWS]->(carrie), (keanu)-[:KNOWS]->(liam), (keanu)-[:KNOWS]->(kathryn),
             (carrie)-[:KNOWS]->(guy), (liam)-[:KNOWS]->(guy)
      """

  Scenario Outline: [1] An aggregate of the people's ages: <query>
    When executing query:
      """
      MATCH (p:Person) RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                          | result               |
      | avg(p.age)                     | 61.8                 |
      | count(p.age)                   | 5                    |
      | count(DISTINCT p.age)          | 4                    |
      | max(p.age)                     | 71                   |
      | min(p.age)                     | 55                   |
      | percentileCont(p.age, 0.4)     | 56.8                 |
      | percentileCont(p.age, 0.0)     | 55.0                 |
      | percentileCont(p.age, 1.0)     | 71.0                 |
      | percentileDisc(p.age, 0.5)     | 58                   |
      | percentileDisc(p.age, 0.0)     | 55                   |
      | sum(p.age)                     | 309                  |
      | sum(DISTINCT p.age)            | 254                  |
      | collect(DISTINCT p.age)        | [58, 70, 55, 71]     |
      | count(*)                       | 5                    |

  Scenario: [2] collect() gathers the values in the order the rows come
    When executing query:
      """
      MATCH (p:Person) RETURN collect(p.age) AS ages
      """
    Then the result should be, in any order:
      | ages                  |
      | [58, 70, 55, 55, 71]  |
    And no side effects

  Scenario: [3] stDev() and stDevP() of three ages
    When executing query:
      """
      MATCH (p:Person) WHERE p.name IN ['Keanu Reeves', 'Liam Neeson', 'Carrie Anne Moss']
      RETURN stDev(p.age) AS s, stDevP(p.age) AS sp
      """
    Then the result should be, in any order:
      | s                 | sp               |
      | 7.937253933193772 | 6.48074069840786 |
    And no side effects

  Scenario: [4] count(*) beside grouping keys
    When executing query:
      """
      MATCH (p {name: 'Keanu Reeves'})-->(x) RETURN labels(p), p.age, count(*)
      """
    Then the result should be, in any order:
      | labels(p)  | p.age | count(*) |
      | ['Person'] | 58    | 4        |
    And no side effects

  Scenario: [5] count(*) grouped by relationship type
    When executing query:
      """
      MATCH (p {name: 'Keanu Reeves'})-[r]->() RETURN type(r), count(*)
      """
    Then the result should be, in any order:
      | type(r)    | count(*) |
      | 'ACTED_IN' | 1        |
      | 'KNOWS'    | 3        |
    And no side effects

  Scenario: [6] count() of an expression counts the rows where it is not null
    When executing query:
      """
      MATCH (p {name: 'Keanu Reeves'})-->(x) RETURN count(x), count(x.age), count(x.title)
      """
    Then the result should be, in any order:
      | count(x) | count(x.age) | count(x.title) |
      | 4        | 3            | 1              |
    And no side effects

  Scenario: [7] count() with and without duplicates: ALL is the default
    When executing query:
      """
      MATCH (p:Person) WHERE p.name = 'Keanu Reeves'
      MATCH (p)-[:KNOWS]-(friend)-[:KNOWS]-(friendOfFriend)
      RETURN friendOfFriend.name, count(friendOfFriend), count(ALL friendOfFriend), count(DISTINCT friendOfFriend)
      """
    Then the result should be, in any order:
      | friendOfFriend.name | count(friendOfFriend) | count(ALL friendOfFriend) | count(DISTINCT friendOfFriend) |
      | 'Guy Pearce'        | 2                     | 2                         | 1                              |
    And no side effects

  Scenario Outline: [8] An aggregate of a literal list: <query>
    When executing query:
      """
      UNWIND <list> AS val RETURN <query> AS result
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | list                                   | query     | result         |
      | [1, 'a', null, 0.2, 'b', '1', '99']    | max(val)  | 1              |
      | [1, 'a', null, 0.2, 'b', '1', '99']    | min(val)  | '1'            |
      | [[1, 'a', 89], [1, 2]]                 | max(val)  | [1, 2]         |
      | ['d', [1, 2], ['a', 'c', 23]]          | min(val)  | ['a', 'c', 23] |
      | [1, 2.5, null]                         | sum(val)  | 3.5            |
      | [1, 2, null]                           | avg(val)  | 1.5            |
      | [1, 2.0]                               | avg(val)  | 1.5            |
      | [null, null]                           | collect(val) | []          |
      | [null, 1, null]                        | count(val) | 1             |
      | [2, 2, 3]                              | collect(DISTINCT val) | [2, 3] |
      | [1.0, 1]                               | count(DISTINCT val) | 1    |

  Scenario: [9] avg() and sum() of durations
    When executing query:
      """
      UNWIND [duration('P2DT3H'), duration('PT1H45S')] AS dur
      RETURN avg(dur) AS average, sum(dur) AS total
      """
    Then the result should be, in any order:
      | average       | total         |
      | 'P1DT2H22.5S' | 'P2DT4H45S'   |
    And no side effects

  Scenario: [10] Over no rows, count() and sum() are 0, collect() is empty and the others are null
    When executing query:
      """
      MATCH (p:Nobody)
      RETURN count(p) AS c, count(*) AS star, sum(p.age) AS s, collect(p.age) AS l, avg(p.age) AS a,
             max(p.age) AS mx, min(p.age) AS mn, stDev(p.age) AS sd, stDevP(p.age) AS sdp,
             percentileCont(p.age, 0.5) AS pc, percentileDisc(p.age, 0.5) AS pd
      """
    Then the result should be, in any order:
      | c | star | s | l  | a    | mx   | mn   | sd  | sdp | pc   | pd   |
      | 0 | 0    | 0 | [] | null | null | null | 0.0 | 0.0 | null | null |
    And no side effects

  Scenario: [11] Only nulls: the same answers as no rows
    When executing query:
      """
      MATCH (p:Person)
      RETURN count(p.height) AS c, sum(p.height) AS s, collect(p.height) AS l, avg(p.height) AS a,
             max(p.height) AS mx, min(p.height) AS mn, stDev(p.height) AS sd,
             percentileCont(p.height, 0.5) AS pc, percentileDisc(p.height, 0.5) AS pd
      """
    Then the result should be, in any order:
      | c | s | l  | a    | mx   | mn   | sd  | pc   | pd   |
      | 0 | 0 | [] | null | null | null | 0.0 | null | null |
    And no side effects

  Scenario Outline: [12] A percentile outside 0.0 to 1.0 is an error: <query>
    When executing query:
      """
      MATCH (p:Person) RETURN <query> AS result
      """
    Then a ArgumentError should be raised at runtime: NumberOutOfRange

    Examples:
      | query                       |
      | percentileCont(p.age, 1.5)  |
      | percentileDisc(p.age, -0.1) |

  Scenario Outline: [13] Adding numbers and durations together is an error: <query>
    When executing query:
      """
      UNWIND [1, duration('P1D')] AS val RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | query    |
      | sum(val) |
      | avg(val) |

  Scenario Outline: [14] A numeric aggregate of strings is an error, before the query runs when the type is known: <query>
    When executing query:
      """
      UNWIND ['a', 'b'] AS val RETURN <query> AS result
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | query                      |
      | sum(val)                   |
      | avg(val)                   |
      | stDev(val)                 |
      | percentileCont(val, 0.5)   |

  Scenario Outline: [15] A numeric aggregate meeting a string when the row runs is an error: <query>
    When executing query:
      """
      UNWIND [1, 'b'] AS val RETURN <query> AS result
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

    Examples:
      | query                      |
      | sum(val)                   |
      | avg(val)                   |
      | stDev(val)                 |
      | percentileCont(val, 0.5)   |

  Scenario: [16] An aggregate inside an aggregate is refused
    When executing query:
      """
      MATCH (p:Person) RETURN count(count(p)) AS c
      """
    Then a SyntaxError should be raised at compile time: NestedAggregation
