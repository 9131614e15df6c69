package capacity

import (
	"fmt"
	"strings"

	"dynaloom/internal/designer"
)

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

// Prices are the prices a Report uses: a region's from PriceTable (us-east-1 when the design names
// no region or one the table lacks), with the prices the design sets in their place.
type Prices struct {
	Region string
	// Known says the region's prices are PriceTable's; when not, Note says whose are used.
	Known bool
	Note  string
	// ReadRequest and WriteRequest are on-demand prices per million request units.
	ReadRequest, WriteRequest Price
	// ReadUnitHour and WriteUnitHour are provisioned prices per unit-hour.
	ReadUnitHour, WriteUnitHour Price
	// Storage is per GB-month.
	Storage Price
	// Reserved1Year and Reserved3Year are the region's reserved-capacity offers.
	Reserved1Year, Reserved3Year Reservation
}

// Reservation is one term of reserved capacity: a block of 100 RCU or WCU paid partly up front,
// then at a lower hourly rate, for Months.
type Reservation struct {
	Term                  string // designer.Reserved1Year or designer.Reserved3Year
	Months                float64
	UpfrontRCU, HourlyRCU float64 // dollars per block of 100 RCU
	UpfrontWCU, HourlyWCU float64 // dollars per block of 100 WCU
	Source, AsOf          string
}

// ReservedBlock is the units a reservation is sold in.
const ReservedBlock = 100

// Table-class factors: Standard-IA costs StandardIARequestFactor times Standard's prices for
// reads and writes (on-demand and provisioned alike) and StandardIAStorageFactor times its
// storage price. AWS states the trade-off as "about 60 % lower storage, 25 % higher throughput";
// the China regions' page lists provisioned IA at exactly 1.25× Standard (0.0725 against 0.058 ¥).
const (
	StandardIARequestFactor = 1.25
	StandardIAStorageFactor = 0.4
	tableClassSource        = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithTables.tableclasses.html"
)

// GlobalTablesOverheadBytes is what DynamoDB adds to every item of a Global Table for storage.
const GlobalTablesOverheadBytes = 48

// DefaultPrices are DynamoDB's prices for us-east-1, Standard table class: the one place they are
// written. The on-demand and storage prices are those the MCP server's cost calculator uses
// (January 2026, after the November 2024 on-demand cut); the provisioned ones are AWS's
// provisioned pricing page.
var DefaultPrices = Prices{
	Region:        "us-east-1",
	Known:         true,
	ReadRequest:   Price{Dollars: 0.125, Unit: "per million RRU", Source: onDemandSource, AsOf: "2026-01"},
	WriteRequest:  Price{Dollars: 0.625, Unit: "per million WRU", Source: onDemandSource, AsOf: "2026-01"},
	ReadUnitHour:  Price{Dollars: 0.00013, Unit: "per RCU-hour", Source: provisionedSource, AsOf: "2026-01"},
	WriteUnitHour: Price{Dollars: 0.00065, Unit: "per WCU-hour", Source: provisionedSource, AsOf: "2026-01"},
	Storage:       Price{Dollars: 0.25, Unit: "per GB-month", Source: pricingSource, AsOf: "2026-01"},
	// AWS's reserved-capacity offers for us-east-1: 54 % (1 year) and 77 % (3 years) off the
	// provisioned unit-hour price at full use, the discounts its reserved-capacity guide states.
	Reserved1Year: Reservation{Term: designer.Reserved1Year, Months: 12, UpfrontRCU: 30, HourlyRCU: 0.0025,
		UpfrontWCU: 150, HourlyWCU: 0.0128, Source: provisionedSource, AsOf: "2026-01"},
	Reserved3Year: Reservation{Term: designer.Reserved3Year, Months: 36, UpfrontRCU: 36, HourlyRCU: 0.0016,
		UpfrontWCU: 180, HourlyWCU: 0.0081, Source: provisionedSource, AsOf: "2026-01"},
}

// PriceTable holds each region's prices, with their sources and dates: the one place they are
// written. Only regions whose prices were read from a source are here; for another region the
// team sets its prices on the Capacity step.
var PriceTable = []Prices{DefaultPrices}

// RegionPrices returns the region's prices from PriceTable.
func RegionPrices(region string) (Prices, bool) {
	for _, p := range PriceTable {
		if strings.EqualFold(p.Region, region) {
			return p, true
		}
	}
	return Prices{}, false
}

// Reservation returns the offer of the term ("" none).
func (p Prices) Reservation(term string) (Reservation, bool) {
	switch term {
	case designer.Reserved1Year:
		return p.Reserved1Year, true
	case designer.Reserved3Year:
		return p.Reserved3Year, true
	}
	return Reservation{}, false
}

// OfClass returns the prices a table of the class pays: Standard's, or Standard-IA's by the
// table-class factors.
func (p Prices) OfClass(class string) Prices {
	if class != designer.StandardIAClass {
		return p
	}
	scale := func(to *Price, f float64) {
		to.Dollars *= f
		to.Source = tableClassSource
		to.Unit += fmt.Sprintf(" (Standard-IA, %s× Standard)", Figure(f))
	}
	scale(&p.ReadRequest, StandardIARequestFactor)
	scale(&p.WriteRequest, StandardIARequestFactor)
	scale(&p.ReadUnitHour, StandardIARequestFactor)
	scale(&p.WriteUnitHour, StandardIARequestFactor)
	scale(&p.Storage, StandardIAStorageFactor)
	return p
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
		if known, ok := RegionPrices(c.Region); ok {
			p = known
		} else {
			p.Region, p.Known = c.Region, false
			p.Note = "Dynaloom's price table has no prices for " + c.Region + "; " + DefaultPrices.Region +
				"'s are used where the team set none"
		}
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
	// Replicas are the other regions of a Global Table (designer.CapacitySettings.ReplicaRegions).
	Replicas []string
	// Reserved is the reserved-capacity term the provisioned figures are also priced with ("" none).
	Reserved string
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
	s.Replicas, s.Reserved = c.ReplicaRegions, c.ReservedCapacity
	return s
}
