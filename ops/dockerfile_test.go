package ops_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The compose keys service writes the keys into a named volume as the
// image's user. A new named volume takes the owner of the directory it is
// mounted on, and Docker creates a missing one as root: so the image must
// have that directory, owned by its user, or the service fails on mkdir
// and restarts forever, and no server or worker ever starts.
func TestComposeKeysVolumeWritableByImageUser(t *testing.T) {
	raw, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(raw)
	users := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindAllStringSubmatch(df, -1)
	if len(users) == 0 {
		t.Fatal("Dockerfile: no USER")
	}
	user := users[len(users)-1][1]

	cf := readCompose(t)
	keys, ok := cf.Services["keys"]
	if !ok {
		t.Fatal("compose.yaml: no keys service")
	}
	checked := 0
	for _, v := range keys.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 || strings.HasPrefix(parts[0], ".") || strings.HasPrefix(parts[0], "/") || strings.HasSuffix(v, ":ro") {
			continue // only writable named volumes
		}
		dir := parts[1]
		// RUN … install -d -o USER … DIR, or mkdir … DIR && chown USER … DIR
		owned := regexp.MustCompile(`(?m)^RUN .*(install -d[^&\n]*-o ` + regexp.QuoteMeta(user) + `[^&\n]* ` + regexp.QuoteMeta(dir) + `\b|chown[^&\n]* ` + regexp.QuoteMeta(user) + `\S* [^&\n]*` + regexp.QuoteMeta(dir) + `\b)`)
		if !owned.MatchString(df) {
			t.Errorf("the keys service writes the volume %s at %s as %s, but the image does not create %s owned by %s", parts[0], dir, user, dir, user)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("compose.yaml: the keys service mounts no writable named volume")
	}
}
