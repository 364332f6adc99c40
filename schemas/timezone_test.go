package schemas

import "testing"

func TestTimeZone(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"Europe/Berlin", true},
		{"UTC", true},
		{"America/Argentina/Buenos_Aires", true},
		{"Etc/GMT+5", true},
		{"", false},
		{"Local", false},
		{"Mars/Olympus_Mons", false},
		{"../../etc/passwd", false},
	} {
		loc, err := TimeZone(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("TimeZone(%q) = %v, %v; want ok=%v", tt.name, loc, err, tt.ok)
		}
		if err == nil && loc.String() != tt.name {
			t.Errorf("TimeZone(%q) = %s", tt.name, loc)
		}
	}
}
