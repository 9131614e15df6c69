package designer

import "math"

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
}

// Limits of the capacity settings.
const (
	MinTargetUtilization = 20
	MaxTargetUtilization = 90
	MinHotKeySkew        = 1
)

// checkCapacity refuses settings no figure can be computed from: a negative or non-finite price,
// a target utilisation outside 20–90 %, a skew under 1.
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
	if v := c.HotKeySkew; v != nil && !(*v >= MinHotKeySkew && !math.IsInf(*v, 0)) {
		return Invalid(p+"hot_key_skew", "must be a number of %d or more", MinHotKeySkew)
	}
	return nil
}
