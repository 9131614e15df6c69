package capacity

// Where a figure came from (the From fields): the view says which figure is measured and which is
// the team's estimate.
const (
	// FromSamples: evaluated against the design's sample items.
	FromSamples = "sample items"
	// FromRequirement: the pattern's result bound or item size band, the sample items being too few.
	FromRequirement = "requirement (result bound / size band)"
	// FromDesign: stated in the design (an RPS, an entity count, a setting).
	FromDesign = "design"
	// FromDefault: neither measured nor stated; the default the field documents.
	FromDefault = "default"
	// FromClauses: estimated from a write's clauses (its update, its values) and what the sample
	// items of its entities hold, the write not running on the sample items.
	FromClauses = "write clauses (estimated)"
)

// Report is the capacity and cost of one design.
type Report struct {
	Prices   Prices
	Settings Settings
	// Patterns are the access patterns in the design's order.
	Patterns []PatternLoad
	// Resources are the tables in the design's order, each followed by its GSIs, then its LSIs.
	Resources []Resource
	Total     Total
	// Keys is HotKeys of the report, worked out once with it by Compute and ComputeFrom; nil in a
	// report put together otherwise. KeysOf reads it.
	Keys []KeyLoad
	// Classes compare, for each table, its month in either table class.
	Classes []ClassChoice
}

// Throughput is a load in units per second.
type Throughput struct {
	RCU, WCU float64
}

// PatternLoad is what one access pattern costs.
type PatternLoad struct {
	ID          string
	Number      int
	Description string
	Type        string // designer.Read or designer.Write, or "" when not stated
	// PeakRPS and AvgRPS are the pattern's rates; a missing average is the peak, a missing peak the
	// average, and with neither both are 0 (From says which).
	PeakRPS, AvgRPS float64
	PeakFrom        string // FromDesign or FromDefault
	AvgFrom         string // FromDesign or FromDefault
	// FailurePct is how many attempts of its writes fail their condition per 100 that succeed
	// (the RPS); each failed one is billed on its table as the write is, and writes no index.
	FailurePct float64
	Operations []OperationLoad
	// Peak and Average are the units per second the pattern's operations take, every table and
	// index together (index writes included).
	Peak, Average Throughput
}

// OperationLoad is what one request of one operation of a pattern reads and writes.
type OperationLoad struct {
	// Position is the operation's place in the pattern's mapping, from 0.
	Position int
	Op       string
	Table    string
	Index    string // "" for the base table
	// ItemsRead counts the items (or index entries) the request reads, which it pays for;
	// ItemsReturned those it returns after its filter. Writes count the items written.
	ItemsRead, ItemsReturned float64
	ItemsFrom                string // FromSamples, FromRequirement or FromDefault
	// ItemBytes is the average size of an item (or index entry) read or written; BytesRead the
	// bytes a read pays for (summed before rounding for a Query or Scan, each item rounded for a
	// GetItem or batch).
	ItemBytes float64
	BytesRead float64
	SizeFrom  string // FromSamples, FromRequirement or FromDefault
	// Consistency is designer.Strong, designer.Eventual or "transactional" (2×).
	Consistency string
	// ReadUnits and WriteUnits are the request units one request takes on its table (or, for a
	// read of a GSI, on the index).
	ReadUnits, WriteUnits float64
	// FailedWriteUnits are the write units the pattern's failed conditions add to one request:
	// WriteUnits × FailurePct / 100.
	FailedWriteUnits float64
	// IndexWrites are the writes one request causes in each index of its table.
	IndexWrites []IndexWriteLoad
	// Note says what could not be counted, or which default was used, in the room's words.
	Note string
}

// Transactional is OperationLoad.Consistency of a TransactGetItems or TransactWriteItems.
const Transactional = "transactional"

// IndexWriteLoad is what one write request costs one index: its entries put or deleted and the
// write units they take (each rounded up to 1 KB of its entry).
type IndexWriteLoad struct {
	Index  string
	Writes float64
	Units  float64
	// KeyChange says the write changes the entry's index key: a delete and a put, 2 writes, which
	// the MCP server's calculator counts as one.
	KeyChange bool
	// Reason says why the write writes the index, in the room's words ("status is projected into
	// ByVet").
	Reason string
	// WritesFrom is FromSamples or FromClauses; SizeFrom where the entry size came from
	// (FromSamples, FromRequirement or FromDefault).
	WritesFrom, SizeFrom string
}

// Resource is one table or index: its load, its cost in either capacity mode and its storage.
type Resource struct {
	Table string
	Index string // "" for the base table
	Kind  string // KindTable, KindGSI or KindLSI
	// Class is the table's class (designer.StandardClass or designer.StandardIAClass), which its
	// indexes take; Prices are the prices it pays in that class.
	Class  string
	Prices Prices
	// Peak and Average are the read and write units per second charged to this resource. An LSI's
	// reads and writes are charged to its table (DynamoDB bills them there), so an LSI's are 0 and
	// its Load still lists the patterns that read it.
	Peak, Average Throughput
	OnDemand      Cost
	Provisioned   ProvisionedCost
	// Cheaper is OnDemandMode or ProvisionedMode, the mode whose monthly cost is lower.
	Cheaper string
	// BreakEven is the utilisation (average load over provisioned capacity, 0–1) at which both
	// modes cost the same: above it provisioned is cheaper. 0 when there is no load.
	BreakEven float64
	Storage   Storage
	// Load lists the patterns whose operations load this resource, in the design's order.
	Load []PatternShare
	// HotKey is the load on the hottest value of its partition key; nil until computed.
	HotKey *HotKey
}

// Kinds of Resource.
const (
	KindTable = "table"
	KindGSI   = "gsi"
	KindLSI   = "lsi"
)

// Capacity modes (Resource.Cheaper).
const (
	OnDemandMode    = "on-demand"
	ProvisionedMode = "provisioned"
)

// Cost is a monthly cost in dollars.
type Cost struct {
	Reads, Writes float64
	// IndexWrites are the writes a GSI takes because its table was written (on the GSI's own
	// resource); on a table, those to its LSIs.
	IndexWrites float64
	Storage     float64
	// Replication is what the Global Table's replicas add: every write (index writes included)
	// again in each replica region, as replicated write units at the write price, and the
	// storage again in each.
	Replication float64
	// Total is the month at every pattern's average RPS; AtPeak the same month with every pattern
	// at its peak RPS around the clock, the "peak-sustained" headline of the MCP server's and the
	// Agent Toolkit's calculators. Both include storage.
	Total  float64
	AtPeak float64
}

// ProvisionedCost is the monthly cost of provisioning for the peak at the target utilisation.
type ProvisionedCost struct {
	// RCU and WCU are the units provisioned: peak / target utilisation, rounded up, at least 1.
	RCU, WCU int64
	Reads    float64
	Writes   float64
	Storage  float64
	// Replication is the replicas' provisioned write units (rWCU) and storage.
	Replication float64
	Total       float64
}

// Storage is what a table or index holds.
type Storage struct {
	// Items is the number of items (or index entries); ItemsFrom says where it came from: the
	// entity counts of the design, or the sample items when no entity stored here has a count.
	Items     float64
	ItemsFrom string
	// AvgItemBytes is the measured average size of an item (or index entry) in the sample items.
	AvgItemBytes float64
	// Bytes is Items × (AvgItemBytes + 100); GB the same in binary gigabytes.
	Bytes float64
	GB    float64
	// Sources say how each counted entity's items were worked out, at HorizonMonths from now
	// ("1,792,000 appointments (derived: …)"); none when the items are the sample items.
	Sources       []string
	HorizonMonths float64
}

// PatternShare is the load one pattern puts on a resource at its peak.
type PatternShare struct {
	Pattern string // id
	Number  int
	RCU     float64
	WCU     float64
}

// HotKey is the load on the hottest value of a resource's partition key, against the partition
// limits (PartitionReadLimit, PartitionWriteLimit).
type HotKey struct {
	// Attribute names the partition key (a multi-attribute GSI key's names joined by " + ").
	Attribute string
	// Distinct is the number of distinct values the key takes; DistinctFrom says how it was
	// worked out (an entity count, a relationship, a literal in the key template…).
	Distinct     float64
	DistinctFrom string
	// Skew is the hot-key skew used (Settings.HotKeySkew); Model the hot-key model.
	Skew  float64
	Model HotModel
	// RCU and WCU are the units per second at peak on the hottest value:
	// the resource's peak × min(1, Skew / Distinct).
	RCU, WCU float64
	// ReadLimit and WriteLimit are PartitionReadLimit and PartitionWriteLimit.
	ReadLimit, WriteLimit float64
}

// Total sums every resource.
type Total struct {
	Peak, Average Throughput
	OnDemand      Cost
	Provisioned   ProvisionedCost
	// Cheapest is the monthly cost with each resource in its cheaper mode.
	Cheapest float64
	Storage  Storage
	// Reserved is the provisioned month with the reserved capacity of Settings.Reserved; nil
	// without one.
	Reserved *ReservedCost
}

// ReservedCost is the provisioned month of the design with reserved capacity bought in blocks of
// ReservedBlock for the provisioned units of its Standard tables (not those of Standard-IA tables,
// nor a Global Table's replicated writes, which AWS does not reserve).
type ReservedCost struct {
	Term string
	// RCUBlocks and WCUBlocks are the blocks of 100 bought: as many whole blocks as the units fill,
	// and one more when the units left over cost more at the hourly price than a block.
	RCUBlocks, WCUBlocks int64
	// Upfront is paid once for the term; Monthly is the blocks' hourly price for a month plus the
	// upfront spread over the term's months.
	Upfront, Monthly float64
	// Unreserved is the month of the units the blocks do not cover, at the unit-hour prices.
	Unreserved float64
	// Total is the provisioned month with the reservation: Monthly + Unreserved + the storage and
	// replication of the provisioned month.
	Total float64
	// Saving is the provisioned month without reservation less Total.
	Saving float64
}

// ClassChoice is one table's month (with its indexes, on demand at the average RPS) in each table
// class, and the storage above which Standard-IA is the cheaper at today's requests.
type ClassChoice struct {
	Table, Class         string
	Standard, StandardIA float64
	// BreakEvenGB is the stored GB (table and indexes) at which both classes cost the same: IA's
	// storage saving equals its dearer requests. 0 when the table takes no requests.
	BreakEvenGB float64
	StoredGB    float64
	Cheaper     string // designer.StandardClass or designer.StandardIAClass
}
