package pipeline

import (
	"fmt"
	"strings"
)

// CheckSubject returns an error unless s is a literal subject to publish
// to: tokens separated by single dots, none empty, none a wildcard ("*",
// ">"), no whitespace or control character anywhere. The server would
// refuse some of these, but not all (a trailing "*" token publishes to a
// subject every wildcard subscriber of that level reads), so the runner
// checks every output before it is sent.
func CheckSubject(s string) error {
	if s == "" {
		return fmt.Errorf("empty subject")
	}
	for i, tok := range strings.Split(s, ".") {
		switch {
		case tok == "":
			return fmt.Errorf("subject %q: token %d is empty", clipSubject(s), i+1)
		case tok == "*" || tok == ">":
			return fmt.Errorf("subject %q: token %d is the wildcard %q", clipSubject(s), i+1, tok)
		}
		for j := 0; j < len(tok); j++ {
			if c := tok[j]; c <= ' ' || c == 0x7f {
				return fmt.Errorf("subject %q: token %d holds the byte 0x%02x (whitespace or control)", clipSubject(s), i+1, c)
			}
		}
	}
	return nil
}

func clipSubject(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// checkOuts refuses a handler's outputs when one goes to a subject that is
// not literal: permanent, since the same input yields the same subject.
func checkOuts(outs []Out) error {
	for _, o := range outs {
		if err := CheckSubject(o.Subject); err != nil {
			return Permanentf("an output of this input would go to an invalid subject: %w", err)
		}
	}
	return nil
}

// literalOuts drops the outputs bound for subjects that are not literal:
// a rejection must not publish where a handler's outputs may not.
func literalOuts(outs []Out) []Out {
	kept := outs[:0:0]
	for _, o := range outs {
		if CheckSubject(o.Subject) == nil {
			kept = append(kept, o)
		}
	}
	return kept
}
