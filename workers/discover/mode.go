package discover

import (
	"fmt"
	"strings"
)

// Mode is which retrieval sides a search uses.
type Mode int

const (
	// ModeAuto is hybrid when the engine has an embedder, keyword otherwise.
	ModeAuto Mode = iota
	// ModeKeyword ranks by BM25 alone, with the keyword confidence heuristic.
	ModeKeyword
	// ModeVector ranks by cosine to the intent's vector alone.
	ModeVector
	// ModeHybrid fuses both rankings and calibrates the confidence.
	ModeHybrid
)

var modeNames = map[Mode]string{ModeAuto: "auto", ModeKeyword: "keyword", ModeVector: "vector", ModeHybrid: "hybrid"}

func (m Mode) String() string {
	if s, ok := modeNames[m]; ok {
		return s
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

// ParseMode reads "keyword", "vector" (or "semantic"), "hybrid" or "auto".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto", "":
		return ModeAuto, nil
	case "keyword", "bm25":
		return ModeKeyword, nil
	case "vector", "semantic":
		return ModeVector, nil
	case "hybrid":
		return ModeHybrid, nil
	}
	return ModeAuto, fmt.Errorf("unknown discovery mode %q (want keyword, vector, hybrid or auto)", s)
}
