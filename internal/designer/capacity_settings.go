package designer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CapacitySettings are what a team sets for the capacity and cost of its design: the prices of its
// region where they differ from the defaults package capacity holds, the target utilisation a
// provisioned table is sized for, and how much busier than the average its hottest partition-key
// value is. A nil field leaves the figure to its default; the zero value sets nothing.
type CapacitySettings struct {
	// Region labels the prices ("eu-west-1"); it changes no figure by itself.
	Region string `json:"region,omitempty"`
	// ReadRequestPrice and WriteRequestPrice are on-demand dollars per million read and write
	// request units.
	ReadRequestPrice  *float64 `json:"read_request_price,omitempty"`
	WriteRequestPrice *float64 `json:"write_request_price,omitempty"`
	// ReadUnitHourPrice and WriteUnitHourPrice are provisioned dollars per RCU-hour and WCU-hour.
	ReadUnitHourPrice  *float64 `json:"read_unit_hour_price,omitempty"`
	WriteUnitHourPrice *float64 `json:"write_unit_hour_price,omitempty"`
	// StoragePrice is dollars per GB-month of stored items and index entries.
	StoragePrice *float64 `json:"storage_price,omitempty"`
	// TargetUtilization is the percentage of provisioned capacity the peak load may use (20–90,
	// as DynamoDB auto scaling accepts).
	TargetUtilization *float64 `json:"target_utilization,omitempty"`
	// HotKeySkew is how many times its even share of a key's load the hottest value of a partition
	// key takes: 1 spreads the load evenly over the key's distinct values.
	HotKeySkew *float64 `json:"hot_key_skew,omitempty"`
	// HotKeyModel is how the load on a key spreads over its values (HotKeyModels): "" or "skew"
	// is HotKeySkew's multiplier; "uniform" gives each value its even share; "top_key_share"
	// gives the hottest HotKeyShare percent of the load; "zipf" gives the hottest of N values
	// 1/H(N, HotKeyZipfS).
	HotKeyModel string `json:"hot_key_model,omitempty"`
	// HotKeyShare is the percentage of a key's load its hottest value takes (0–100), for
	// "top_key_share".
	HotKeyShare *float64 `json:"hot_key_share,omitempty"`
	// HotKeyZipfS is the exponent s of "zipf" (0–10; 0 is uniform, 1 the classic Zipf law).
	HotKeyZipfS *float64 `json:"hot_key_zipf_s,omitempty"`
	// HorizonMonths is how far ahead storage is worked out: each entity's count grows by its growth
	// over so many months, up to what its retention keeps. 0 (the default) is today.
	HorizonMonths *float64 `json:"horizon_months,omitempty"`
	// ReplicaRegions are the other regions a Global Table keeps a replica in, every table of the
	// design being one: each replica is written again (replicated writes) and stores everything.
	ReplicaRegions []string `json:"replica_regions,omitempty"`
	// ReservedCapacity prices provisioned capacity with reserved capacity bought for its term:
	// "" none, Reserved1Year or Reserved3Year.
	ReservedCapacity string `json:"reserved_capacity,omitempty"`
}

// Reserved-capacity terms (CapacitySettings.ReservedCapacity).
const (
	Reserved1Year = "1y"
	Reserved3Year = "3y"
	// MaxReplicaRegions is the most replicas a design may name: AWS's regions, roughly.
	MaxReplicaRegions = 40
	// MaxFailurePct is the most conditional failures per 100 successful writes a pattern may state.
	MaxFailurePct = 1000
)

// Hot-key models (CapacitySettings.HotKeyModel).
const (
	HotKeySkewModel  = "skew"
	HotKeyUniform    = "uniform"
	HotKeyTopShare   = "top_key_share"
	HotKeyZipf       = "zipf"
	MaxHotKeyZipfS   = 10
	MaxHotKeySharePc = 100
)

// HotKeyModels lists the hot-key models in the order the Capacity step offers them.
var HotKeyModels = []string{HotKeySkewModel, HotKeyUniform, HotKeyTopShare, HotKeyZipf}

// Limits of the capacity settings.
const (
	MinTargetUtilization = 20
	MaxTargetUtilization = 90
	MinHotKeySkew        = 1
	MaxHorizonMonths     = 1200
)

// checkCapacity refuses settings no figure can be computed from: a negative or non-finite price,
// a target utilisation outside 20–90 %, a skew outside 1–1,000,000.
func checkCapacity(c CapacitySettings) error {
	const p = "capacity/"
	if _, err := CleanName(p+"region", c.Region); c.Region != "" && err != nil {
		return err
	}
	err := firstNonNil([]error{
		nonNegFloat(p+"read_request_price", c.ReadRequestPrice),
		nonNegFloat(p+"write_request_price", c.WriteRequestPrice),
		nonNegFloat(p+"read_unit_hour_price", c.ReadUnitHourPrice),
		nonNegFloat(p+"write_unit_hour_price", c.WriteUnitHourPrice),
		nonNegFloat(p+"storage_price", c.StoragePrice),
	})
	if err != nil {
		return err
	}
	if v := c.TargetUtilization; v != nil && !(*v >= MinTargetUtilization && *v <= MaxTargetUtilization) {
		return Invalid(p+"target_utilization", "must be a percentage from %d to %d", MinTargetUtilization, MaxTargetUtilization)
	}
	if v := c.HotKeySkew; v != nil && !(*v >= MinHotKeySkew && *v <= MaxHotKeySkew) {
		return Invalid(p+"hot_key_skew", "must be a number from %d to %d", MinHotKeySkew, int(MaxHotKeySkew))
	}
	if m := c.HotKeyModel; m != "" && !slices.Contains(HotKeyModels, m) {
		return Invalid(p+"hot_key_model", "must be one of %s", strings.Join(HotKeyModels, ", "))
	}
	if v := c.HotKeyShare; v != nil && !(*v >= 0 && *v <= MaxHotKeySharePc) {
		return Invalid(p+"hot_key_share", "must be a percentage from 0 to %d", MaxHotKeySharePc)
	}
	if v := c.HotKeyZipfS; v != nil && !(*v >= 0 && *v <= MaxHotKeyZipfS) {
		return Invalid(p+"hot_key_zipf_s", "must be an exponent from 0 to %d", MaxHotKeyZipfS)
	}
	if v := c.HorizonMonths; v != nil && !(*v >= 0 && *v <= MaxHorizonMonths) {
		return Invalid(p+"horizon_months", "must be a number of months from 0 to %d", MaxHorizonMonths)
	}
	if _, err := parseReplicaRegions(p+"replica_regions", strings.Join(c.ReplicaRegions, ",")); err != nil {
		return err
	}
	return OneOf(p+"reserved_capacity", c.ReservedCapacity, "", Reserved1Year, Reserved3Year)
}

// CapacityField names the settings SetCapacityField sets; CapacityFields lists them in the order
// the Capacity step shows them. A blank value clears the setting, back to its default.
var CapacityField = struct {
	Region, ReadRequestPrice, WriteRequestPrice, ReadUnitHourPrice, WriteUnitHourPrice, StoragePrice,
	TargetUtilization, HotKeySkew, HotKeyModel, HotKeyShare, HotKeyZipfS, HorizonMonths, ReplicaRegions,
	ReservedCapacity Field[CapacitySettings]
}{
	Region: Field[CapacitySettings]{Key: "region", Label: "price region",
		Get: func(c CapacitySettings) string { return c.Region },
		set: func(_ *Design, c *CapacitySettings, name, value string) (err error) {
			c.Region = ""
			if strings.TrimSpace(value) != "" {
				c.Region, err = CleanName(name, value)
			}
			return err
		}},
	ReadRequestPrice: numberField("read_request_price", "on-demand read price",
		func(c *CapacitySettings) **float64 { return &c.ReadRequestPrice }, ParsePrice).titled("$ per million reads (RRU)"),
	WriteRequestPrice: numberField("write_request_price", "on-demand write price",
		func(c *CapacitySettings) **float64 { return &c.WriteRequestPrice }, ParsePrice).titled("$ per million writes (WRU)"),
	ReadUnitHourPrice: numberField("read_unit_hour_price", "provisioned read price",
		func(c *CapacitySettings) **float64 { return &c.ReadUnitHourPrice }, ParsePrice).titled("$ per RCU-hour"),
	WriteUnitHourPrice: numberField("write_unit_hour_price", "provisioned write price",
		func(c *CapacitySettings) **float64 { return &c.WriteUnitHourPrice }, ParsePrice).titled("$ per WCU-hour"),
	StoragePrice: numberField("storage_price", "storage price",
		func(c *CapacitySettings) **float64 { return &c.StoragePrice }, ParsePrice).titled("$ per GB-month"),
	TargetUtilization: numberField("target_utilization", "target utilisation",
		func(c *CapacitySettings) **float64 { return &c.TargetUtilization }, parseTargetUtilization).titled("Target utilisation %"),
	HotKeySkew: numberField("hot_key_skew", "hot-key skew",
		func(c *CapacitySettings) **float64 { return &c.HotKeySkew }, parseSkew),
	HotKeyModel: choiceField("hot_key_model", "hot-key model",
		func(c *CapacitySettings) *string { return &c.HotKeyModel }, ParseHotKeyModel),
	HotKeyShare: numberField("hot_key_share", "hottest value's share",
		func(c *CapacitySettings) **float64 { return &c.HotKeyShare }, parseHotKeyShare).titled("Hottest value's share %"),
	HotKeyZipfS: numberField("hot_key_zipf_s", "zipf exponent",
		func(c *CapacitySettings) **float64 { return &c.HotKeyZipfS }, parseZipfS).titled("Zipf exponent s"),
	HorizonMonths: numberField("horizon_months", "storage horizon",
		func(c *CapacitySettings) **float64 { return &c.HorizonMonths }, parseHorizon).titled("Storage horizon (months)"),
	ReplicaRegions: listField("replica_regions", "replica regions",
		func(c *CapacitySettings) *[]string { return &c.ReplicaRegions },
		func(_ Design, name, value string) ([]string, error) { return parseReplicaRegions(name, value) }).titled("Global Tables replica regions"),
	ReservedCapacity: choiceField("reserved_capacity", "reserved capacity",
		func(c *CapacitySettings) *string { return &c.ReservedCapacity }, ParseReservedCapacity),
}

var CapacityFields = fieldsOf[CapacitySettings](CapacityField)

// ParsePrice reads a price in dollars, zero or more, with or without "$" ("$0.125", "0.00013");
// blank returns nil.
func ParsePrice(s string) (*float64, error) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	if t == "" && strings.TrimSpace(s) == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%q is not a price in dollars from 0 to %s", strings.TrimSpace(s), maxNumberText)
	}
	return &v, nil
}

// parseTargetUtilization reads a percentage from 20 to 90, as DynamoDB auto scaling takes.
func parseTargetUtilization(s string) (*float64, error) {
	v, err := ParsePercent(s)
	if err == nil && v != nil && (*v < MinTargetUtilization || *v > MaxTargetUtilization) {
		err = fmt.Errorf("%q is outside %d–%d %%, the target utilisations DynamoDB auto scaling takes", strings.TrimSpace(s), MinTargetUtilization, MaxTargetUtilization)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// parseSkew reads a factor from 1 to MaxHotKeySkew, with or without a trailing "×" or "x" ("2", "2.5×").
func parseSkew(s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	t = strings.TrimSpace(strings.TrimRight(t, "×xX"))
	v, err := ParseFieldNumber(t)
	if err != nil || v < MinHotKeySkew || v > MaxHotKeySkew {
		return nil, fmt.Errorf("%q is not a factor from 1 to 1,000,000 (1 spreads the load evenly over the key's values)", strings.TrimSpace(s))
	}
	return &v, nil
}

// ParseHotKeyModel reads a hot-key model in the spellings people use ("zipf", "Zipfian",
// "top-key share", "uniform", "even", "skew", "multiplier"); blank returns "", the skew.
func ParseHotKeyModel(s string) (string, error) {
	switch Words(s) {
	case "":
		return "", nil
	case "skew", "multiplier", "skew multiplier", "hot key skew":
		return HotKeySkewModel, nil
	case "uniform", "even", "evenly", "spread evenly":
		return HotKeyUniform, nil
	case "top key share", "top share", "top key", "share", "hottest share", "top value share":
		return HotKeyTopShare, nil
	case "zipf", "zipfian", "zipf s", "zipf law":
		return HotKeyZipf, nil
	}
	return "", fmt.Errorf("%q is not a hot-key model; use skew, uniform, top_key_share or zipf", strings.TrimSpace(s))
}

// parseHotKeyShare reads the percentage of a key's load its hottest value takes, 0 to 100.
func parseHotKeyShare(s string) (*float64, error) {
	v, err := ParsePercent(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a share from 0 to 100 %% of the key's load", strings.TrimSpace(s))
	}
	return v, nil
}

// parseZipfS reads a zipf exponent from 0 (uniform) to MaxHotKeyZipfS.
func parseZipfS(s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	if rest, ok := strings.CutPrefix(t, "s"); ok {
		t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "="))
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || v > MaxHotKeyZipfS {
		return nil, fmt.Errorf("%q is not a zipf exponent s from 0 to 10 (0 spreads the load evenly, 1 is the classic Zipf law)", strings.TrimSpace(s))
	}
	return &v, nil
}

// parseHorizon reads a number of months from 0 to MaxHorizonMonths, with or without "months".
func parseHorizon(s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	if f := strings.Fields(t); len(f) == 2 {
		if u, ok := TimeUnit(f[1]); ok && u == Month {
			t = f[0]
		}
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || v > MaxHorizonMonths {
		return nil, fmt.Errorf("%q is not a number of months from 0 to %d", strings.TrimSpace(s), MaxHorizonMonths)
	}
	return &v, nil
}

// parseReplicaRegions reads a comma-separated list of region names ("eu-west-1, ap-south-1"):
// each a name, none twice, at most MaxReplicaRegions.
func parseReplicaRegions(field, value string) ([]string, error) {
	names, err := nameList(field, value)
	if err != nil {
		return nil, err
	}
	if len(names) > MaxReplicaRegions {
		return nil, Invalid(field, "names %d regions; a design may name at most %d", len(names), MaxReplicaRegions)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[strings.ToLower(n)] {
			return nil, Invalid(field, "names %q twice", n)
		}
		seen[strings.ToLower(n)] = true
	}
	return names, nil
}

// ParseReservedCapacity reads a reserved-capacity term ("1 year", "3y", "none"); blank and "none"
// return "", no reservation.
func ParseReservedCapacity(s string) (string, error) {
	switch Words(s) {
	case "", "none", "no", "off":
		return "", nil
	case "1y", "1 y", "1 year", "one year", "1 yr", "12 months":
		return Reserved1Year, nil
	case "3y", "3 y", "3 years", "three years", "3 yr", "36 months":
		return Reserved3Year, nil
	}
	return "", fmt.Errorf("%q is not a reserved-capacity term; use none, 1 year or 3 years", strings.TrimSpace(s))
}

// ParseTableClass reads a table class as people write it ("Standard-IA", "infrequent access");
// blank returns "", Standard.
func ParseTableClass(s string) (string, error) {
	switch Words(s) {
	case "":
		return "", nil
	case "standard", "std":
		return StandardClass, nil
	case "standard ia", "ia", "standard infrequent access", "infrequent access", "standard_infrequent_access":
		return StandardIAClass, nil
	}
	return "", fmt.Errorf("%q is not a table class; use Standard or Standard-IA", strings.TrimSpace(s))
}

// parseFailurePct reads how many attempts of a write fail their condition per 100 that succeed,
// 0 to MaxFailurePct, with or without "%".
func parseFailurePct(s string) (*float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	if t == "" && strings.TrimSpace(s) == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || v > MaxFailurePct {
		return nil, fmt.Errorf("%q is not a percentage from 0 to %d (failed attempts per 100 that succeed)", strings.TrimSpace(s), MaxFailurePct)
	}
	return &v, nil
}

// percentUpTo refuses a percentage outside 0–most.
func percentUpTo(field string, v *float64, most float64) error {
	if v != nil && !(*v >= 0 && *v <= most) {
		return Invalid(field, "must be a percentage from 0 to %s", strconv.FormatFloat(most, 'f', -1, 64))
	}
	return nil
}

// TableClassName is a table class as people say it: "Standard" or "Standard-IA".
func TableClassName(class string) string {
	if class == StandardIAClass {
		return "Standard-IA"
	}
	return "Standard"
}

// ReservedTermName is a reserved-capacity term as people say it: "none", "1 year", "3 years".
func ReservedTermName(term string) string {
	switch term {
	case Reserved1Year:
		return "1 year"
	case Reserved3Year:
		return "3 years"
	}
	return "none"
}
