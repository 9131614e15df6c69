package tabledef

import (
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
)

// LogicalIDs derives an infrastructure id from each table name, as CloudFormation's logical ids and
// CDK's construct ids: the name's letters and digits in CamelCase followed by "Table", unique among
// the tables, the same for the same tables ("order-items" is OrderItemsTable, a second one
// OrderItemsTable2).
func LogicalIDs(tables []designer.Table) []string {
	const maxBase = 240 // leaves room for "Table" and a counter within CloudFormation's 255
	ids := make([]string, len(tables))
	used := make(map[string]bool, len(tables))
	for i, t := range tables {
		var b strings.Builder
		upper := true
		for _, r := range t.Name {
			isAlnum := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
			switch {
			case !isAlnum:
				upper = true
			case b.Len() >= maxBase:
			case upper:
				b.WriteRune(unicode.ToUpper(r))
				upper = false
			default:
				b.WriteRune(r)
			}
		}
		base := b.String() + "Table"
		id := base
		for n := 2; used[id]; n++ {
			id = base + strconv.Itoa(n)
		}
		used[id] = true
		ids[i] = id
	}
	return ids
}

// SetClasses gives each definition its table's class, for the formats that write one (the MCP
// model has none); a class DynamoDB does not have is a *ValidationError naming the table's field.
func SetClasses(d designer.Design, defs []Table) error {
	for i, t := range d.Tables {
		if err := designer.OneOf("tables/"+strconv.Itoa(i)+"/table_class", t.TableClass, "", designer.StandardClass, designer.StandardIAClass); err != nil {
			return err
		}
		defs[i].TableClass = t.TableClass
	}
	return nil
}
