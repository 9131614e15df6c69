package designer

import (
	"slices"
	"strconv"
	"strings"
)

// Path names a part of a design, as changes report what they touch (Change.Paths) and findings
// what they are about: "" is the whole design, "access_patterns" the list of patterns,
// "access_patterns/ap4" one pattern and "access_patterns/ap4/peak_rps" one of its fields. A
// table's items and indexes lie inside the table ("tables/Orders/items/i3/status",
// "tables/Orders/indexes/ByStatus/purpose"), and the comments on an element inside it
// ("tables/Orders/comments"). An entity's, a table's or an index's name may hold a slash; Parts
// tells where it ends from the names of the designs it is given.
//
// The builders below are the one place paths are spelled; Parts is the one place they are read.
type Path string

// The collections a path starts with: the design's top-level members.
const (
	PathName           = "name"
	PathOverview       = "overview"
	PathEntities       = "entities"
	PathRelationships  = "relationships"
	PathPatterns       = "access_patterns"
	PathAggregates     = "aggregates"
	PathConsolidations = "consolidations"
	PathConsiderations = "considerations"
	PathProse          = "prose"
	PathCapacity       = "capacity"
	PathTables         = "tables"
	PathDiagrams       = "diagrams"
)

// The parts inside a row that are rows themselves (PathParts.Sub).
const (
	SubItems       = "items"
	SubIndexes     = "indexes"
	SubEntityTypes = "entity_types"
	SubOperations  = "operations"
)

const commentsSegment = "comments"

// Child is the path of member name of the part at p; p itself when name is empty, so that a
// builder given no field names the row.
func (p Path) Child(name string) Path {
	switch {
	case name == "":
		return p
	case p == "":
		return Path(name)
	}
	return p + "/" + Path(name)
}

// row is the path of the row key of collection, or its field when field is not empty.
func row(collection, key, field string) Path { return Path(collection).Child(key).Child(field) }

// PatternPath is the path of the access pattern with id, or of its field when field is not empty.
func PatternPath(id, field string) Path { return row(PathPatterns, id, field) }

// MappingPath is the path of the mapping of the access pattern with id: its operations and notes,
// which the Mapping step edits, apart from the pattern's own fields.
func MappingPath(pattern string) Path { return PatternPath(pattern, "mapping") }

// OperationPath is the path of field of operation n of pattern's mapping.
func OperationPath(pattern string, n int, field string) Path {
	return MappingPath(pattern).Child(SubOperations + "/" + strconv.Itoa(n)).Child(field)
}

// EntityPath is the path of the entity named name, or of its field when field is not empty.
func EntityPath(name, field string) Path { return row(PathEntities, strings.TrimSpace(name), field) }

// RelationshipPath is the path of the relationship with id, or of its field.
func RelationshipPath(id, field string) Path { return row(PathRelationships, id, field) }

// AggregatePath is the path of the aggregate analysis with id, or of its field.
func AggregatePath(id, field string) Path { return row(PathAggregates, id, field) }

// ConsolidationPath is the path of the consolidation review with id, or of its field.
func ConsolidationPath(id, field string) Path { return row(PathConsolidations, id, field) }

// OverviewPath, ConsiderationPath, ProsePath and CapacityPath are the paths of a field of the
// overview, the design considerations, the data model's prose and the capacity settings.
func OverviewPath(field string) Path      { return Path(PathOverview).Child(field) }
func ConsiderationPath(field string) Path { return Path(PathConsiderations).Child(field) }
func ProsePath(field string) Path         { return Path(PathProse).Child(field) }
func CapacityPath(field string) Path      { return Path(PathCapacity).Child(field) }

// TablePath is the path of the table named name.
func TablePath(name string) Path { return Path(PathTables).Child(strings.TrimSpace(name)) }

// ItemsPath is the path of the sample items of table.
func ItemsPath(table string) Path { return TablePath(table).Child(SubItems) }

// ItemPath is the path of the sample item with id in table, or of its attribute attr.
func ItemPath(table, id, attr string) Path {
	return ItemsPath(table).Child(id).Child(strings.TrimSpace(attr))
}

// IndexPath is the path of the index of table named index, or of its field.
func IndexPath(table, index, field string) Path {
	return TablePath(table).Child(SubIndexes).Child(strings.TrimSpace(index)).Child(field)
}

// DiagramPath is the path of diagram kind, or of the position of its node when node is not empty.
func DiagramPath(kind, node string) Path { return row(PathDiagrams, kind, node) }

// CommentsPath is the path of the comments on the element at target.
func CommentsPath(target Path) Path { return target.Child(commentsSegment) }

// PathParts is a path cut into what it names. Collection is the top-level member ("" for the
// whole design); Key the row in it: a pattern's, relationship's, aggregate's or consolidation's
// id, an entity's or table's name, a diagram's kind. Sub and SubKey name a row inside that row:
// a table's item by id, index by name or entity type by number, a pattern's operation by number;
// SubKey alone is a diagram's node. Field is the member of the row, of the sub-row or of a
// top-level member without rows (the overview, the considerations), with anything below it
// ("mapping/notes", or an item's attribute). Comments is set for the comments on the element the
// other parts name.
type PathParts struct {
	Collection, Key, Sub, SubKey, Field string
	Comments                            bool
}

// Parts cuts p into what it names. An entity's, table's or index's name that holds a slash is
// found among the names of the known designs (the longest that fits); a name no design knows
// ends at the first slash.
func (p Path) Parts(known ...Design) PathParts {
	pp := p.parts(known)
	if t := pp; t.Field == commentsSegment {
		// "comments" read as a field of an element comments are about is its comments.
		if t.Field = ""; t.commentable() {
			t.Comments = true
			return t
		}
	}
	return pp
}

// parts is Parts without the comments.
func (p Path) parts(known []Design) PathParts {
	s := string(p)
	var pp PathParts
	pp.Collection, s, _ = strings.Cut(s, "/")
	switch pp.Collection {
	case PathName, PathOverview, PathConsiderations, PathProse, PathCapacity:
		pp.Field = s
	case PathEntities:
		var names []string
		for _, d := range known {
			for _, e := range d.Entities {
				names = append(names, e.Name)
			}
		}
		pp.Key, pp.Field = cutName(s, names)
	case PathTables:
		var names []string
		for _, d := range known {
			for _, t := range d.Tables {
				names = append(names, t.Name)
			}
		}
		pp.Key, s = cutName(s, names)
		pp.tableParts(s, known)
	case PathPatterns:
		pp.Key, s, _ = strings.Cut(s, "/")
		if op, ok := strings.CutPrefix(s, "mapping/"+SubOperations+"/"); ok {
			pp.Sub = SubOperations
			pp.SubKey, pp.Field, _ = strings.Cut(op, "/")
		} else {
			pp.Field = s
		}
	case PathDiagrams:
		// A node id may hold a slash ("index:Orders/ByStatus"): it is all that follows the kind.
		pp.Key, pp.SubKey, _ = strings.Cut(s, "/")
	default:
		// Row ids never hold a slash: what follows the id is a field of the row.
		pp.Key, pp.Field, _ = strings.Cut(s, "/")
	}
	return pp
}

// tableParts reads what follows a table's name in a path.
func (pp *PathParts) tableParts(s string, known []Design) {
	sub, rest, _ := strings.Cut(s, "/")
	switch sub {
	case SubItems, SubEntityTypes:
		// Item ids never hold a slash; an attribute's name is the rest.
		pp.Sub = sub
		pp.SubKey, pp.Field, _ = strings.Cut(rest, "/")
	case SubIndexes:
		pp.Sub = sub
		var names []string
		for _, d := range known {
			if t, _, ok := d.TableByName(pp.Key); ok {
				for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
					names = append(names, ix.Name)
				}
			}
		}
		pp.SubKey, pp.Field = cutName(rest, names)
	default:
		pp.Field = s
	}
}

// commentable reports whether pp names an element comments are about: a pattern, a table, an
// index or a sample item.
func (pp PathParts) commentable() bool {
	switch {
	case pp.Key == "" || pp.Field != "":
		return false
	case pp.Collection == PathPatterns:
		return pp.Sub == ""
	case pp.Collection == PathTables:
		return pp.Sub == "" || (pp.Sub == SubItems || pp.Sub == SubIndexes) && pp.SubKey != ""
	}
	return false
}

// Member is the design-json member of the row (or sub-row, or top-level member) that pp's field
// lies in: "mapping" for "mapping/notes", the attribute of an item.
func (pp PathParts) Member() string {
	if pp.Collection == PathPatterns && pp.Sub == SubOperations {
		return "mapping"
	}
	if pp.Collection == PathTables && pp.Sub == SubItems {
		return pp.Field
	}
	m, _, _ := strings.Cut(pp.Field, "/")
	return m
}

// cutName cuts "name/more" where name may hold a slash: the longest of names that s is or starts
// with, followed by a slash; without one, everything up to the first slash.
func cutName(s string, names []string) (name, more string) {
	best := -1
	for _, n := range names {
		if n != "" && len(n) > best && (s == n || strings.HasPrefix(s, n+"/")) {
			best = len(n)
		}
	}
	if best < 0 {
		name, more, _ = strings.Cut(s, "/")
		return name, more
	}
	return s[:best], strings.TrimPrefix(s[best:], "/")
}

// In reports whether p is q or lies inside it, by whole segments: "access_patterns/ap1/peak_rps"
// is in "access_patterns/ap1" but not in "access_patterns/ap10". Every path is in "", the whole
// design.
func (p Path) In(q Path) bool {
	return q == "" || p == q || strings.HasPrefix(string(p), string(q)) && p[len(q)] == '/'
}

// PathsOverlap reports whether two changes touch a common part of a design, given their Paths: a
// path meets another that equals it or lies inside it ("access_patterns/ap1" meets
// "access_patterns/ap1/description" but not "access_patterns/ap10"). The empty path is the whole
// design (ReplaceDesign), which meets every path.
func PathsOverlap(a, b []Path) bool {
	return slices.ContainsFunc(a, func(p Path) bool {
		return slices.ContainsFunc(b, func(q Path) bool { return pathsMeet(p, q) })
	})
}

func pathsMeet(p, q Path) bool { return p.In(q) || q.In(p) }
