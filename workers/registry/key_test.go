package registry

import (
	"regexp"
	"testing"
)

var validKVKey = regexp.MustCompile(`^[-/_=a-zA-Z0-9]+$`)

func TestKeyRoundTrip(t *testing.T) {
	for _, id := range []string{"a", "maps/google_maps_scraper", "requestFirst Aid Assistance", "x.y..z", "ünïcode/名前", "a=b", "-", "/lead/", "tool%20"} {
		k := Key(id)
		if !validKVKey.MatchString(k) {
			t.Errorf("Key(%q) = %q: not a valid KV key", id, k)
		}
		back, err := IDOfKey(k)
		if err != nil || back != id {
			t.Errorf("IDOfKey(Key(%q)) = %q, %v", id, back, err)
		}
	}
	for _, bad := range []string{"a=", "a=4", "a=ZZ"} {
		if _, err := IDOfKey(bad); err == nil {
			t.Errorf("IDOfKey(%q) accepted", bad)
		}
	}
}
