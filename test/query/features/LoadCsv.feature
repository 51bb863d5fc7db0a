# Written from the Neo4j 5 Cypher Manual, "LOAD CSV" (clauses/load-csv): rows as lists and as maps WITH
# HEADERS, FIELDTERMINATOR (a tab, a character beyond ASCII), quoting and escaped quotes, linenumber() and
# file(), CALL { } IN TRANSACTIONS over the file, and the errors for a missing file, a bad URL and a scheme
# not served. The CSV files are in ./csv, the import directory of these scenarios. Weft's own choices
# (empty fields, ragged records, the error details) are in docs/cypher.md, "LOAD CSV".
Feature: LoadCsv - the rows of a CSV file

  Scenario: [1] Rows without headers are lists of strings
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      RETURN line
      """
    Then the result should be, in order:
      | line                            |
      | ['1', 'ABBA', '1992']           |
      | ['2', 'Roxette', '1986']        |
      | ['3', 'Europe', '1979']         |
      | ['4', 'The Cardigans', '1992']  |
    And no side effects

  Scenario: [2] The manual's import creates a node per row
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      CREATE (:Artist {name: line[1], year: toInteger(line[2])})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 4 |
      | +labels     | 1 |
      | +properties | 8 |

  Scenario: [3] WITH HEADERS makes each later row a map by the first row's names
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///artists-with-headers.csv' AS line
      RETURN line.Name AS name, toInteger(line.Year) AS year, line
      """
    Then the result should be, in order:
      | name            | year | line                                            |
      | 'ABBA'          | 1992 | {Id: '1', Name: 'ABBA', Year: '1992'}           |
      | 'Roxette'       | 1986 | {Id: '2', Name: 'Roxette', Year: '1986'}        |
      | 'Europe'        | 1979 | {Id: '3', Name: 'Europe', Year: '1979'}         |
      | 'The Cardigans' | 1992 | {Id: '4', Name: 'The Cardigans', Year: '1992'}  |
    And no side effects

  Scenario: [4] FIELDTERMINATOR names another delimiter
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists-fieldterminator.csv' AS line FIELDTERMINATOR ';'
      RETURN line[1] AS name
      """
    Then the result should be, in order:
      | name            |
      | 'ABBA'          |
      | 'Roxette'       |
      | 'Europe'        |
      | 'The Cardigans' |
    And no side effects

  Scenario: [5] A tab terminator, written as an escape, and as a \u escape
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///tabs.tsv' AS a FIELDTERMINATOR '\t'
      WITH collect(a) AS tabs
      LOAD CSV WITH HEADERS FROM 'file:///tabs.tsv' AS b FIELDTERMINATOR '\u0009'
      WITH tabs, collect(b) AS escaped
      RETURN tabs[0] AS first, tabs[1].name = 'Tab\there' AS tab, tabs = escaped AS same
      """
    Then the result should be, in any order:
      | first                            | tab  | same |
      | {id: '1', name: 'Ada, Countess'} | true | true |
    And no side effects

  Scenario: [6] A terminator beyond ASCII, in a UTF-8 file
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///broken-bar.csv' AS row FIELDTERMINATOR '¦'
      RETURN row.id AS id, row.name AS name, row.city AS city
      """
    Then the result should be, in order:
      | id  | name  | city      |
      | '1' | 'Zoë' | 'München' |
      | '2' | 'a¦b' | null      |
    And no side effects

  Scenario: [7] Quoted fields with doubled quotes, as in the manual
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists-with-escaped-char.csv' AS line
      CREATE (a:Artist {name: line[1], year: toInteger(line[2])})
      RETURN a.name AS name, a.year AS year, size(a.name) AS size
      """
    Then the result should be, in any order:
      | name             | year | size |
      | 'The "Symbol"'   | 1992 | 12   |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: [8] Quoting: the terminator and line breaks inside quotes, \" escapes, empty fields and a last line without a break
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///quoting.csv' AS r
      RETURN linenumber() AS line, r.a AS a, r.b AS b, r.c = 'line one\nline two' AS broken, r.c AS c
      """
    Then the result should be, in order:
      | line | a            | b             | broken | c                   |
      | 2    | 'x, y'       | 'say "hi"'    | true   | 'line one\nline two' |
      | 4    | null         | ''            | null   | null                |
      | 5    | 'back"slash' | 'plain"quote' | null   | null                |
      | 7    | 'last'       | null          | false  | 'no newline at end' |
    And no side effects

  Scenario: [9] An empty field is null in a list row too; a quoted empty field is the empty string
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///quoting.csv' AS r
      WITH r WHERE r[0] IS NULL
      RETURN r
      """
    Then the result should be, in any order:
      | r              |
      | [null, '', null] |
    And no side effects

  Scenario: [10] A byte order mark is dropped, and CRLF ends records but stays inside quotes
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///bom-crlf.csv' AS r
      RETURN keys(r) AS keys, r.id AS id, r.name = 'Grace\r\nHopper' AS crlf, linenumber() AS line
      """
    Then the result should be, in order:
      | keys           | id  | crlf  | line |
      | ['id', 'name'] | '1' | false | 2    |
      | ['id', 'name'] | '2' | true  | 3    |
    And no side effects

  Scenario: [11] A record shorter than the header has nulls; fields past the header are dropped
    Given an empty graph
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///ragged.csv' AS r
      RETURN r
      """
    Then the result should be, in order:
      | r                          |
      | {a: '1', b: null, c: null} |
      | {a: '1', b: '2', c: '3'}   |
    And no side effects

  Scenario: [12] An empty file has no rows, with or without headers
    Given an empty graph
    When executing query:
      """
      OPTIONAL MATCH (n)
      CALL { LOAD CSV FROM 'file:///empty.csv' AS r RETURN count(r) AS lists }
      CALL { LOAD CSV WITH HEADERS FROM 'file:///empty.csv' AS r RETURN count(r) AS maps }
      RETURN lists, maps
      """
    Then the result should be, in any order:
      | lists | maps |
      | 0     | 0    |
    And no side effects

  Scenario: [13] linenumber() counts the file's lines, and file() names the file on disk
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      RETURN linenumber() AS number, line[1] AS name, file() ENDS WITH '/csv/artists.csv' AS file
      """
    Then the result should be, in order:
      | number | name            | file |
      | 1      | 'ABBA'          | true |
      | 2      | 'Roxette'       | true |
      | 3      | 'Europe'        | true |
      | 4      | 'The Cardigans' | true |
    And no side effects

  Scenario: [14] Without a LOAD CSV in scope, linenumber() and file() are null
    Given an empty graph
    When executing query:
      """
      RETURN linenumber() AS number, file() AS file
      """
    Then the result should be, in any order:
      | number | file |
      | null   | null |
    And no side effects

  Scenario: [15] The URL is any expression: a parameter, a value of the row
    Given an empty graph
    And parameters are:
      | name | 'artists' |
    When executing query:
      """
      UNWIND ['-fieldterminator', ''] AS suffix
      LOAD CSV FROM 'file:///' + $name + suffix + '.csv' AS line
      RETURN suffix, count(*) AS rows
      """
    Then the result should be, in any order:
      | suffix              | rows |
      | '-fieldterminator'  | 4    |
      | ''                  | 4    |
    And no side effects

  Scenario: [16] CALL { } IN TRANSACTIONS commits a file of several batches; linenumber() in the body is its row's
    Given an empty graph
    And having executed:
      """
      LOAD CSV FROM 'file:///numbers.csv' AS row
      CALL (row) {
        CREATE (:N {id: toInteger(row[0]), name: row[1], line: linenumber()})
      } IN TRANSACTIONS OF 10 ROWS
      """
    When executing query:
      """
      MATCH (n:N)
      RETURN count(n) AS nodes, sum(n.id) AS ids, sum(n.line) AS lines, all(x IN collect(n) WHERE x.id = x.line) AS same
      """
    Then the result should be, in any order:
      | nodes | ids | lines | same |
      | 25    | 325 | 325   | true |
    And no side effects

  Scenario: [17] IN TRANSACTIONS passes each batch's rows on with its status
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///numbers.csv' AS row
      CALL (row) {
        CREATE (n:N {id: toInteger(row[0])})
        RETURN n.id AS id
      } IN TRANSACTIONS OF 10 ROWS ON ERROR CONTINUE REPORT STATUS AS s
      WITH s.transactionId AS tx, count(*) AS rows, min(id) AS first
      RETURN rows, first ORDER BY first
      """
    Then the result should be, in order:
      | rows | first |
      | 10   | 1     |
      | 10   | 11    |
      | 5    | 21    |
    And the side effects should be:
      | +nodes      | 25 |
      | +labels     | 1  |
      | +properties | 25 |

  Scenario: [18] MERGE from a file, run twice, creates once
    Given an empty graph
    And having executed:
      """
      LOAD CSV WITH HEADERS FROM 'file:///artists-with-headers.csv' AS r
      MERGE (:Artist {id: r.Id})
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///artists-with-headers.csv' AS r
      MERGE (a:Artist {id: r.Id}) ON MATCH SET a.name = r.Name
      RETURN count(a) AS merged
      """
    Then the result should be, in any order:
      | merged |
      | 4      |
    And the side effects should be:
      | +properties | 4 |

  Scenario: [19] A file that is not there
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///missing.csv' AS line
      RETURN line
      """
    Then a ExternalResourceFailed should be raised at runtime: FileNotFound

  Scenario: [20] A URL that is not one
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'artists.csv' AS line
      RETURN line
      """
    Then a ExternalResourceFailed should be raised at runtime: InvalidUrl

  Scenario: [21] A scheme LOAD CSV does not read
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'ftp://example.com/artists.csv' AS line
      RETURN line
      """
    Then a ExternalResourceFailed should be raised at runtime: UnsupportedScheme

  Scenario: [22] A URL that is not a STRING
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 42 AS line
      RETURN line
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [23] A URL known only at run time that is not a STRING
    Given an empty graph
    And parameters are:
      | url | 42 |
    When executing query:
      """
      LOAD CSV FROM $url AS line
      RETURN line
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType

  Scenario: [24] FIELDTERMINATOR takes one character
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line FIELDTERMINATOR ';;'
      RETURN line
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentValue

  Scenario: [25] The row variable must be new
    Given an empty graph
    When executing query:
      """
      WITH 1 AS line
      LOAD CSV FROM 'file:///artists.csv' AS line
      RETURN line
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: [26] A query cannot end with LOAD CSV
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      """
    Then a SyntaxError should be raised at compile time: InvalidClauseComposition

  Scenario: [27] A quoted field not closed before the end of the file
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///unclosed.csv' AS line
      RETURN line
      """
    Then a ExternalResourceFailed should be raised at runtime: MalformedCsv

  Scenario: [28] Text after a closing quote
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///after-quote.csv' AS line
      RETURN line
      """
    Then a ExternalResourceFailed should be raised at runtime: MalformedCsv

  Scenario: [29] A failed load writes nothing: the statement is one transaction
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///unclosed.csv' AS line
      CREATE (:Row {first: line[0]})
      """
    Then a ExternalResourceFailed should be raised at runtime: MalformedCsv
    And no side effects

  Scenario: [30] The keywords of LOAD CSV stay usable as names
    Given an empty graph
    When executing query:
      """
      WITH 1 AS load, 2 AS csv, 3 AS headers, 4 AS fieldterminator
      RETURN load + csv + headers + fieldterminator AS sum
      """
    Then the result should be, in any order:
      | sum |
      | 10  |
    And no side effects

  Scenario: [31] After a WITH, linenumber() and file() are those of the record read last
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      WITH line[1] AS name
      RETURN name, linenumber() AS number, file() ENDS WITH '/csv/artists.csv' AS file
      """
    Then the result should be, in order:
      | name            | number | file |
      | 'ABBA'          | 1      | true |
      | 'Roxette'       | 2      | true |
      | 'Europe'        | 3      | true |
      | 'The Cardigans' | 4      | true |
    And no side effects

  Scenario: [32] RETURN DISTINCT file(), as in the manual
    Given an empty graph
    When executing query:
      """
      LOAD CSV FROM 'file:///artists.csv' AS line
      WITH DISTINCT file() AS path
      RETURN path ENDS WITH '/csv/artists.csv' AS artists, count(*) AS paths
      """
    Then the result should be, in any order:
      | artists | paths |
      | true    | 1     |
    And no side effects

