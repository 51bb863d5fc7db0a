# Written from the Neo4j 5 Cypher Manual, "SHOW INDEXES" (indexes/search-performance-indexes/managing-indexes),
# "SHOW CONSTRAINTS" (constraints/managing-constraints), "SHOW FUNCTIONS" (clauses/listing-functions) and
# "SHOW PROCEDURES" (clauses/listing-procedures): the default columns, YIELD with ORDER BY, SKIP, LIMIT and
# WHERE, a RETURN after YIELD, WHERE without YIELD, the kind words before the noun. Weft's own column values
# (index providers, null descriptions) are in docs/cypher.md.
Feature: ShowCommands - SHOW INDEXES, CONSTRAINTS, FUNCTIONS and PROCEDURES

  Scenario: [1] SHOW INDEXES lists the manual's default columns, ordered by name
    Given an empty graph
    And having executed:
      """
      CREATE INDEX person_name FOR (n:Person) ON (n.name)
      """
    And having executed:
      """
      CREATE INDEX author_name FOR (n:Author) ON (n.first, n.last)
      """
    When executing query:
      """
      SHOW INDEXES
      """
    Then the result should be, in order (ignoring element order for lists):
      | id | name          | state    | populationPercent | type    | entityType | labelsOrTypes | properties        | indexProvider    | owningConstraint | lastRead | readCount |
      | 2  | 'author_name' | 'ONLINE' | 100.0             | 'RANGE' | 'NODE'     | ['Author']    | ['first', 'last'] | 'weft-btree-1.0' | null             | null     | null      |
      | 1  | 'person_name' | 'ONLINE' | 100.0             | 'RANGE' | 'NODE'     | ['Person']    | ['name']          | 'weft-btree-1.0' | null             | null     | null      |
    And no side effects

  Scenario: [2] SHOW INDEXES YIELD with a WHERE, and RETURN after it
    Given an empty graph
    And having executed:
      """
      CREATE INDEX person_name FOR (n:Person) ON (n.name)
      """
    And having executed:
      """
      CREATE CONSTRAINT book_isbn FOR (b:Book) REQUIRE b.isbn IS UNIQUE
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, owningConstraint AS owner, createStatement
      WHERE owner IS NOT NULL
      RETURN name, owner, createStatement STARTS WITH 'CREATE UNIQUE INDEX' AS unique
      """
    Then the result should be, in any order:
      | name              | owner       | unique |
      | 'book_isbn_index' | 'book_isbn' | true   |
    And no side effects

  Scenario: [3] SHOW RANGE INDEXES with WHERE on a default column; other kinds list nothing
    Given an empty graph
    And having executed:
      """
      CREATE INDEX person_name FOR (n:Person) ON (n.name)
      """
    When executing query:
      """
      SHOW RANGE INDEXES WHERE name = 'person_name'
      """
    Then the result should be, in any order:
      | id | name          | state    | populationPercent | type    | entityType | labelsOrTypes | properties | indexProvider    | owningConstraint | lastRead | readCount |
      | 1  | 'person_name' | 'ONLINE' | 100.0             | 'RANGE' | 'NODE'     | ['Person']    | ['name']   | 'weft-btree-1.0' | null             | null     | null      |
    And no side effects

  Scenario: [4] SHOW POINT INDEXES lists nothing when there are none of that kind
    Given an empty graph
    And having executed:
      """
      CREATE INDEX person_name FOR (n:Person) ON (n.name)
      """
    When executing query:
      """
      SHOW POINT INDEXES YIELD name RETURN count(*) AS indexes
      """
    Then the result should be, in any order:
      | indexes |
      | 0       |
    And no side effects

  Scenario: [5] SHOW CONSTRAINTS lists every constraint with its type and owned index
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT book_isbn FOR (b:Book) REQUIRE b.isbn IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT person_age FOR (p:Person) REQUIRE p.age IS NOT NULL
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties, ownedIndex ORDER BY name
      """
    Then the result should be, in order:
      | name         | type                      | labelsOrTypes | properties | ownedIndex        |
      | 'book_isbn'  | 'UNIQUENESS'              | ['Book']      | ['isbn']   | 'book_isbn_index' |
      | 'person_age' | 'NODE_PROPERTY_EXISTENCE' | ['Person']    | ['age']    | null              |
    And no side effects

  Scenario: [6] SHOW UNIQUE CONSTRAINTS and SHOW EXISTENCE CONSTRAINTS pick their kind
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT book_isbn FOR (b:Book) REQUIRE b.isbn IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT person_age FOR (p:Person) REQUIRE p.age IS NOT NULL
      """
    When executing query:
      """
      SHOW NODE EXISTENCE CONSTRAINTS YIELD name
      """
    Then the result should be, in any order:
      | name         |
      | 'person_age' |
    And no side effects

  Scenario: [7] SHOW CONSTRAINTS YIELD * adds the create statement
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT book_isbn FOR (b:Book) REQUIRE b.isbn IS UNIQUE
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD * RETURN name, createStatement
      """
    Then the result should be, in any order:
      | name        | createStatement                                                        |
      | 'book_isbn' | 'CREATE CONSTRAINT `book_isbn` FOR (n:`Book`) REQUIRE n.`isbn` IS UNIQUE' |
    And no side effects

  Scenario: [8] SHOW FUNCTIONS with YIELD, WHERE and ORDER BY over name and category
    Given any graph
    When executing query:
      """
      SHOW FUNCTIONS YIELD name, category, aggregating
      WHERE name IN ['count', 'toLower', 'date']
      RETURN name, category, aggregating ORDER BY name
      """
    Then the result should be, in order:
      | name      | category      | aggregating |
      | 'count'   | 'Aggregating' | true        |
      | 'date'    | 'Temporal'    | false       |
      | 'toLower' | 'String'      | false       |
    And no side effects

  Scenario: [9] SHOW BUILT IN FUNCTIONS EXECUTABLE BY CURRENT USER, with SKIP and LIMIT; no user-defined ones
    Given any graph
    When executing query:
      """
      SHOW BUILT IN FUNCTIONS EXECUTABLE BY CURRENT USER YIELD name ORDER BY name SKIP 1 LIMIT 2
      """
    Then the result should be, in order:
      | name   |
      | 'acos' |
      | 'asin' |
    And no side effects

  Scenario: [10] SHOW USER DEFINED FUNCTIONS lists nothing
    Given any graph
    When executing query:
      """
      SHOW USER DEFINED FUNCTIONS YIELD name RETURN count(*) AS functions
      """
    Then the result should be, in any order:
      | functions |
      | 0         |
    And no side effects

  Scenario: [11] SHOW PROCEDURES lists the schema procedures
    Given any graph
    When executing query:
      """
      SHOW PROCEDURES
      """
    Then the result should be, in order:
      | name                   | description | mode   | worksOnSystem |
      | 'db.labels'            | null        | 'READ' | false         |
      | 'db.propertyKeys'      | null        | 'READ' | false         |
      | 'db.relationshipTypes' | null        | 'READ' | false         |
    And no side effects

  Scenario: [12] Counting the rows of a SHOW command
    Given any graph
    When executing query:
      """
      SHOW PROCEDURES YIELD name RETURN count(*) AS procedures
      """
    Then the result should be, in any order:
      | procedures |
      | 3          |
    And no side effects

  Scenario: [13] YIELD of a column the command does not have
    Given any graph
    When executing query:
      """
      SHOW INDEXES YIELD nonexistent
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [14] YIELD takes column names, not expressions
    Given any graph
    When executing query:
      """
      SHOW INDEXES YIELD name + 'x' AS n
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [15] A kind the command does not have
    Given any graph
    When executing query:
      """
      SHOW BLUE INDEXES
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [16] Only SHOW TRANSACTIONS takes ids
    Given any graph
    When executing query:
      """
      SHOW INDEXES 'weft-transaction-1'
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [17] A SHOW command does not end with a reading clause after YIELD
    Given any graph
    When executing query:
      """
      SHOW INDEXES YIELD name MATCH (n)
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [18] show stays a name
    Given any graph
    When executing query:
      """
      WITH 1 AS show RETURN show
      """
    Then the result should be, in any order:
      | show |
      | 1    |
    And no side effects

  Scenario: [19] SHOW FUNCTIONS names functions as the manual spells them, with a signature typed as the binder checks it
    Given any graph
    When executing query:
      """
      SHOW FUNCTIONS YIELD name, signature, isBuiltIn, returnDescription, argumentDescription
      WHERE name IN ['toUpper', 'toIntegerOrNull', 'stDev', 'percentileCont', 'elementId', 'duration.inDays', 'substring', 'coalesce', 'vector.similarity.cosine']
      RETURN name, signature, isBuiltIn, returnDescription, [a IN argumentDescription | a.name + ' ' + a.type] AS arguments ORDER BY name
      """
    Then the result should be, in order:
      | name                       | signature                                                                    | isBuiltIn | returnDescription | arguments                                         |
      | 'coalesce'                 | 'coalesce(input :: ANY, ...) :: ANY'                                         | true      | 'ANY'             | ['input ANY']                                     |
      | 'duration.inDays'          | 'duration.inDays(arg1 :: DATE \| LOCAL TIME \| ZONED TIME \| LOCAL DATETIME \| ZONED DATETIME, arg2 :: DATE \| LOCAL TIME \| ZONED TIME \| LOCAL DATETIME \| ZONED DATETIME) :: DURATION' | true | 'DURATION' | ['arg1 DATE \| LOCAL TIME \| ZONED TIME \| LOCAL DATETIME \| ZONED DATETIME', 'arg2 DATE \| LOCAL TIME \| ZONED TIME \| LOCAL DATETIME \| ZONED DATETIME'] |
      | 'elementId'                | 'elementId(input :: NODE \| RELATIONSHIP) :: ANY'                            | true      | 'ANY'             | ['input NODE \| RELATIONSHIP']                    |
      | 'percentileCont'           | 'percentileCont(arg1 :: INTEGER \| FLOAT, arg2 :: INTEGER \| FLOAT) :: FLOAT' | true      | 'FLOAT'           | ['arg1 INTEGER \| FLOAT', 'arg2 INTEGER \| FLOAT'] |
      | 'stDev'                    | 'stDev(input :: INTEGER \| FLOAT) :: FLOAT'                                  | true      | 'FLOAT'           | ['input INTEGER \| FLOAT']                        |
      | 'substring'                | 'substring(arg1 :: STRING, arg2 :: INTEGER, [arg3 :: INTEGER]) :: STRING'    | true      | 'STRING'          | ['arg1 STRING', 'arg2 INTEGER', 'arg3 INTEGER']   |
      | 'toIntegerOrNull'          | 'toIntegerOrNull(input :: ANY) :: ANY'                                       | true      | 'ANY'             | ['input ANY']                                     |
      | 'toUpper'                  | 'toUpper(input :: STRING) :: STRING'                                         | true      | 'STRING'          | ['input STRING']                                  |
      | 'vector.similarity.cosine' | 'vector.similarity.cosine(arg1 :: LIST<ANY>, arg2 :: LIST<ANY>) :: FLOAT'    | true      | 'FLOAT'           | ['arg1 LIST<ANY>', 'arg2 LIST<ANY>']              |
    And no side effects

  Scenario: [20] SHOW FUNCTIONS EXECUTABLE lists every function; no name is listed in Weft's lower-case spelling where the manual capitalizes it
    Given any graph
    When executing query:
      """
      SHOW FUNCTIONS EXECUTABLE YIELD name
      WHERE name IN ['tolower', 'toLower', 'randomuuid', 'randomUUID', 'isempty', 'isEmpty', 'lower']
      RETURN collect(name) AS names
      """
    Then the result should be, in any order:
      | names                                      |
      | ['isEmpty', 'lower', 'randomUUID', 'toLower'] |
    And no side effects

  Scenario: [21] SHOW PROCEDURES EXECUTABLE BY CURRENT USER gives typed signatures and descriptions of arguments and outputs
    Given any graph
    When executing query:
      """
      SHOW PROCEDURES EXECUTABLE BY CURRENT USER YIELD name, signature, argumentDescription, returnDescription
      WHERE name = 'db.labels'
      RETURN name, signature, argumentDescription, [r IN returnDescription | r.name + ' :: ' + r.type] AS returns
      """
    Then the result should be, in any order:
      | name        | signature                          | argumentDescription | returns             |
      | 'db.labels' | 'db.labels() :: (label :: STRING)' | []                  | ['label :: STRING'] |
    And no side effects
