package toolenv

import (
	"os"
	"slices"
	"testing"
)

func TestBuilder(t *testing.T) {
	t.Setenv("PATH", "/bin")
	t.Setenv("TOOLENV_SECRET", "s3cret")
	t.Setenv("TOOLENV_PASSED", "yes")
	t.Setenv("HOME", "/home/x")
	b := New()
	b.Pass([]string{"TOOLENV_PASSED", "TOOLENV_UNSET", "FIXED=1", "=ignored"})
	b.Pass([]string{"FIXED=2"})
	b.Set("TOOLYARD_INTENT_ID", "i1")
	got := b.Environ()
	for _, want := range []string{"PATH=/bin", "HOME=/home/x", "TOOLENV_PASSED=yes", "FIXED=2", "TOOLYARD_INTENT_ID=i1"} {
		if !slices.Contains(got, want) {
			t.Errorf("environment %q lacks %s", got, want)
		}
	}
	for _, kv := range got {
		if kv == "TOOLENV_SECRET=s3cret" || kv == "=ignored" || kv == "FIXED=1" || kv == "TOOLENV_UNSET=" {
			t.Errorf("environment %q holds %s", got, kv)
		}
	}
}

func TestBuilderDefaultPath(t *testing.T) {
	t.Setenv("PATH", "/restored/after/the/test")
	os.Unsetenv("PATH")
	if got := New().Environ(); !slices.Contains(got, "PATH="+DefaultPath) {
		t.Errorf("environment %q: want the default PATH when the worker has none", got)
	}
}

func TestValue(t *testing.T) {
	t.Setenv("TOOLENV_TOKEN", "tok")
	tests := []struct {
		name, look         string
		entries            []string
		value              string
		wantListed, wantOK bool
	}{
		{"passed through", "TOOLENV_TOKEN", []string{"TOOLENV_TOKEN"}, "tok", true, true},
		{"fixed", "A", []string{"A=1"}, "1", true, true},
		{"listed but unset", "TOOLENV_NOPE", []string{"TOOLENV_NOPE"}, "", true, false},
		{"not listed", "TOOLENV_TOKEN", []string{"OTHER"}, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, listed, ok := Value(tt.look, tt.entries)
			if v != tt.value || listed != tt.wantListed || ok != tt.wantOK {
				t.Errorf("Value(%q, %q) = %q, %v, %v; want %q, %v, %v", tt.look, tt.entries, v, listed, ok, tt.value, tt.wantListed, tt.wantOK)
			}
		})
	}
}
