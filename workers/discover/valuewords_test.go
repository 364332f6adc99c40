package discover

import (
	"slices"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// The words of a value (a path, an address, a quote) say what a request is
// about, not what to do with it: the keyword side does not search them
// unless the request has nothing else a tool knows.
func TestValueWordsNotSearched(t *testing.T) {
	e, err := New([]schemas.Manifest{
		{ID: "files/count_lines", Name: "count_lines", Description: "Count the lines of a text file."},
		{ID: "files/tail", Name: "tail", Description: "Show the last lines of a log file, such as a server log."},
		{ID: "net/resolve", Name: "resolve", Description: "Look up the addresses of a host in the hosts file."},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct {
		request string
		want    []string // searched
		not     []string // not searched
	}{
		{"count the lines in /var/log/app.log", []string{"count", "line"}, []string{"log", "app"}},
		{`count the lines of "server log"`, []string{"count", "line"}, []string{"log", "server"}},
		{"count the log lines in /var/log/app.log", []string{"count", "line", "log"}, nil},                  // said outside the path too
		{"/var/log/app.log", []string{"log"}, nil},                                                          // nothing but a value
		{"please check /etc/hosts", []string{"host"}, nil},                                                  // nothing else any tool knows
		{"mail ann@example.org the lines", []string{"line"}, []string{"exampl", "example"}},                 // an address
		{"count the lines at example.org", []string{"count", "line"}, []string{"exampl", "example", "org"}}, // a host
	} {
		e.mu.RLock()
		got := e.searchTerms(e.parse(c.request))
		e.mu.RUnlock()
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q searches %v, without %q", c.request, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("%q searches %v, with %q from a value", c.request, got, w)
			}
		}
	}

	res, err := e.Search(t.Context(), "how many lines are in /var/log/syslog", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 || res[0].ToolID != "files/count_lines" {
		t.Errorf("how many lines are in a log file ranks %v; want files/count_lines first, not the tool the path's words describe", ids(res))
	}
}
