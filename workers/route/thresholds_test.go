package route

import (
	"math"
	"strings"
	"testing"
)

func TestThresholdsValidate(t *testing.T) {
	tests := []struct {
		name string
		th   Thresholds
		want string // "" for valid
	}{
		{"defaults", DefaultThresholds(), ""},
		{"zero value", Thresholds{}, ""},
		{"all one", Thresholds{1, 1, 1}, ""},
		{"equal middles", Thresholds{0.8, 0.4, 0.4}, ""},
		{"weak above multiple", Thresholds{0.85, 0.3, 0.5}, "weak <= multiple <= activate"},
		{"multiple above activate", Thresholds{0.5, 0.85, 0.3}, "weak <= multiple <= activate"},
		{"activate above 1", Thresholds{1.2, 0.5, 0.3}, "activate threshold 1.2 is not in [0,1]"},
		{"negative weak", Thresholds{0.85, 0.5, -0.1}, "weak threshold -0.1 is not in [0,1]"},
		{"NaN", Thresholds{math.NaN(), 0.5, 0.3}, "activate threshold NaN"},
	}
	for _, tt := range tests {
		err := tt.th.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if d := DefaultThresholds(); d.Activate != 0.85 || d.Multiple != 0.50 || d.Weak != 0.30 {
		t.Errorf("DefaultThresholds() = %+v", d)
	}
}
