package designer

import (
	"encoding/json"
	"maps"
	"slices"
)

// WorkbenchExtras is what an imported NoSQL Workbench model held that a design has no field for,
// each value the JSON the model wrote.
type WorkbenchExtras struct {
	// Model holds the model's top-level members other than ModelName, ModelMetadata and DataModel.
	Model map[string]json.RawMessage `json:"model,omitempty"`
	// Metadata holds the members of ModelMetadata other than AWSService and Version, such as
	// Author and the dates, and Description when it could not be the overview's business context.
	Metadata map[string]json.RawMessage `json:"metadata,omitempty"`
	// Tables holds each table's extras by table name.
	Tables map[string]WorkbenchTableExtras `json:"tables,omitempty"`
}

// WorkbenchTableExtras is what one table of a Workbench model held beyond the design's fields.
type WorkbenchTableExtras struct {
	// Members holds the table's members the design has no field for: SampleDataFormats, a
	// DataAccess other than the usual {"MySql": {}}, ProvisionedCapacitySettings without its
	// ProvisionedThroughput, and members Workbench does not define.
	Members map[string]json.RawMessage `json:"members,omitempty"`
	// Facets holds, by facet name, a facet's members other than FacetName, KeyAttributeAlias and
	// TableData; its NonKeyAttributes only when they are not the attributes its items hold.
	Facets map[string]map[string]json.RawMessage `json:"facets,omitempty"`
	// Indexes holds, by GSI name, an index's members other than IndexName, KeyAttributes and
	// Projection.
	Indexes map[string]map[string]json.RawMessage `json:"indexes,omitempty"`
	// ItemFacets names, by item id, the facet an item belongs to when its keys would not place it
	// there; "" keeps an item in the table-level TableData.
	ItemFacets map[string]string `json:"item_facets,omitempty"`
}

// Empty reports whether the table held nothing beyond the design's fields.
func (ex WorkbenchTableExtras) Empty() bool {
	return len(ex.Members) == 0 && len(ex.Facets) == 0 && len(ex.Indexes) == 0 && len(ex.ItemFacets) == 0
}

// renamedTable is x with table old's extras kept under the name to; x itself is not changed.
func (x *WorkbenchExtras) renamedTable(old, to string) *WorkbenchExtras {
	if x == nil {
		return nil
	}
	ex, ok := x.Tables[old]
	if !ok {
		return x
	}
	y := *x
	y.Tables = maps.Clone(x.Tables)
	delete(y.Tables, old)
	y.Tables[to] = ex
	return &y
}

// editedTables is x with edit applied to a copy of each table's extras; x itself is not changed.
func (x *WorkbenchExtras) editedTables(edit func(table string, ex *WorkbenchTableExtras) bool) *WorkbenchExtras {
	if x == nil {
		return nil
	}
	var tables map[string]WorkbenchTableExtras
	for name, ex := range x.Tables {
		if edit(name, &ex) {
			if tables == nil {
				tables = maps.Clone(x.Tables)
			}
			tables[name] = ex
		}
	}
	if tables == nil {
		return x
	}
	y := *x
	y.Tables = tables
	return &y
}

// renamedKey is m with the value under old moved to to, as a copy; ok is false when m has none.
func renamedKey[V any](m map[string]V, old, to string) (map[string]V, bool) {
	v, ok := m[old]
	if !ok {
		return m, false
	}
	m = maps.Clone(m)
	delete(m, old)
	m[to] = v
	return m, true
}

// renamedIndex keeps the extras of index old of table as to's.
func (x *WorkbenchExtras) renamedIndex(table, old, to string) *WorkbenchExtras {
	return x.editedTables(func(name string, ex *WorkbenchTableExtras) bool {
		if name != table {
			return false
		}
		var ok bool
		ex.Indexes, ok = renamedKey(ex.Indexes, old, to)
		return ok
	})
}

// renamedEntity keeps the facets of entity old, and the items placed in them, as to's: in table,
// or in every table when table is "".
func (x *WorkbenchExtras) renamedEntity(table, old, to string) *WorkbenchExtras {
	return x.editedTables(func(name string, ex *WorkbenchTableExtras) bool {
		if table != "" && name != table {
			return false
		}
		var changed bool
		ex.Facets, changed = renamedKey(ex.Facets, old, to)
		if slices.Contains(slices.Collect(maps.Values(ex.ItemFacets)), old) {
			placed := make(map[string]string, len(ex.ItemFacets))
			for id, facet := range ex.ItemFacets {
				if facet == old {
					facet = to
				}
				placed[id] = facet
			}
			ex.ItemFacets, changed = placed, true
		}
		return changed
	})
}
