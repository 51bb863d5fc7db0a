/*
 * Weft's Cypher grammar: openCypher 9 plus Weft's extensions (AS OF TIMESTAMP, query hints,
 * constraint and index DDL, session settings).
 *
 * The grammar is deliberately permissive in a few places so that the AST builder can raise the
 * TCK's specific error codes instead of a generic syntax error:
 *   - a query is any sequence of clauses; clause composition is checked by the builder;
 *   - number literals with a 0x / 0o prefix swallow every letter and digit that follows, so a
 *     malformed one is reported as InvalidNumberLiteral, not as two tokens;
 *   - a variable-length range accepts a missing '*' and negative bounds (InvalidRelationshipPattern);
 *   - string literals accept any escape; the builder validates them (InvalidUnicodeLiteral).
 * Whitespace and comments are skipped by the lexer; hint comments (slash-star-plus) go to their
 * own channel and are read by the parse step.
 *
 * Generated with antlr-ng into ./gen by scripts/gen-grammar.mjs. Edit this file, never ./gen.
 */
grammar Cypher;

options {
    caseInsensitive = true;
}

// ---------------------------------------------------------------------------------------------
// Statements

script
    : statement SEMI? EOF
    ;

statement
    : sessionCommand
    | schemaCommand
    | showCommand
    | terminateCommand
    | query
    ;

// SHOW [kind] INDEXES | CONSTRAINTS | FUNCTIONS | PROCEDURES [WHERE ...] or [YIELD ... [WHERE ...] [RETURN ...]]
// (Neo4j 5). The words before YIELD or WHERE are checked by the builder, which writes the command as a
// query over an internal procedure; the YIELD part reads as a WITH, and the clauses after it follow it.
showCommand
    : SHOW showWord+ transactionIds? where?
    | SHOW showWord+ transactionIds? YIELD projectionBody where? clause* chainedTransactionCommand?
    ;

// TERMINATE TRANSACTION[S] id[, ...] [YIELD ... [WHERE ...] [RETURN ...]] (Neo4j 5), written as SHOW is.
terminateCommand
    : TERMINATE showWord transactionIds (YIELD projectionBody where? clause* chainedTransactionCommand?)?
    ;

// SHOW or TERMINATE TRANSACTIONS after another transaction command's YIELD (Neo4j 5): its ids may be any
// expressions over the columns yielded before (`... YIELD transactionId AS t TERMINATE TRANSACTIONS t`).
chainedTransactionCommand
    : (SHOW | TERMINATE) showWord (expression (COMMA expression)*)? (YIELD projectionBody where? clause* chainedTransactionCommand?)?
    ;

// The ids of SHOW and TERMINATE TRANSACTIONS: quoted strings, parameters, or lists of them. None starts
// with a name, so they never run into the words before them.
transactionIds
    : transactionIdsItem (COMMA transactionIdsItem)*
    ;

transactionIdsItem
    : StringLiteral
    | parameter
    | listLiteral
    ;

showWord
    : symbolicName
    | ALL
    | IN
    | BY
    ;

// `SET vector_consistency = 'snapshot'`: a session setting. A query of the same shape (a lone SET
// of a variable to a literal) could never bind, so the session form wins the ambiguity.
sessionCommand
    : SET symbolicName EQ sessionValue
    ;

// A bare word is read as a string: SET vector_consistency = exact
sessionValue
    : StringLiteral
    | numberLiteral
    | booleanLiteral
    | symbolicName
    ;

query
    : queryOption* singleQuery (unionPart)* queryOption*
    ;

queryOption
    : asOfTimestamp
    | queryHint
    ;

unionPart
    : UNION (ALL | DISTINCT)? singleQuery   // UNION DISTINCT (GQL, Neo4j 5) is UNION
    ;

singleQuery
    : clause+
    ;

asOfTimestamp
    : AS OF TIMESTAMP expression
    ;

queryHint
    : USING functionName LPAREN (expression (COMMA expression)*)? RPAREN
    ;

// A hint comment holds hints without USING: /*+ vector_consistency('exact') vector_build_wait(0) */
hintCommentBody
    : hintCall* EOF
    ;

hintCall
    : functionName LPAREN (expression (COMMA expression)*)? RPAREN
    ;

clause
    : matchClause
    | unwindClause
    | subqueryCallClause
    | callClause
    | createClause
    | mergeClause
    | setClause
    | removeClause
    | deleteClause
    | withClause
    | returnClause
    | foreachClause
    | finishClause
    | orderSkipLimitClause
    | letClause
    | filterClause
    | loadCsvClause
    ;

// ---------------------------------------------------------------------------------------------
// Reading clauses

matchClause
    : OPTIONAL? MATCH pattern (queryOption)* where?
    ;

unwindClause
    : UNWIND expression AS variable
    ;

// LOAD CSV (Neo4j 5): the rows of a CSV file, as lists, or as maps WITH HEADERS.
loadCsvClause
    : LOAD CSV (WITH HEADERS)? FROM expression AS variable (FIELDTERMINATOR StringLiteral)?
    ;

// OPTIONAL CALL (Neo4j 5.24): a row the procedure yields nothing for continues once with the outputs null.
callClause
    : OPTIONAL? CALL procedureName (LPAREN (expression (COMMA expression)*)? RPAREN)? (YIELD (STAR | yieldItems))?
    ;

// CALL { ... }, CALL (a, b) { ... }, CALL (*) { ... }: a subquery run once per incoming row.
subqueryCallClause
    : OPTIONAL? CALL subqueryScope? LBRACE query RBRACE inTransactions?
    ;

subqueryScope
    : LPAREN (STAR | variable (COMMA variable)*)? RPAREN
    ;

// IN [[n] CONCURRENT] TRANSACTIONS, then OF n ROWS, ON ERROR ... and REPORT STATUS AS s in any order
// (the builder refuses one given twice). TRANSACTIONS, ROW(S), ERROR, the modes, RETRY, SECOND(S),
// REPORT and STATUS are not reserved words; the builder checks them.
inTransactions
    : IN transactionsWord=symbolicName inTransactionsParameter*
    | IN concurrency=expression? concurrentWord=symbolicName transactionsWord=symbolicName inTransactionsParameter*
    ;

inTransactionsParameter
    : OF batchSize=expression rowsWord=symbolicName                       # inTransactionsRows
    | ON errorWord=symbolicName errorMode=symbolicName inTransactionsRetry? # inTransactionsError
    | inTransactionsReport                                                # inTransactionsStatus
    ;

// ON ERROR RETRY [[FOR] duration SEC[OND[S]]] [THEN CONTINUE | BREAK | FAIL]. THEN alone comes first:
// `then` may also name a variable, and `RETRY THEN BREAK` is the fallback mode, not a duration.
inTransactionsRetry
    : THEN thenMode=symbolicName
    | FOR? duration=expression unitWord=symbolicName (THEN thenMode=symbolicName)?
    ;

// REPORT STATUS AS s: the status of each inner transaction, per row. REPORT and STATUS are not reserved.
inTransactionsReport
    : reportWord=symbolicName statusWord=symbolicName AS variable
    ;

// Segments may be reserved words (`apoc.create.node`): after CALL a name can only be a procedure's.
procedureName
    : (schemaName DOT)* schemaName
    ;

yieldItems
    : yieldItem (COMMA yieldItem)* where?
    ;

yieldItem
    : (symbolicName AS)? variable
    ;

// ---------------------------------------------------------------------------------------------
// Updating clauses

// INSERT (GQL, Neo4j 5) is CREATE.
createClause
    : (CREATE | INSERT) pattern
    ;

mergeClause
    : MERGE patternPart mergeAction*
    ;

mergeAction
    : ON MATCH setClause
    | ON CREATE setClause
    ;

setClause
    : SET setItem (COMMA setItem)*
    ;

setItem
    : propertyExpression EQ expression                 # setProperty
    | variable EQ expression                           # setAllProperties
    | variable PLUSEQ expression                       # setMergeProperties
    | variable nodeLabels                              # setLabels
    | atom LBRACK key=expression RBRACK EQ value=expression # setDynamicProperty
    ;

removeClause
    : REMOVE removeItem (COMMA removeItem)*
    ;

removeItem
    : variable nodeLabels                              # removeLabels
    | propertyExpression                               # removeProperty
    | atom LBRACK expression RBRACK                    # removeDynamicProperty
    ;

// NODETACH DELETE (GQL, Neo4j 5) is DELETE, said explicitly.
deleteClause
    : (DETACH | NODETACH)? DELETE expression (COMMA expression)*
    ;

// FOREACH (x IN list | updates): the updating clauses run once per element.
foreachClause
    : FOREACH LPAREN variable IN expression PIPE clause+ RPAREN
    ;

// ORDER BY, SKIP (OFFSET) and LIMIT as a clause of their own (Neo4j 5.24): `WITH *` with them.
// After WITH or RETURN the projection's own subclauses take them first.
orderSkipLimitClause
    : order skip? limit?
    | skip limit?
    | limit
    ;

// FINISH: the query ends here and returns no rows.
finishClause
    : FINISH
    ;

// LET x = e, y = f (Cypher 25): `WITH *, e AS x` then `WITH *, f AS y`, so a binding sees the ones before it.
letClause
    : LET letItem (COMMA letItem)*
    ;

letItem
    : variable EQ expression
    ;

// FILTER [WHERE] condition (Cypher 25): `WITH * WHERE condition`.
filterClause
    : FILTER WHERE? expression
    ;

// ---------------------------------------------------------------------------------------------
// Projections

withClause
    : WITH projectionBody where?
    ;

returnClause
    : RETURN projectionBody
    ;

projectionBody
    : DISTINCT? projectionItems order? skip? limit?
    ;

projectionItems
    : STAR (COMMA projectionItem)*
    | projectionItem (COMMA projectionItem)*
    ;

// Neo4j 5 lets a projection name a column after a literal keyword (`WITH 123 AS true`); the name is
// then read only in backticks (`RETURN \`true\``), as an unquoted `true` stays the literal.
projectionItem
    : expression (AS (variable | literalAlias))?
    ;

literalAlias
    : TRUE
    | FALSE
    | NULL
    ;

order
    : ORDER BY sortItem (COMMA sortItem)*
    ;

// OFFSET is GQL's word for SKIP, accepted by Neo4j 5 as a synonym.
skip
    : (SKIP_ | OFFSET) expression
    ;

limit
    : LIMIT expression
    ;

sortItem
    : expression (ASCENDING | ASC | DESCENDING | DESC)?
    ;

where
    : WHERE expression
    ;

// ---------------------------------------------------------------------------------------------
// Patterns

pattern
    : patternPart (COMMA patternPart)*
    ;

patternPart
    : (variable EQ)? (patternElement | shortestPathPattern)
    | (variable EQ)? pathSelector patternElement
    ;

// SHORTEST k, ALL SHORTEST, ANY SHORTEST, SHORTEST k GROUPS, ANY k, ALL, each with an optional PATH or
// PATHS: the words (SHORTEST, PATH, PATHS, GROUP, GROUPS) stay names elsewhere; the builder checks them.
pathSelector
    : ALL selectorWord+=symbolicName*
    | ANY count=integerLiteral? selectorWord+=symbolicName*
    | selectorWord+=symbolicName count=integerLiteral? selectorWord+=symbolicName*
    | ANY countParameter=parameter selectorWord+=symbolicName*
    | selectorWord+=symbolicName countParameter=parameter selectorWord+=symbolicName*
    ;

// shortestPath(...) and allShortestPaths(...); the builder checks the name.
shortestPathPattern
    : symbolicName LPAREN patternElement RPAREN
    ;

patternElement
    : nodePattern patternElementChain*
    | LPAREN patternElement RPAREN
    | quantifiedPath nodePattern? patternElementChain*
    | LPAREN (subpath=variable EQ)? patternElement (WHERE expression)? RPAREN
    ;

relationshipsPattern
    : nodePattern patternElementChain+
    ;

// Besides `:A:B`, a node may carry a label expression (`:A|B`, `:!A`, `:%`, `:(A&B)|C`) and, in
// MATCH, a WHERE of its own (`(n:A WHERE n.x > 1)`); the builder turns both into the MATCH's WHERE.
nodePattern
    : LPAREN variable? (nodeLabels | labelExpression)? properties? (WHERE nodeWhere=expression)? RPAREN
    | LPAREN variable? isLabelExpression properties? (WHERE nodeWhere=expression)? RPAREN
    ;

// `(n IS Person)`, `(n IS A|B)` (Neo4j 5, from GQL): IS for the colon of a label expression, in node patterns only.
isLabelExpression
    : IS labelDisjunction
    ;

labelExpression
    : COLON labelDisjunction
    ;

labelDisjunction
    : labelConjunction (PIPE COLON? labelConjunction)*
    ;

labelConjunction
    : labelNegation (AMP labelNegation)*
    ;

labelNegation
    : BANG labelNegation
    | labelAtom
    ;

labelAtom
    : labelName
    | PERCENT
    | LPAREN labelDisjunction RPAREN
    ;

patternElementChain
    : relationshipPattern pathQuantifier? nodePattern
    | quantifiedPath nodePattern
    | quantifiedPath
    ;

// `((a)-[:R]->(b)){1,3}`: a parenthesized path repeated. The builder takes the form Weft plans, one
// relationship between undecorated unnamed nodes, as a variable-length relationship; every other
// form (inner paths of more hops, group variables) is a quantified path pattern of its own. A path may
// begin or end with one, and two may adjoin (an unnamed node stands between them).
quantifiedPath
    : LPAREN nodePattern relationshipPattern nodePattern (WHERE expression)? RPAREN pathQuantifier
    | LPAREN nodePattern patternElementChain+ (WHERE expression)? RPAREN pathQuantifier
    | LPAREN nodePattern (WHERE expression)? RPAREN pathQuantifier
    ;

// `{n}`, `{n,m}`, `{n,}`, `{,m}`, `+` (one or more), `*` (zero or more).
pathQuantifier
    : LBRACE lo=integerLiteral? (COMMA hi=integerLiteral?)? RBRACE
    | PLUS
    | STAR
    ;

relationshipPattern
    : LT MINUS relationshipDetail? MINUS GT
    | LT MINUS relationshipDetail? MINUS
    | MINUS relationshipDetail? MINUS GT
    | MINUS relationshipDetail? MINUS
    ;

// A type list `:A|B` is read as relationshipTypes (the first alternative wins an ambiguity); any other
// label expression (`:!A`, `:A&B`, `:%`, groups) as a labelExpression.
relationshipDetail
    : LBRACK variable? (relationshipTypes | labelExpression)? rangeLiteral? properties? (WHERE relWhere=expression)? RBRACK
    ;

properties
    : mapLiteral
    | parameter
    ;

relationshipTypes
    : COLON relTypeName (PIPE COLON? relTypeName)*
    | COLON dynamicName
    // `-[r IS KNOWS|LIKES]->` (Neo4j 5, from GQL): IS for the colon.
    | IS relTypeName (PIPE relTypeName)*
    ;

nodeLabels
    : nodeLabel+
    ;

nodeLabel
    : COLON labelName
    | COLON dynamicName
    ;

// `$(expr)`, `$all(expr)`, `$any(expr)`: labels or a type named by the value of an expression, a
// STRING or a LIST<STRING> (Neo4j 5.26). `$any` matches an element with any of them.
dynamicName
    : DOLLAR (ALL | ANY)? LPAREN expression RPAREN
    ;

// `*`, `*2`, `*1..3`, `*..3`, `*2..`; the forms without '*' and with a sign are accepted here and
// refused by the builder with InvalidRelationshipPattern.
rangeLiteral
    : STAR rangeBound? (DOTDOT rangeBound?)?
    | DOTDOT rangeBound?
    ;

rangeBound
    : MINUS? integerLiteral
    ;

labelName
    : schemaName
    ;

relTypeName
    : schemaName
    ;

propertyExpression
    : atom propertyLookup+
    ;

// ---------------------------------------------------------------------------------------------
// Expressions, lowest precedence first

expression
    : orExpression
    ;

orExpression
    : xorExpression (OR xorExpression)*
    ;

xorExpression
    : andExpression (XOR andExpression)*
    ;

andExpression
    : notExpression (AND notExpression)*
    ;

notExpression
    : NOT* comparisonExpression
    ;

comparisonExpression
    : predicateExpression (comparisonOperator predicateExpression)*
    ;

comparisonOperator
    : EQ
    | NEQ
    | LT
    | GT
    | LTE
    | GTE
    ;

predicateExpression
    : addOrSubtractExpression predicateSuffix*
    ;

predicateSuffix
    : STARTS WITH addOrSubtractExpression              # startsWithPredicate
    | ENDS WITH addOrSubtractExpression                # endsWithPredicate
    | CONTAINS addOrSubtractExpression                 # containsPredicate
    | REGEX_MATCH addOrSubtractExpression              # regexPredicate
    | IN addOrSubtractExpression                       # inPredicate
    | IS NULL                                          # isNullPredicate
    | IS NOT NULL                                      # isNotNullPredicate
    | (IS NOT? (COLONCOLON | TYPED) | COLONCOLON) valueTypeExpression # typePredicate
    | IS NOT? normalForm=symbolicName? NORMALIZED      # normalizedPredicate
    ;

// A type in a type predicate: a closed union of alternatives. The words of a name are checked by the
// builder against the type names and their synonyms (`LOCAL DATETIME`, `TIMESTAMP WITHOUT TIME ZONE`).
valueTypeExpression
    : valueTypeAlternative (PIPE valueTypeAlternative)*
    ;

// `!` is the shorthand for NOT NULL the Neo4j 5 manual gives (`INTEGER!`, `LIST<STRING!>`). After WITH
// come `TIME ZONE` or the manual's one-word synonym `TIMEZONE` (`TIMESTAMP WITH TIMEZONE`).
valueTypeAlternative
    : valueTypeWord+ (WITH valueTypeWord valueTypeWord?)? (LT valueTypeExpression GT)? (NOT NULL | BANG)?
    ;

valueTypeWord
    : symbolicName
    | NULL
    ;

addOrSubtractExpression
    : multiplyDivideModuloExpression (addOrSubtractOperator multiplyDivideModuloExpression)*
    ;

// `||` concatenates strings and lists, at the precedence of + and -.
addOrSubtractOperator
    : PLUS
    | MINUS
    | DOUBLEBAR
    ;

multiplyDivideModuloExpression
    : powerOfExpression (multiplyDivideModuloOperator powerOfExpression)*
    ;

multiplyDivideModuloOperator
    : STAR
    | SLASH
    | PERCENT
    ;

powerOfExpression
    : unaryAddOrSubtractExpression (CARET unaryAddOrSubtractExpression)*
    ;

unaryAddOrSubtractExpression
    : (PLUS | MINUS)* nonArithmeticOperatorExpression
    ;

nonArithmeticOperatorExpression
    : atom (listOperator | propertyLookup)* (nodeLabels | labelExpression)?
    ;

listOperator
    : LBRACK expression RBRACK                         # indexOperator
    | LBRACK lo=expression? DOTDOT hi=expression? RBRACK # sliceOperator
    ;

propertyLookup
    : DOT propertyKeyName
    ;

atom
    : countStar
    | trimFromExpression
    | listComprehension
    | patternComprehension
    | quantifierExpression
    | reduceExpression
    | subqueryExpression
    | literal
    | parameter
    | caseExpression
    | relationshipsPattern
    | parenthesizedExpression
    | functionInvocation
    | mapProjection
    | variable
    ;

countStar
    : COUNT LPAREN STAR RPAREN
    ;

caseExpression
    : CASE subject=expression? caseAlternative+ (ELSE elseExpr=expression)? END
    ;

// Neo4j 5's extended simple CASE: `CASE x WHEN 1, 2 THEN ... WHEN > 5 THEN ... WHEN IS NULL THEN ...`.
// A generic CASE (no subject) takes one plain condition per WHEN; the builder checks that.
caseAlternative
    : WHEN caseWhenOperand (COMMA caseWhenOperand)* THEN expression
    ;

caseWhenOperand
    : comparisonOperator expression                    # caseComparisonOperand
    | predicateSuffix                                  # caseSuffixOperand
    | expression                                       # casePlainOperand
    ;

listComprehension
    : LBRACK filterExpression (PIPE expression)? RBRACK
    ;

patternComprehension
    : LBRACK (variable EQ)? relationshipsPattern (WHERE expression)? PIPE expression RBRACK
    ;

quantifierExpression
    : quantifier LPAREN filterExpression RPAREN
    ;

quantifier
    : ALL
    | ANY
    | NONE
    | SINGLE
    ;

filterExpression
    : variable IN expression (WHERE expression)?
    ;

reduceExpression
    : REDUCE LPAREN accumulator=variable EQ initial=expression COMMA variable IN source=expression PIPE step=expression RPAREN
    ;

// EXISTS { ... } asks whether the body has a row, COUNT { ... } how many, COLLECT { ... } the list of its one column.
subqueryExpression
    : (EXISTS | COUNT | COLLECT) LBRACE (query | pattern where?) RBRACE
    ;

parenthesizedExpression
    : LPAREN expression RPAREN
    ;

// trim([LEADING | TRAILING | BOTH] [character] FROM source); plain trim(source) is a function call.
// The function name is checked by the builder, so TRIM need not be a keyword.
trimFromExpression
    : functionName LPAREN side=(LEADING | TRAILING | BOTH)? character=expression? FROM source=expression RPAREN
    ;

// `count(ALL x)` is `count(x)`: ALL, the default, keeps duplicates as DISTINCT would not.
functionInvocation
    : functionName LPAREN (DISTINCT | ALL)? (expression (COMMA expression)*)? RPAREN
    ;

functionName
    : namespace symbolicName
    ;

namespace
    : (symbolicName DOT)*
    ;

mapProjection
    : variable LBRACE (mapProjectionItem (COMMA mapProjectionItem)*)? RBRACE
    ;

mapProjectionItem
    : propertyKeyName COLON expression                 # mapProjectionLiteral
    | DOT propertyKeyName                              # mapProjectionProperty
    | DOT STAR                                         # mapProjectionAll
    | variable                                         # mapProjectionVariable
    ;

// A parameter's name follows `$` directly, so any word may be one (`$limit`, `$end`).
parameter
    : DOLLAR (schemaName | DecimalInteger)
    ;

// ---------------------------------------------------------------------------------------------
// Literals

literal
    : booleanLiteral
    | NULL
    | numberLiteral
    | StringLiteral
    | listLiteral
    | mapLiteral
    ;

booleanLiteral
    : TRUE
    | FALSE
    ;

numberLiteral
    : integerLiteral
    | FloatLiteral
    ;

integerLiteral
    : DecimalInteger
    | HexInteger
    | OctalInteger
    ;

listLiteral
    : LBRACK (expression (COMMA expression)*)? RBRACK
    ;

mapLiteral
    : LBRACE (propertyKeyName COLON expression (COMMA propertyKeyName COLON expression)*)? RBRACE
    ;

propertyKeyName
    : schemaName
    ;

// ---------------------------------------------------------------------------------------------
// Schema commands (Weft)

schemaCommand
    : createConstraint
    | dropConstraint
    | createIndex
    | createSearchIndex
    | dropIndex
    ;

// `ON ... ASSERT` is the older spelling of `FOR ... REQUIRE`, accepted for familiarity.
createConstraint
    : CREATE CONSTRAINT symbolicName? ifNotExists? (FOR | ON) LPAREN variable nodeLabel RPAREN (REQUIRE | ASSERT) constraintRequirement where?
    ;

constraintRequirement
    : propertyReference IS UNIQUE                      # uniqueRequirement
    | propertyReferenceList IS UNIQUE                  # uniqueRequirement
    | propertyReference IS NOT NULL                    # notNullRequirement
    | propertyReference IS NODE KEY                    # nodeKeyRequirement
    | propertyReferenceList IS NODE KEY                # nodeKeyRequirement
    | propertyReference IS (COLONCOLON | TYPED) typeName # typeRequirement
    ;

propertyReference
    : variable DOT propertyKeyName
    ;

propertyReferenceList
    : LPAREN propertyReference (COMMA propertyReference)* RPAREN
    ;

typeName
    : symbolicName (LT typeName GT)? (LPAREN DecimalInteger RPAREN)?
    ;

dropConstraint
    : DROP CONSTRAINT symbolicName ifExists?
    ;

createIndex
    : CREATE UNIQUE? INDEX symbolicName? ifNotExists? indexTarget where?
    ;

indexTarget
    : FOR LPAREN variable nodeLabel RPAREN ON LPAREN propertyReference (COMMA propertyReference)* RPAREN # indexForPattern
    | ON COLON? labelName LPAREN propertyKeyName (COMMA propertyKeyName)* RPAREN                   # indexOnLabel
    ;

// `CREATE VECTOR INDEX ... ON (n.p) OPTIONS {...}` and `CREATE FULLTEXT INDEX ... ON EACH [n.p, ...]`:
// the kind, EACH and OPTIONS are plain words here (the builder checks them), so none is reserved.
createSearchIndex
    : CREATE searchKind=symbolicName INDEX indexName=symbolicName? ifNotExists? FOR LPAREN variable nodeLabel RPAREN ON each=symbolicName? searchIndexProperties indexOptions?
    ;

searchIndexProperties
    : LPAREN propertyReference (COMMA propertyReference)* RPAREN
    | LBRACK propertyReference (COMMA propertyReference)* RBRACK
    ;

indexOptions
    : symbolicName mapLiteral
    ;

dropIndex
    : DROP INDEX symbolicName ifExists?
    ;

ifNotExists
    : IF NOT EXISTS
    ;

ifExists
    : IF EXISTS
    ;

// ---------------------------------------------------------------------------------------------
// Names

// Neo4j 5 accepts keywords as variable names (`MATCH (end) RETURN end`, `WITH 1 AS asc RETURN asc`),
// where openCypher 9 reserves them. Where a keyword could start the construct it names (`CASE WHEN`,
// `RETURN DISTINCT`, `NOT x`), the parser takes the keyword first; the literals null, true and false
// stay literals.
variable
    : symbolicName
    | keywordVariable
    ;

keywordVariable
    : ALL
    | AND
    | AS
    | ASC
    | BY
    | CALL
    | CASE
    | CONTAINS
    | CREATE
    | DELETE
    | DESC
    | DETACH
    | DISTINCT
    | ELSE
    | END
    | ENDS
    | IN
    | IS
    | LIMIT
    | MATCH
    | MERGE
    | NOT
    | ON
    | OPTIONAL
    | OR
    | ORDER
    | REMOVE
    | RETURN
    | SET
    | SKIP_
    | STARTS
    | THEN
    | UNION
    | UNWIND
    | WHEN
    | WHERE
    | WITH
    | XOR
    | YIELD
    ;

// A name usable for a variable, function or procedure: every identifier plus the keywords that
// openCypher or Weft do not reserve.
symbolicName
    : UnescapedSymbolicName
    | EscapedSymbolicName
    | nonReservedKeyword
    ;

nonReservedKeyword
    : ANY
    | NONE
    | SINGLE
    | COUNT
    | COLLECT
    | EXISTS
    | REDUCE
    | CONSTRAINT
    | INDEX
    | DROP
    | FOR
    | IF
    | ASSERT
    | KEY
    | NODE
    | OF
    | REQUIRE
    | TIMESTAMP
    | TYPED
    | UNIQUE
    | USING
    | ASCENDING
    | DESCENDING
    | NORMALIZED
    | LEADING
    | TRAILING
    | BOTH
    | FROM
    | OFFSET
    | FOREACH
    | FINISH
    | LET
    | FILTER
    | NODETACH
    | INSERT
    | SHOW
    | TERMINATE
    | LOAD
    | CSV
    | HEADERS
    | FIELDTERMINATOR
    ;

// Labels, relationship types and property keys may be any word, reserved or not (`n.count`, `:End`).
schemaName
    : symbolicName
    | reservedWord
    ;

reservedWord
    : ALL
    | AND
    | AS
    | ASC
    | BY
    | CALL
    | CASE
    | CONTAINS
    | CREATE
    | DELETE
    | DESC
    | DETACH
    | DISTINCT
    | ELSE
    | END
    | ENDS
    | FALSE
    | IN
    | IS
    | LIMIT
    | MATCH
    | MERGE
    | NOT
    | NULL
    | ON
    | OPTIONAL
    | OR
    | ORDER
    | REMOVE
    | RETURN
    | SET
    | SKIP_
    | STARTS
    | THEN
    | TRUE
    | UNION
    | UNWIND
    | WHEN
    | WHERE
    | WITH
    | XOR
    | YIELD
    ;

// ---------------------------------------------------------------------------------------------
// Lexer

ALL         : 'ALL';
AND         : 'AND';
ANY         : 'ANY';
AS          : 'AS';
ASC         : 'ASC';
ASSERT      : 'ASSERT';
ASCENDING   : 'ASCENDING';
BY          : 'BY';
CALL        : 'CALL';
CASE        : 'CASE';
CONSTRAINT  : 'CONSTRAINT';
CONTAINS    : 'CONTAINS';
COUNT       : 'COUNT';
COLLECT     : 'COLLECT';
CREATE      : 'CREATE';
DELETE      : 'DELETE';
DESC        : 'DESC';
DESCENDING  : 'DESCENDING';
DETACH      : 'DETACH';
DISTINCT    : 'DISTINCT';
DROP        : 'DROP';
ELSE        : 'ELSE';
END         : 'END';
ENDS        : 'ENDS';
EXISTS      : 'EXISTS';
FALSE       : 'FALSE';
FOR         : 'FOR';
FOREACH     : 'FOREACH';
FINISH      : 'FINISH';
LET         : 'LET';
NODETACH    : 'NODETACH';
INSERT      : 'INSERT';
FILTER      : 'FILTER';
IF          : 'IF';
IN          : 'IN';
INDEX       : 'INDEX';
IS          : 'IS';
KEY         : 'KEY';
LIMIT       : 'LIMIT';
MATCH       : 'MATCH';
MERGE       : 'MERGE';
NODE        : 'NODE';
NONE        : 'NONE';
NOT         : 'NOT';
NULL        : 'NULL';
OF          : 'OF';
ON          : 'ON';
OPTIONAL    : 'OPTIONAL';
OR          : 'OR';
ORDER       : 'ORDER';
REDUCE      : 'REDUCE';
REMOVE      : 'REMOVE';
REQUIRE     : 'REQUIRE';
RETURN      : 'RETURN';
SET         : 'SET';
SINGLE      : 'SINGLE';
SHOW        : 'SHOW';
TERMINATE   : 'TERMINATE';
SKIP_       : 'SKIP';
STARTS      : 'STARTS';
THEN        : 'THEN';
TIMESTAMP   : 'TIMESTAMP';
TRUE        : 'TRUE';
TYPED       : 'TYPED';
NORMALIZED  : 'NORMALIZED';
LEADING     : 'LEADING';
TRAILING    : 'TRAILING';
BOTH        : 'BOTH';
FROM        : 'FROM';
LOAD        : 'LOAD';
CSV         : 'CSV';
HEADERS     : 'HEADERS';
FIELDTERMINATOR : 'FIELDTERMINATOR';
OFFSET      : 'OFFSET';
UNION       : 'UNION';
UNIQUE      : 'UNIQUE';
UNWIND      : 'UNWIND';
USING       : 'USING';
WHEN        : 'WHEN';
WHERE       : 'WHERE';
WITH        : 'WITH';
XOR         : 'XOR';
YIELD       : 'YIELD';

COLONCOLON  : '::';
DOTDOT      : '..';
PLUSEQ      : '+=';
REGEX_MATCH : '=~';
NEQ         : '<>';
LTE         : '<=';
GTE         : '>=';
EQ          : '=';
LT          : '<';
GT          : '>';
PLUS        : '+';
MINUS       : '-';
STAR        : '*';
SLASH       : '/';
PERCENT     : '%';
AMP         : '&';
BANG        : '!';
CARET       : '^';
DOT         : '.';
COMMA       : ',';
COLON       : ':';
SEMI        : ';';
DOUBLEBAR   : '||';
PIPE        : '|';
DOLLAR      : '$';
LPAREN      : '(';
RPAREN      : ')';
LBRACK      : '[';
RBRACK      : ']';
LBRACE      : '{';
RBRACE      : '}';

// 0x and 0o literals take every following letter and digit; the builder checks them.
HexInteger
    : '0X' [0-9A-Z_]*
    ;

OctalInteger
    : '0O' [0-9A-Z_]*
    ;

DecimalInteger
    : [0-9]+
    ;

FloatLiteral
    : [0-9]* '.' [0-9]+ ('E' [+-]? [0-9]+)?
    | [0-9]+ 'E' [+-]? [0-9]+
    ;

StringLiteral
    : '\'' (~['\\] | '\\' .)* '\''
    | '"' (~["\\] | '\\' .)* '"'
    ;

EscapedSymbolicName
    : ('`' ~'`'* '`')+
    ;

UnescapedSymbolicName
    : [\p{ID_Start}_] [\p{ID_Continue}]*
    ;

WHITESPACE
    : [ \t\r\n\u000B\u000C\u001C-\u001F\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]+ -> skip
    ;

HINT_COMMENT
    : '/*+' .*? '*/' -> channel(2)
    ;

BLOCK_COMMENT
    : '/*' .*? '*/' -> skip
    ;

LINE_COMMENT
    : '//' ~[\r\n]* -> skip
    ;
