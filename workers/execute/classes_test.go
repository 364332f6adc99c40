package execute

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestClassOf(t *testing.T) {
	for perm, want := range map[string]string{
		"fs.read": "", "fs:read": "", "crm:read": "", "calendar": "",
		"fs.write": ClassWrite, "slack:write": ClassWrite, "email:send": ClassWrite, "github/create-issue": ClassWrite,
		"fs.delete": ClassDelete, "crm:remove": ClassDelete, "db_drop": ClassDelete,
		"net": ClassNetwork, "net:internet": ClassNetwork, "net:dns": ClassNetwork, "NETWORK": ClassNetwork, "http.get": ClassNetwork,
	} {
		if got := ClassOf(perm); got != want {
			t.Errorf("ClassOf(%q) = %q, want %q", perm, got, want)
		}
	}
}

func TestParseGrants(t *testing.T) {
	tests := []struct {
		in      []string
		want    []string
		wantErr string
	}{
		{nil, nil, ""},
		{[]string{"none"}, nil, ""},
		{[]string{"write", " Network ", "write"}, []string{ClassWrite, ClassNetwork}, ""},
		{[]string{"all"}, Classes, ""},
		{[]string{"read", ""}, nil, ""},
		{[]string{"exec"}, nil, `unknown grant "exec": want write, delete, network, all or none`},
	}
	for _, tc := range tests {
		got, err := ParseGrants(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%q: err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// Tools that write, delete or reach the network run only when granted:
// by the worker (--allow), the policy's grant, a session rule's grant, or
// an allowlist naming the permission. Everything else runs by default.
func TestDenyByDefault(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	withPerm := func(id string, perms ...string) schemas.Manifest {
		m := tool(id, "", "/bin/sh", "-c", "echo "+id+" >> "+marker)
		m.Permissions = perms
		return m
	}
	web := schemas.Manifest{ID: "web/get", Description: "GET a page",
		Executor: &schemas.Executor{Kind: schemas.ExecHTTP, URL: "http://127.0.0.1:1/"}}
	noExec := schemas.Manifest{ID: "remote/post", Description: "no executor here", Permissions: []string{"net"}}
	tools := []schemas.Manifest{
		withPerm("fs/read", "fs.read"), withPerm("misc/plain"), withPerm("fs/write", "fs.write"),
		withPerm("fs/delete", "fs.delete"), withPerm("net/fetch", "net:internet"), withPerm("mixed", "fs.write", "fs.delete"),
		web, noExec,
	}
	ci := &Policy{Sessions: []SessionRule{{Match: "ci-*", Allow: []string{"*"}}, {Match: "bot-*", Allow: []string{"fs.read"}, Grant: []string{"network"}}},
		Grant: []string{"delete"}}
	// The http executor is replaced: these cases are about the gate.
	fakeHTTP := WithRunner(schemas.ExecHTTP, func(context.Context, schemas.Manifest, schemas.ToolCall) (schemas.ToolOutput, error) {
		return schemas.ToolOutput{Content: "fetched"}, nil
	})
	named := &Policy{Default: []string{"fs.write"}}

	tests := []struct {
		name    string
		opts    []Option
		session string
		tool    string
		msg     string // "" when it runs
	}{
		{"read-only runs", nil, "s", "fs/read", ""},
		{"undeclared local tool runs", nil, "s", "misc/plain", ""},
		{"write refused", nil, "s", "fs/write", "needs write (permission fs.write), which session s is not granted"},
		{"delete refused", nil, "s", "fs/delete", "needs delete (permission fs.delete)"},
		{"network refused", nil, "s", "net/fetch", "needs network (permission net:internet)"},
		{"both classes named", nil, "s", "mixed", "--allow write,delete on 'toolyard up'"},
		{"http executor implies network", nil, "s", "web/get", "needs network (http executor)"},
		{"no executor: says so first", nil, "s", "remote/post", "has no executor configured"},
		{"--allow write", []Option{WithGrants(ClassWrite)}, "s", "fs/write", ""},
		{"--allow write, delete still refused", []Option{WithGrants(ClassWrite)}, "s", "mixed", "needs delete (permission fs.delete)"},
		{"--allow all", []Option{WithGrants(Classes...)}, "s", "mixed", ""},
		{"policy grant for the rest", []Option{WithPermissions(ci)}, "s", "fs/delete", ""},
		{"policy grant is not a network grant", []Option{WithPermissions(ci)}, "s", "web/get", "needs network (http executor)"},
		{"session rule grant", []Option{WithPermissions(ci)}, "bot-1", "web/get", ""},
		{"session rule allowlist still applies", []Option{WithPermissions(ci)}, "bot-1", "fs/delete", "needs permission(s) fs.delete"},
		{"allowlist * grants all", []Option{WithPermissions(ci)}, "ci-1", "net/fetch", ""},
		{"allowlist naming the permission", []Option{WithPermissions(named)}, "s", "fs/write", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(marker)
			e := newExecutor(t, tools, append(tc.opts, fakeHTTP)...)
			c := call(tc.tool, nil)
			c.SessionID = tc.session
			_, err := run(t, e, c)
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.msg)
			}
			if data, _ := os.ReadFile(marker); len(data) > 0 {
				t.Fatalf("a refused tool ran: %q", data)
			}
		})
	}
}
