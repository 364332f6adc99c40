package vecindex

import "errors"

var (
	// ErrDimension reports a vector whose length is not the index's dimension.
	ErrDimension = errors.New("vecindex: dimension mismatch")
	// ErrInvalidVector reports a vector with a NaN or infinite component, or
	// one of zero length, which has no direction to compare.
	ErrInvalidVector = errors.New("vecindex: invalid vector")
	// ErrEmptyID reports a Put without an id.
	ErrEmptyID = errors.New("vecindex: empty id")
	// ErrInvalidOption reports a constructor argument out of range.
	ErrInvalidOption = errors.New("vecindex: invalid option")
)
