package auth_test

import (
	"path/filepath"
	"testing"

	"github.com/nats-io/jwt/v2"

	"github.com/toolyard/toolyard/pipeline/auth"
)

func TestMayPublish(t *testing.T) {
	k, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, perms jwt.Permissions) string {
		c, err := k.Mint(auth.User{Name: name, Permissions: perms})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), name+".creds")
		if err := c.WriteFile(file); err != nil {
			t.Fatal(err)
		}
		return file
	}
	var stage jwt.Permissions
	stage.Pub.Allow.Add("$JS.API.CONSUMER.MSG.NEXT.PIPE.execute", "pipe.>", "$JS.API.STREAM.INFO.*")
	stage.Pub.Deny.Add("pipe.secret.>")
	admin, worker := write("admin", jwt.Permissions{}), write("execute", stage)
	for _, tc := range []struct {
		name, file, subject string
		want                bool
	}{
		{"admin publishes anything", admin, "$JS.API.CONSUMER.MSG.NEXT.PIPE.discover", true},
		{"its own stage", worker, "$JS.API.CONSUMER.MSG.NEXT.PIPE.execute", true},
		{"another stage", worker, "$JS.API.CONSUMER.MSG.NEXT.PIPE.discover", false},
		{"a longer subject than a literal allow", worker, "$JS.API.CONSUMER.MSG.NEXT.PIPE.execute.x", false},
		{"> covers one token", worker, "pipe.discover", true},
		{"> covers several", worker, "pipe.discover.s1", true},
		{"> needs one token", worker, "pipe", false},
		{"* is one token", worker, "$JS.API.STREAM.INFO.PIPE", true},
		{"* is not two", worker, "$JS.API.STREAM.INFO.PIPE.x", false},
		{"deny wins", worker, "pipe.secret.s1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := auth.MayPublish(tc.file, tc.subject)
			if err != nil || got != tc.want {
				t.Errorf("MayPublish(%s) = %v, %v; want %v", tc.subject, got, err, tc.want)
			}
		})
	}
	if _, err := auth.MayPublish(filepath.Join(t.TempDir(), "none.creds"), "x"); err == nil {
		t.Error("a missing credential file is no error")
	}
}
