package capacity

import "dynaloom/internal/designer"

// SecondsPerMonth is the month the monthly figures are for: 30.5 days, as the DynamoDB MCP
// server's cost calculator counts it, so that its figures and ours compare.
const SecondsPerMonth = 2_635_200

// HoursPerMonth is SecondsPerMonth in hours (732), the hours a provisioned unit is billed for.
const HoursPerMonth = SecondsPerMonth / 3600

// Units of capacity (binary kilobytes).
const (
	ReadUnitBytes  = 4096 // one strongly consistent read unit reads up to 4 KB
	WriteUnitBytes = 1024 // one write unit writes up to 1 KB
	// StorageOverheadBytes is what DynamoDB adds to every item for storage billing (not to units).
	StorageOverheadBytes = 100
	// GB is the gigabyte storage is billed in (binary).
	GB = 1 << 30
)

// Partition limits: the most one partition-key value can take per second.
const (
	PartitionReadLimit  = 3000 // read units per second
	PartitionWriteLimit = 1000 // write units per second
)

// Defaults of the settings a design may leave unset.
const (
	DefaultTargetUtilization = 70 // percent of provisioned capacity the peak may use
	// DefaultHotKeySkew is how many times its even share the hottest key value takes: a key value
	// twice as busy as the average one, so that a key with few values shows its risk before the
	// load is spread perfectly, which it never is.
	DefaultHotKeySkew = 2
)

// Price is one price with where it came from.
type Price struct {
	Dollars float64 // per Unit
	Unit    string  // "per million RRU", "per RCU-hour", "per GB-month"
	// Source names the page the default was read from, or "design" when the team set it.
	Source string
	// AsOf is the date the default was checked ("2026-01"); empty for a price the team set.
	AsOf string
}

// Prices are the prices a Report uses: DynamoDB's us-east-1 Standard table class prices unless
// the design overrides them.
type Prices struct {
	Region string
	// ReadRequest and WriteRequest are on-demand prices per million request units.
	ReadRequest, WriteRequest Price
	// ReadUnitHour and WriteUnitHour are provisioned prices per unit-hour.
	ReadUnitHour, WriteUnitHour Price
	// Storage is per GB-month.
	Storage Price
}

// DefaultPrices are DynamoDB's prices for us-east-1, Standard table class: the one place they are
// written. The on-demand and storage prices are those the MCP server's cost calculator uses
// (January 2026, after the November 2024 on-demand cut); the provisioned ones are AWS's
// provisioned pricing page.
var DefaultPrices = Prices{
	Region:        "us-east-1",
	ReadRequest:   Price{Dollars: 0.125, Unit: "per million RRU", Source: onDemandSource, AsOf: "2026-01"},
	WriteRequest:  Price{Dollars: 0.625, Unit: "per million WRU", Source: onDemandSource, AsOf: "2026-01"},
	ReadUnitHour:  Price{Dollars: 0.00013, Unit: "per RCU-hour", Source: provisionedSource, AsOf: "2026-01"},
	WriteUnitHour: Price{Dollars: 0.00065, Unit: "per WCU-hour", Source: provisionedSource, AsOf: "2026-01"},
	Storage:       Price{Dollars: 0.25, Unit: "per GB-month", Source: pricingSource, AsOf: "2026-01"},
}

const (
	onDemandSource    = "https://aws.amazon.com/dynamodb/pricing/on-demand/"
	provisionedSource = "https://aws.amazon.com/dynamodb/pricing/provisioned/"
	pricingSource     = "https://aws.amazon.com/dynamodb/pricing/"
	// DesignSource is a Price's Source when the team set it.
	DesignSource = "design"
)

// PricesOf returns DefaultPrices with the prices and region the design's settings give.
func PricesOf(c designer.CapacitySettings) Prices {
	p := DefaultPrices
	if c.Region != "" {
		p.Region = c.Region
	}
	set := func(to *Price, v *float64) {
		if v != nil {
			*to = Price{Dollars: upTo(*v), Unit: to.Unit, Source: DesignSource}
		}
	}
	set(&p.ReadRequest, c.ReadRequestPrice)
	set(&p.WriteRequest, c.WriteRequestPrice)
	set(&p.ReadUnitHour, c.ReadUnitHourPrice)
	set(&p.WriteUnitHour, c.WriteUnitHourPrice)
	set(&p.Storage, c.StoragePrice)
	return p
}

// Settings are the settings a Report uses, each the design's or its default.
type Settings struct {
	// TargetUtilization is a percentage (70 means the peak uses 70 % of what is provisioned).
	TargetUtilization     float64
	TargetUtilizationFrom string // FromDesign or FromDefault
	HotKeySkew            float64
	HotKeySkewFrom        string // FromDesign or FromDefault
	// Hot is the hot-key model the loads on partition keys are worked out with.
	Hot HotModel
}

// SettingsOf returns the design's settings, the defaults where it sets none.
func SettingsOf(c designer.CapacitySettings) Settings {
	s := Settings{TargetUtilization: DefaultTargetUtilization, TargetUtilizationFrom: FromDefault,
		HotKeySkew: DefaultHotKeySkew, HotKeySkewFrom: FromDefault}
	if c.TargetUtilization != nil {
		s.TargetUtilization = bounded(*c.TargetUtilization, designer.MinTargetUtilization, designer.MaxTargetUtilization)
		s.TargetUtilizationFrom = FromDesign
	}
	if c.HotKeySkew != nil {
		s.HotKeySkew, s.HotKeySkewFrom = bounded(*c.HotKeySkew, designer.MinHotKeySkew, designer.MaxHotKeySkew), FromDesign
	}
	s.Hot = hotModelOf(c, s.HotKeySkew, s.HotKeySkewFrom)
	return s
}
