package fit

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/toolyard/toolyard/workers/discover"
)

// FormatGo writes c as the return statement of a Default…Calibration
// function (calibration.go), gofmt-formatted, to paste over the old one.
func FormatGo(c discover.Calibration) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "return Calibration{\nVersion: %q,\nFeatures: %s,\nWeights: %s,\nBias: %s,\n", c.Version, strs(c.Features), floats(c.Weights), num(c.Bias))
	if n := c.Need; n != nil {
		fmt.Fprintf(&b, "Need: &NeedModel{\nFeatures: %s,\nWeights: %s,\nBias: %s,\nPrior: %s,\n},\n", strs(n.Features), floats(n.Weights), num(n.Bias), num(n.Prior))
	}
	fmt.Fprintf(&b, "Note: %q,\n}\n", c.Note)
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format calibration as Go: %w", err)
	}
	return out, nil
}

func strs(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func floats(fs []float64) string {
	q := make([]string, len(fs))
	for i, f := range fs {
		q[i] = num(f)
	}
	return "[]float64{" + strings.Join(q, ", ") + "}"
}

func num(f float64) string { return fmt.Sprintf("%.4f", f) }
