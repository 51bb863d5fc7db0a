# Sources: Neo4j Cypher manual 5, functions/scalar (randomUUID), functions/vector
# (vector.similarity.cosine and vector.similarity.euclidean: both FLOAT in [0, 1], null in, null out)
# and functions/mathematical-numeric (round with the rounding mode UNNECESSARY).
Feature: ScalarFunctionsNeo4j5 - randomUUID, the vector similarity functions and round(..., 'UNNECESSARY')

  Scenario: [1] randomUUID gives a version 4 UUID, a new one per call
    Given any graph
    When executing query:
      """
      WITH randomUUID() AS u, randomUUID() AS v
      RETURN u =~ '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}' AS form,
             size(u) AS len, u <> v AS fresh, valueType(u) AS type
      """
    Then the result should be, in any order:
      | form | len | fresh | type              |
      | true | 36  | true  | 'STRING NOT NULL' |
    And no side effects

  Scenario: [2] randomUUID gives every row its own value
    Given any graph
    When executing query:
      """
      UNWIND range(1, 50) AS i
      WITH randomUUID() AS u
      WITH collect(u) AS us
      RETURN size(us) AS n, size(reduce(seen = [], u IN us | CASE WHEN u IN seen THEN seen ELSE seen + u END)) AS different
      """
    Then the result should be, in any order:
      | n  | different |
      | 50 | 50        |
    And no side effects

  Scenario: [3] Aggregating randomUUID is refused like aggregating rand
    Given any graph
    When executing query:
      """
      UNWIND [1, 2] AS i RETURN count(DISTINCT randomUUID()) AS c
      """
    Then a SyntaxError should be raised at compile time: NonConstantExpression

  Scenario: [4] Cosine similarity maps the angle to [0, 1]
    Given any graph
    When executing query:
      """
      RETURN vector.similarity.cosine([1, 0], [0, 1]) AS orthogonal, vector.similarity.cosine([1, 2], [2, 4]) AS same,
             vector.similarity.cosine([1.0, 0.0], [-1.0, 0.0]) AS opposite, vector.similarity.cosine([3, 4], [4, 3]) AS near
      """
    Then the result should be, in any order:
      | orthogonal | same | opposite | near |
      | 0.5        | 1.0  | 0.0      | 0.98 |
    And no side effects

  Scenario: [5] Euclidean similarity is one over one plus the squared distance
    Given any graph
    When executing query:
      """
      RETURN vector.similarity.euclidean([1, 1], [1, 1]) AS same, vector.similarity.euclidean([0, 0], [1, 2]) AS apart,
             vector.similarity.euclidean([0.5], [1.5]) AS one
      """
    Then the result should be, in any order:
      | same | apart               | one |
      | 1.0  | 0.16666666666666666 | 0.5 |
    And no side effects

  Scenario: [6] The similarity of null is null, and of a zero vector's direction unknown
    Given any graph
    When executing query:
      """
      RETURN vector.similarity.cosine(null, [1]) AS a, vector.similarity.euclidean([1], null) AS b,
             vector.similarity.cosine([0, 0], [1, 1]) AS c
      """
    Then the result should be, in any order:
      | a    | b    | c    |
      | null | null | null |
    And no side effects

  Scenario Outline: [7] Vectors of different lengths and empty vectors are refused
    Given any graph
    When executing query:
      """
      RETURN vector.similarity.<fn>(<a>, <b>) AS s
      """
    Then an ArgumentError should be raised at runtime: InvalidArgumentValue

    Examples:
      | fn        | a      | b   |
      | cosine    | [1, 2] | [1] |
      | euclidean | []     | []  |

  Scenario Outline: [11] A value that is not a list of numbers is refused before running when its type is known, else when it arrives
    Given any graph
    When executing query:
      """
      WITH [<a>, [1]] AS box RETURN vector.similarity.<fn>(<arg>, [1, 2]) AS s
      """
    Then a <type> should be raised at <phase>: <detail>

    Examples:
      | fn        | a         | arg    | type        | phase        | detail               |
      | cosine    | 'a'       | 'a'    | SyntaxError | compile time | InvalidArgumentType  |
      | euclidean | 1         | box[0] | TypeError   | runtime      | InvalidArgumentValue |
      | euclidean | [1, 'x']  | box[0] | TypeError   | runtime      | InvalidArgumentValue |

  Scenario: [8] The similarity functions take two arguments
    Given any graph
    When executing query:
      """
      RETURN vector.similarity.euclidean([1]) AS s
      """
    Then a SyntaxError should be raised at compile time: InvalidNumberOfArguments

  Scenario: [9] UNNECESSARY returns the value when it needs no rounding, in any letter case
    Given any graph
    When executing query:
      """
      RETURN round(1.25, 2, 'UNNECESSARY') AS a, round(1.0, 0, 'unnecessary') AS b, round(-3.5, 3, 'UNNECESSARY') AS c
      """
    Then the result should be, in any order:
      | a    | b   | c    |
      | 1.25 | 1.0 | -3.5 |
    And no side effects

  Scenario: [10] UNNECESSARY fails when a digit would be dropped
    Given any graph
    When executing query:
      """
      RETURN round(1.25, 1, 'UNNECESSARY') AS a
      """
    Then an ArithmeticError should be raised at runtime: InvalidArgumentValue
