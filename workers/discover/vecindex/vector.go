package vecindex

import (
	"fmt"
	"math"
)

// normalizeInto writes v scaled to unit length into dst (len(dst) == dim).
// Storing unit vectors turns cosine similarity into a plain dot product,
// which is all the hot loops compute.
func normalizeInto(dst, v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("vector has %d components, index has %d: %w", len(v), dim, ErrDimension)
	}
	// float64 so that components near the float32 limit do not overflow
	// the sum of squares into +Inf.
	var ss float64
	for i, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("component %d is %v: %w", i, x, ErrInvalidVector)
		}
		ss += f * f
	}
	if ss == 0 {
		return fmt.Errorf("zero vector has no direction: %w", ErrInvalidVector)
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		dst[i] = float32(float64(x) * inv)
	}
	return nil
}

// normalized returns a unit-length copy of v.
func normalized(v []float32, dim int) ([]float32, error) {
	out := make([]float32, dim)
	if err := normalizeInto(out, v, dim); err != nil {
		return nil, err
	}
	return out, nil
}
