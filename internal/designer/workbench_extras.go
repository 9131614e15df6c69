package designer

import "encoding/json"

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
