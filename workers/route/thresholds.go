package route

import (
	"fmt"
	"math"

	"github.com/toolyard/toolyard/schemas"
)

// Thresholds are the lower confidence bounds of the tiers: at or above
// Activate the top tool runs; at or above Multiple alternatives are
// offered; at or above Weak weak matches are listed; below Weak nothing
// was found.
type Thresholds struct {
	Activate float64 `json:"activate"`
	Multiple float64 `json:"multiple"`
	Weak     float64 `json:"weak"`
}

// DefaultThresholds are the bounds of DESIGN.md: 0.85, 0.50, 0.30.
func DefaultThresholds() Thresholds {
	return Thresholds{Activate: 0.85, Multiple: 0.50, Weak: 0.30}
}

// Validate checks 0 <= Weak <= Multiple <= Activate <= 1.
func (t Thresholds) Validate() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"activate", t.Activate}, {"multiple", t.Multiple}, {"weak", t.Weak}} {
		if math.IsNaN(v.v) || v.v < 0 || v.v > 1 {
			return fmt.Errorf("%s threshold %v is not in [0,1]", v.name, v.v)
		}
	}
	if t.Weak > t.Multiple || t.Multiple > t.Activate {
		return fmt.Errorf("thresholds must satisfy weak <= multiple <= activate, got weak %v, multiple %v, activate %v",
			t.Weak, t.Multiple, t.Activate)
	}
	return nil
}

// Tier names the tier of a confidence in [0,1], as routing decides it.
func (t Thresholds) Tier(c float64) string { return t.tier(c) }

// tier names the tier of a confidence, which must be in [0,1].
func (t Thresholds) tier(c float64) string {
	switch {
	case c >= t.Activate:
		return schemas.TierActivated
	case c >= t.Multiple:
		return schemas.TierMultiple
	case c >= t.Weak:
		return schemas.TierWeak
	}
	return schemas.TierNotFound
}
