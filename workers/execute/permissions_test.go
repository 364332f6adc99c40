package execute

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestMissing(t *testing.T) {
	tests := []struct {
		allow, need, want []string
	}{
		{nil, nil, nil},
		{nil, []string{"net"}, []string{"net"}},
		{[]string{"*"}, []string{"net", "fs.write"}, nil},
		{[]string{"fs"}, []string{"fs", "fs.read", "fs.write.tmp"}, nil},
		{[]string{"fs.*"}, []string{"fs.read", "fs"}, []string{"fs"}},
		{[]string{"fs.read"}, []string{"fs.read", "fs.write", "fs.write"}, []string{"fs.write"}},
		{[]string{"fs.read"}, []string{"fs.readwrite"}, []string{"fs.readwrite"}},
		{[]string{"net"}, []string{"network"}, []string{"network"}},
	}
	for _, tc := range tests {
		if got := Missing(tc.allow, tc.need); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Missing(%v, %v) = %v, want %v", tc.allow, tc.need, got, tc.want)
		}
	}
}

func TestPolicyAllowed(t *testing.T) {
	p := &Policy{Default: []string{"fs.read"}, Sessions: []SessionRule{
		{Match: "ci-*", Allow: []string{"fs", "net"}},
		{Match: "*", Allow: []string{"net"}}, // never reached for ci-*
	}}
	if a, limited := p.Allowed("ci-42"); !limited || strings.Join(a, ",") != "fs,net" {
		t.Errorf("ci-42: %v %v", a, limited)
	}
	if a, _ := p.Allowed("demo"); strings.Join(a, ",") != "net" {
		t.Errorf("demo: %v", a)
	}
	if _, limited := (*Policy)(nil).Allowed("x"); limited {
		t.Error("no policy limits")
	}
	if _, limited := (&Policy{}).Allowed("x"); limited {
		t.Error("a policy without default limits sessions no rule names")
	}
	if a, limited := (&Policy{Default: []string{}}).Allowed("x"); !limited || len(a) != 0 {
		t.Error("an empty default allows only tools that need nothing")
	}
}

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, "p.json")
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p, err := LoadPolicy(write(`{"default": ["fs.read"], "grant": ["delete"], "sessions": [{"match": "ci-*", "allow": ["net"], "grant": ["all"]}]}`))
	if err != nil || len(p.Sessions) != 1 || p.Default[0] != "fs.read" || len(p.Grants("ci-1")) != 3 || p.Grants("other")[0] != "delete" {
		t.Fatalf("%+v %v", p, err)
	}
	for doc, want := range map[string]string{
		`{"defaults": []}`: "unknown field",
		`{"sessions": [{"match": "[", "allow": []}]}`:                    "syntax error in pattern",
		`{"sessions": [{"match": "a"}]}`:                                 "allow is missing",
		`{"default": ["fs read"]}`:                                       "no spaces",
		`{"grant": ["exec"]}`:                                            `grant: unknown grant "exec"`,
		`{"sessions": [{"match": "a", "allow": [], "grant": ["root"]}]}`: `sessions[0] (a): grant: unknown grant "root"`,
		`[]`: "cannot unmarshal",
	} {
		if _, err := LoadPolicy(write(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", doc, err, want)
		}
	}
}

// Permissions and scope are checked before anything runs, for every call
// form; a refusal names what is missing and answers with its code.
func TestGuardPermissionsAndScope(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	touch := tool("files/touch", "", "/bin/sh", "-c", "echo x >> "+marker)
	touch.Permissions = []string{"fs.write"}
	read := tool("files/read", "", "echo", "read")
	read.Permissions = []string{"fs.read"}
	free := tool("misc/free", "", "echo", "free")
	alias := schemas.Manifest{ID: "misc/alias", Description: "a friendly name for touch", Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: "files/touch"}}
	tools := []schemas.Manifest{touch, read, free, alias}
	policy := &Policy{Default: []string{"fs.read"}, Sessions: []SessionRule{{Match: "admin-*", Allow: []string{"*"}}}}

	tests := []struct {
		name    string
		opts    []Option
		session string
		tool    string
		scope   []string
		direct  bool
		code    string
		msg     string
	}{
		{"no policy: reading runs", nil, "s1", "files/read", nil, false, "", ""},
		{"no policy: writing is refused", nil, "s1", "files/touch", nil, false, CodePermissionDenied,
			"tool files/touch needs write (permission fs.write), which session s1 is not granted: tools run read-only by default; grant it with --allow write"},
		{"no policy, write granted", []Option{WithGrants(ClassWrite)}, "s1", "files/touch", nil, false, "", ""},
		{"allowed permission", []Option{WithPermissions(policy)}, "s1", "files/read", nil, false, "", ""},
		{"tool needing nothing", []Option{WithPermissions(policy)}, "s1", "misc/free", nil, false, "", ""},
		{"missing permission", []Option{WithPermissions(policy)}, "s1", "files/touch", nil, false, CodePermissionDenied,
			"tool files/touch needs permission(s) fs.write, which session s1 is not allowed (allowed: fs.read)"},
		{"missing permission, direct call", []Option{WithPermissions(policy)}, "s1", "files/touch", nil, true, CodePermissionDenied, "fs.write"},
		{"missing permission through delegation", []Option{WithPermissions(policy)}, "s1", "misc/alias", nil, false, CodePermissionDenied,
			"tool misc/alias needs permission(s) fs.write"},
		{"session rule", []Option{WithPermissions(policy)}, "admin-1", "files/touch", nil, false, "", ""},
		{"empty allowlist", []Option{WithPermissions(&Policy{Default: []string{}})}, "s1", "files/read", nil, false, CodePermissionDenied, "(allowed: none)"},
		{"in scope by server", nil, "s1", "files/read", []string{"files"}, true, "", ""},
		{"in scope by id", nil, "s1", "misc/free", []string{"misc/free"}, true, "", ""},
		{"out of scope, direct call", nil, "s1", "files/touch", []string{"misc"}, true, CodeOutOfScope,
			"tool files/touch is outside this output's scope [misc]"},
		{"builtin is always in scope", nil, "s1", HelpID, []string{"misc"}, true, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(marker)
			e := newExecutor(t, tools, tc.opts...)
			c := call(tc.tool, nil)
			c.SessionID, c.Scope, c.Direct = tc.session, tc.scope, tc.direct
			_, err := run(t, e, c)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || errorCode(err) != tc.code || IsTransient(err) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v (code %s), want %s containing %q", err, errorCode(err), tc.code, tc.msg)
			}
			if _, statErr := os.Stat(marker); statErr == nil {
				t.Fatal("a refused tool ran")
			}
			if tc.code == CodePermissionDenied && !errors.Is(err, ErrPermissionDenied) {
				t.Fatal("not ErrPermissionDenied")
			}
		})
	}
}
