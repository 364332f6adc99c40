package route

import "testing"

func TestJudge(t *testing.T) {
	tests := []struct {
		name        string
		top, wanted string
		wrong       bool
		want        string
	}{
		{"the top tool was wanted", "files/checksum", "files/checksum", false, VerdictRight},
		{"another tool was wanted", "files/checksum", "files/read", false, VerdictWrong},
		{"the tool that ran was wrong", "files/checksum", "", true, VerdictWrong},
		{"the top tool named as wrong", "files/checksum", "files/checksum", true, VerdictWrong},
		{"another tool named as wrong says nothing of the top", "files/checksum", "files/read", true, VerdictUnknown},
		{"no top tool", "", "files/read", false, VerdictUnknown},
		{"no top tool, wrong", "", "", true, VerdictUnknown},
	}
	for _, tt := range tests {
		if got := Judge(tt.top, tt.wanted, tt.wrong); got != tt.want {
			t.Errorf("%s: Judge(%q, %q, %t) = %s, want %s", tt.name, tt.top, tt.wanted, tt.wrong, got, tt.want)
		}
	}
}
