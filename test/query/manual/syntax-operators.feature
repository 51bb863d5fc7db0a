# Written from the Neo4j 5 Cypher Manual's Syntax chapter, "Operators": DISTINCT, property access (static,
# dynamic, = and +=), arithmetic, comparison and its chains, string matching, the boolean truth table,
# string and list concatenation, temporal arithmetic, map access and list membership and subscripts.
Feature: Manual - syntax: operators

  Scenario: [1] DISTINCT returns each eye colour once
    Given an empty graph
    When executing query:
      """
      CREATE
        (a:Person {name: 'Anne', eyeColor: 'blue'}),
        (b:Person {name: 'Bill', eyeColor: 'brown'}),
        (c:Person {name: 'Carol', eyeColor: 'blue'})
      WITH [a, b, c] AS ps
      UNWIND ps AS p
      RETURN DISTINCT p.eyeColor
      """
    Then the result should be, in any order:
      | p.eyeColor |
      | 'blue'     |
      | 'brown'    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 6 |

  Scenario: [2] A property key computed with [] filters restaurants
    Given an empty graph
    When executing query:
      """
      CREATE
        (a:Restaurant {name: 'Hungry Jo', rating_hygiene: 10, rating_food: 7}),
        (b:Restaurant {name: 'Buttercup Tea Rooms', rating_hygiene: 5, rating_food: 6}),
        (c1:Category {name: 'hygiene'}),
        (c2:Category {name: 'food'})
      WITH a, b, c1, c2
      MATCH (restaurant:Restaurant), (category:Category)
      WHERE restaurant['rating_' + category.name] > 6
      RETURN DISTINCT restaurant.name
      """
    Then the result should be, in any order:
      | restaurant.name |
      | 'Hungry Jo'     |
    And the side effects should be:
      | +nodes      | 4 |
      | +labels     | 2 |
      | +properties | 8 |

  # The side effects are what the statement leaves: a created node's replaced properties never show.
  Scenario Outline: [3] SET with <op> a map: <effect>
    Given an empty graph
    When executing query:
      """
      CREATE (a:Person {name: 'Sofia', age: 20})
      WITH a
      MATCH (p:Person {name: 'Sofia'})
      SET p <op> {name: 'Ellen', livesIn: 'London'}
      RETURN p.name, p.age, p.livesIn
      """
    Then the result should be, in any order:
      | p.name  | p.age | p.livesIn |
      | 'Ellen' | <age> | 'London'  |
    And the side effects should be:
      | +nodes      | 1       |
      | +labels     | 1       |
      | +properties | <added> |

    Examples:
      | op | effect                       | age  | added |
      | =  | replaces every property      | null | 2     |
      | += | changes only those it names  | 20   | 3     |

  Scenario Outline: [4] Operators on values: <query>
    Given any graph
    When executing query:
      """
      <query>
      """
    Then the result should be, in any order:
      | result   |
      | <result> |
    And no side effects

    Examples:
      | query                                                                      | result              |
      | WITH 2 AS number, 3 AS exponent RETURN number ^ exponent AS result        | 8.0                 |
      | WITH -3 AS a, 4 AS b RETURN b - a AS result                               | 7                   |
      | WITH 4 AS one, 3 AS two RETURN one > two AS result                        | true                |
      | RETURN 'neo' + '4j' AS result                                             | 'neo4j'             |
      | WITH {person: {name: 'Anne', age: 25}} AS p RETURN p.person.name AS result | 'Anne'             |
      | RETURN [1,2,3,4,5] + [6,7] AS result                                      | [1, 2, 3, 4, 5, 6, 7] |
      | RETURN [2, 1] IN [1, [2, 1], 3] AS result                                 | true                |
      | RETURN [1, 2] IN [1, 2] AS result                                         | false               |
      | WITH ['Anne', 'John', 'Bill', 'Diane', 'Eve'] AS names RETURN names[1..3] AS result | ['John', 'Bill'] |
      | WITH [[1, 2, 3]] AS l RETURN 3 IN l[0] AS result                          | true                |
      | RETURN 1 = 1 = true AS result                                             | false               |
      | RETURN 1 < 2 = 2 <= 3 <> 4 AS result                                      | true                |
      | RETURN 3 < 2 > 1 AS result                                                | false               |

  Scenario: [5] Filtering with STARTS WITH, a regular expression and boolean operators
    Given any graph
    When executing query:
      """
      UNWIND ['John', 'Mark', 'Jonathan', 'Bill', 'mouse', 'chair', 'door', 'house', 4, 7, 9, 12, 2] AS x
      WITH x
      WHERE (x STARTS WITH 'Jo') OR (x =~ '.*ous.*') OR x = 4 OR (x > 6 AND x < 10)
      RETURN x
      """
    Then the result should be, in any order:
      | x          |
      | 'John'     |
      | 'Jonathan' |
      | 'mouse'    |
      | 'house'    |
      | 4          |
      | 7          |
      | 9          |
    And no side effects

  Scenario: [6] A chain of comparisons is the conjunction of its links
    Given an empty graph
    And having executed:
      """
      CREATE ({age: 21}), ({age: 25}), ({age: 30}), ({age: 31})
      """
    When executing query:
      """
      MATCH (n) WHERE 21 < n.age <= 30
      RETURN n.age AS age
      """
    Then the result should be, in any order:
      | age |
      | 25  |
      | 30  |
    And no side effects

  Scenario Outline: [7] The truth table of AND, OR, XOR and NOT: <a>, <b>
    Given any graph
    When executing query:
      """
      WITH <a> AS a, <b> AS b
      RETURN a AND b AS and, a OR b AS or, a XOR b AS xor, NOT a AS not
      """
    Then the result should be, in any order:
      | and   | or   | xor   | not   |
      | <and> | <or> | <xor> | <not> |
    And no side effects

    Examples:
      | a     | b     | and   | or    | xor   | not   |
      | false | false | false | false | false | true  |
      | false | null  | false | null  | null  | true  |
      | false | true  | false | true  | true  | true  |
      | true  | false | false | true  | true  | false |
      | true  | null  | null  | true  | null  | false |
      | true  | true  | true  | true  | false | false |
      | null  | false | false | null  | null  | null  |
      | null  | null  | null  | null  | null  | null  |
      | null  | true  | null  | true  | null  | null  |

  Scenario: [8] Durations added to and subtracted from instants and from each other, multiplied and divided
    Given any graph
    When executing query:
      """
      WITH localdatetime({year:1984, month:10, day:11, hour:12, minute:31, second:14}) AS aDateTime,
           date({year:1984, month:10, day:11}) AS aDate,
           duration({years: 12, nanoseconds: 2}) AS aDuration,
           duration({years: 12, months: 5, days: 14, hours: 16, minutes: 12, seconds: 70, nanoseconds: 1}) AS duration1,
           duration({months:1, days: -14, hours: 16, minutes: -12, seconds: 70}) AS duration2,
           duration({days: 14, minutes: 12, seconds: 70, nanoseconds: 1}) AS d
      RETURN toString(aDateTime + aDuration) AS a, toString(aDateTime - aDuration) AS b,
             toString(aDate + aDuration) AS c, toString(aDate - aDuration) AS e,
             toString((date('2011-01-31') + duration('P1M')) + duration('P12M')) AS date1,
             toString(date('2011-01-31') + (duration('P1M') + duration('P12M'))) AS date2,
             toString(duration1 + duration2) AS sum, toString(duration1 - duration2) AS difference,
             toString(d * 2) AS twice, toString(d / 3) AS third
      """
    Then the result should be, in any order:
      | a                               | b                               | c            | e            | date1        | date2        | sum                           | difference                    | twice                    | third                     |
      | '1996-10-11T12:31:14.000000002' | '1972-10-11T12:31:13.999999998' | '1996-10-11' | '1972-10-11' | '2012-02-28' | '2012-02-29' | 'P12Y6MT32H2M20.000000001S'   | 'P12Y4M28DT24M0.000000001S'   | 'P28DT26M20.000000002S'  | 'P4DT16H4M23.333333333S'  |
    And no side effects

  Scenario: [9] A parameter as a map key and as a list index
    Given any graph
    And parameters are:
      | myKey   | 'name' |
      | myIndex | 1      |
    When executing query:
      """
      WITH {name: 'Anne', age: 25} AS a, ['Anne', 'John', 'Bill', 'Diane', 'Eve'] AS names
      RETURN a[$myKey] AS key, names[$myIndex] AS index
      """
    Then the result should be, in any order:
      | key    | index  |
      | 'Anne' | 'John' |
    And no side effects
