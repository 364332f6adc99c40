package pipeline

import (
	"strings"
	"testing"
)

func TestCheckSubject(t *testing.T) {
	tests := []struct {
		subject  string
		ok       bool
		mentions string
	}{
		{"result.s1", true, ""},
		{"pipe.execute.s-1_x", true, ""},
		{"dlq.parse", true, ""},
		{"", false, "empty subject"},
		{"result.", false, "token 2 is empty"},
		{".result", false, "token 1 is empty"},
		{"a..b", false, "token 2 is empty"},
		{"result.*", false, "wildcard"},
		{"agent.output.>", false, "wildcard"},
		{"result.a b", false, "0x20"},
		{"result.a\tb", false, "0x09"},
		{"result.a\x00", false, "0x00"},
		{"result.a\x7f", false, "0x7f"},
		{"result.a*b", true, ""}, // a '*' inside a token is literal to NATS
	}
	for _, tt := range tests {
		t.Run(tt.subject, func(t *testing.T) {
			err := CheckSubject(tt.subject)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckSubject(%q) = %v, want ok=%v", tt.subject, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("error %q does not mention %q", err, tt.mentions)
			}
		})
	}
}

func TestCheckOutsIsPermanentAndLiteralOutsFilters(t *testing.T) {
	outs := []Out{{Subject: "result.s1"}, {Subject: "result."}, {Subject: "audit.x.*"}}
	if err := checkOuts(outs); err == nil || !IsPermanent(err) {
		t.Fatalf("checkOuts = %v, want a permanent error", err)
	}
	if err := checkOuts(outs[:1]); err != nil {
		t.Fatalf("checkOuts(valid) = %v", err)
	}
	kept := literalOuts(outs)
	if len(kept) != 1 || kept[0].Subject != "result.s1" {
		t.Fatalf("literalOuts = %+v", kept)
	}
}
