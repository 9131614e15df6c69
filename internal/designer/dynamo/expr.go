package dynamo

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// DynamoDB condition expressions (KeyConditionExpression, FilterExpression) and projection
// expressions: this file lexes them, expr_parse.go parses them and expr_eval.go evaluates them. The
// grammar and the order in which mistakes are reported follow dynalite's conditionParser.pegjs and
// projectionParser.pegjs, which were written against real DynamoDB answers (dynamodb-semantics
// §3.4):
//
//	Or     = And [OR Or]
//	And    = Not [AND And]
//	Not    = NOT Parens | Parens
//	Parens = "((" Or "))" | Condition | "(" Or ")"
//	Condition = Operand comparator Operand | Operand BETWEEN Operand AND Operand
//	          | Operand IN "(" Operand {"," Operand} ")" | Function
//	Operand   = Function | :value | path     (each may be wrapped in one pair of parentheses)
//
// so NOT binds tighter than AND, and AND tighter than OR. A whole expression is parsed before any
// semantic mistake is reported; when there are several, the one DynamoDB reports first wins:
// redundant parentheses, unknown function, misused function, reserved word, then the first
// undefined placeholder, wrong operand count, identical operands, wrong operand type.

// MaxExpressionDepth bounds nesting so that a hostile expression cannot exhaust the stack.
const MaxExpressionDepth = 200

// maxExpressionBytes is DynamoDB's limit on the length of one expression string (4 KB). A request
// is held to it before its expressions are parsed: beyond keeping to DynamoDB's rules it bounds
// the parser's memo, which grows with the tokens, for a request body of megabytes. Expressions
// stored in a design are bounded by the design's own field limits.
const maxExpressionBytes = 4096

// expressionTooLong is the message for an expression past maxExpressionBytes, or "".
func expressionTooLong(src string) string {
	if len(src) <= maxExpressionBytes {
		return ""
	}
	return "Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(len(src)) + " bytes, at most 4096"
}

// errTooDeep ends the whole parse: once any alternative nests past maxExpressionDepth the answer
// no longer depends on which alternative got there, nor on what the memo already held.
var errTooDeep = &exprSyntaxError{"Syntax error; the expression is nested too deeply"}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokIdent
	tokName  // #name
	tokValue // :value
	tokDigits
	tokPunct // ( ) [ ] , .
	tokComparator
	tokAnd
	tokOr
	tokNot
	tokBetween
	tokIn
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// exprSyntaxError is a malformed expression; its text follows DynamoDB's
// `Syntax error; token: "x", near: "a x b"`.
type exprSyntaxError struct{ msg string }

func (e *exprSyntaxError) Error() string { return e.msg }

func lexExpression(s string) ([]token, error) { return lexTokens(s, "()[],.") }

// lexTokens lexes s with punct as its punctuation: an update expression adds "+" and "-".
func lexTokens(s, punct string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case isLetter(c) || c == '_':
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			word := s[i:j]
			kind := tokIdent
			switch strings.ToUpper(word) {
			case "AND":
				kind = tokAnd
			case "OR":
				kind = tokOr
			case "NOT":
				kind = tokNot
			case "BETWEEN":
				kind = tokBetween
			case "IN":
				kind = tokIn
			}
			toks = append(toks, token{kind, word, i})
			i = j
		case c == '#' || c == ':':
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			kind := tokName
			if c == ':' {
				kind = tokValue
			}
			toks = append(toks, token{kind, s[i:j], i})
			i = j
		case designer.IsDigit(c):
			j := i + 1
			for j < len(s) && designer.IsDigit(s[j]) {
				j++
			}
			toks = append(toks, token{tokDigits, s[i:j], i})
			i = j
		case strings.IndexByte(punct, c) >= 0:
			toks = append(toks, token{tokPunct, s[i : i+1], i})
			i++
		case c == '<' || c == '>' || c == '=':
			op := s[i : i+1]
			if i+1 < len(s) && (c == '<' && (s[i+1] == '=' || s[i+1] == '>') || c == '>' && s[i+1] == '=') {
				op = s[i : i+2]
			}
			toks = append(toks, token{tokComparator, op, i})
			i += len(op)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			return nil, syntaxErrorAt(s, s[i:i+n], i)
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(s)}), nil
}

func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentPart(c byte) bool { return isLetter(c) || designer.IsDigit(c) || c == '_' }

func syntaxErrorAt(s, tok string, pos int) error {
	if tok == "" {
		tok = "<EOF>"
	}
	start := max(pos-10, 0)
	end := min(pos+10, len(s))
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return &exprSyntaxError{"Syntax error; token: \"" + tok + "\", near: \"" + s[start:end] + "\""}
}

// reservedWords are DynamoDB's reserved words (ReservedWords.html, as dynalite lists them); one used
// bare as an attribute name in an expression is refused.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(reservedWordList) {
		m[w] = true
	}
	return m
}()

func isReservedWord(name string) bool { return reservedWords[strings.ToUpper(name)] }

const reservedWordList = "" +
	"ABORT ABSOLUTE ACTION ADD AFTER AGENT AGGREGATE ALL ALLOCATE ALTER ANALYZE AND ANY ARCHIVE ARE " +
	"ARRAY AS ASC ASCII ASENSITIVE ASSERTION ASYMMETRIC AT ATOMIC ATTACH ATTRIBUTE AUTH AUTHORIZATION " +
	"AUTHORIZE AUTO AVG BACK BACKUP BASE BATCH BEFORE BEGIN BETWEEN BIGINT BINARY BIT BLOB BLOCK " +
	"BOOLEAN BOTH BREADTH BUCKET BULK BY BYTE CALL CALLED CALLING CAPACITY CASCADE CASCADED CASE CAST " +
	"CATALOG CHAR CHARACTER CHECK CLASS CLOB CLOSE CLUSTER CLUSTERED CLUSTERING CLUSTERS COALESCE " +
	"COLLATE COLLATION COLLECTION COLUMN COLUMNS COMBINE COMMENT COMMIT COMPACT COMPILE COMPRESS " +
	"CONDITION CONFLICT CONNECT CONNECTION CONSISTENCY CONSISTENT CONSTRAINT CONSTRAINTS CONSTRUCTOR " +
	"CONSUMED CONTINUE CONVERT COPY CORRESPONDING COUNT COUNTER CREATE CROSS CUBE CURRENT CURSOR " +
	"CYCLE DATA DATABASE DATE DATETIME DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFERRABLE DEFERRED " +
	"DEFINE DEFINED DEFINITION DELETE DELIMITED DEPTH DEREF DESC DESCRIBE DESCRIPTOR DETACH " +
	"DETERMINISTIC DIAGNOSTICS DIRECTORIES DISABLE DISCONNECT DISTINCT DISTRIBUTE DO DOMAIN DOUBLE " +
	"DROP DUMP DURATION DYNAMIC EACH ELEMENT ELSE ELSEIF EMPTY ENABLE END EQUAL EQUALS ERROR ESCAPE " +
	"ESCAPED EVAL EVALUATE EXCEEDED EXCEPT EXCEPTION EXCEPTIONS EXCLUSIVE EXEC EXECUTE EXISTS EXIT " +
	"EXPLAIN EXPLODE EXPORT EXPRESSION EXTENDED EXTERNAL EXTRACT FAIL FALSE FAMILY FETCH FIELDS FILE " +
	"FILTER FILTERING FINAL FINISH FIRST FIXED FLATTERN FLOAT FOR FORCE FOREIGN FORMAT FORWARD FOUND " +
	"FREE FROM FULL FUNCTION FUNCTIONS GENERAL GENERATE GET GLOB GLOBAL GO GOTO GRANT GREATER GROUP " +
	"GROUPING HANDLER HASH HAVE HAVING HEAP HIDDEN HOLD HOUR IDENTIFIED IDENTITY IF IGNORE IMMEDIATE " +
	"IMPORT IN INCLUDING INCLUSIVE INCREMENT INCREMENTAL INDEX INDEXED INDEXES INDICATOR INFINITE " +
	"INITIALLY INLINE INNER INNTER INOUT INPUT INSENSITIVE INSERT INSTEAD INT INTEGER INTERSECT " +
	"INTERVAL INTO INVALIDATE IS ISOLATION ITEM ITEMS ITERATE JOIN KEY KEYS LAG LANGUAGE LARGE LAST " +
	"LATERAL LEAD LEADING LEAVE LEFT LENGTH LESS LEVEL LIKE LIMIT LIMITED LINES LIST LOAD LOCAL " +
	"LOCALTIME LOCALTIMESTAMP LOCATION LOCATOR LOCK LOCKS LOG LOGED LONG LOOP LOWER MAP MATCH " +
	"MATERIALIZED MAX MAXLEN MEMBER MERGE METHOD METRICS MIN MINUS MINUTE MISSING MOD MODE MODIFIES " +
	"MODIFY MODULE MONTH MULTI MULTISET NAME NAMES NATIONAL NATURAL NCHAR NCLOB NEW NEXT NO NONE NOT " +
	"NULL NULLIF NUMBER NUMERIC OBJECT OF OFFLINE OFFSET OLD ON ONLINE ONLY OPAQUE OPEN OPERATOR " +
	"OPTION OR ORDER ORDINALITY OTHER OTHERS OUT OUTER OUTPUT OVER OVERLAPS OVERRIDE OWNER PAD " +
	"PARALLEL PARAMETER PARAMETERS PARTIAL PARTITION PARTITIONED PARTITIONS PATH PERCENT PERCENTILE " +
	"PERMISSION PERMISSIONS PIPE PIPELINED PLAN POOL POSITION PRECISION PREPARE PRESERVE PRIMARY " +
	"PRIOR PRIVATE PRIVILEGES PROCEDURE PROCESSED PROJECT PROJECTION PROPERTY PROVISIONING PUBLIC PUT " +
	"QUERY QUIT QUORUM RAISE RANDOM RANGE RANK RAW READ READS REAL REBUILD RECORD RECURSIVE REDUCE " +
	"REF REFERENCE REFERENCES REFERENCING REGEXP REGION REINDEX RELATIVE RELEASE REMAINDER RENAME " +
	"REPEAT REPLACE REQUEST RESET RESIGNAL RESOURCE RESPONSE RESTORE RESTRICT RESULT RETURN RETURNING " +
	"RETURNS REVERSE REVOKE RIGHT ROLE ROLES ROLLBACK ROLLUP ROUTINE ROW ROWS RULE RULES SAMPLE " +
	"SATISFIES SAVE SAVEPOINT SCAN SCHEMA SCOPE SCROLL SEARCH SECOND SECTION SEGMENT SEGMENTS SELECT " +
	"SELF SEMI SENSITIVE SEPARATE SEQUENCE SERIALIZABLE SESSION SET SETS SHARD SHARE SHARED SHORT " +
	"SHOW SIGNAL SIMILAR SIZE SKEWED SMALLINT SNAPSHOT SOME SOURCE SPACE SPACES SPARSE SPECIFIC " +
	"SPECIFICTYPE SPLIT SQL SQLCODE SQLERROR SQLEXCEPTION SQLSTATE SQLWARNING START STATE STATIC " +
	"STATUS STORAGE STORE STORED STREAM STRING STRUCT STYLE SUB SUBMULTISET SUBPARTITION SUBSTRING " +
	"SUBTYPE SUM SUPER SYMMETRIC SYNONYM SYSTEM TABLE TABLESAMPLE TEMP TEMPORARY TERMINATED TEXT THAN " +
	"THEN THROUGHPUT TIME TIMESTAMP TIMEZONE TINYINT TO TOKEN TOTAL TOUCH TRAILING TRANSACTION " +
	"TRANSFORM TRANSLATE TRANSLATION TREAT TRIGGER TRIM TRUE TRUNCATE TTL TUPLE TYPE UNDER UNDO UNION " +
	"UNIQUE UNIT UNKNOWN UNLOGGED UNNEST UNPROCESSED UNSIGNED UNTIL UPDATE UPPER URL USAGE USE USER " +
	"USERS USING UUID VACUUM VALUE VALUED VALUES VARCHAR VARIABLE VARIANCE VARINT VARYING VIEW VIEWS " +
	"VIRTUAL VOID WAIT WHEN WHENEVER WHERE WHILE WINDOW WITH WITHIN WITHOUT WORK WRAPPED WRITE YEAR " +
	"ZONE"
