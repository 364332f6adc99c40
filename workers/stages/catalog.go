package stages

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// catalogTTL is how long a registry summary is reused: not-found answers
// need counts, not the latest tool, and counting a large registry takes a
// while.
const catalogTTL = 5 * time.Second

// catalogServers is how many servers a summary lists by name.
const catalogServers = 20

// catalog is route.Catalog over the set's engine and registry.
type catalog struct {
	set *Set

	mu     sync.Mutex
	at     time.Time
	counts map[string]int // server → tools
	byID   map[string]string
	total  int
}

func (c *catalog) Unmatched(text string) []string { return c.set.Engine().Unmatched(text) }

// Summary counts tools per server among those scope admits, largest first.
func (c *catalog) Summary(scope []string) schemas.Catalog {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil || time.Since(c.at) > catalogTTL {
		c.refresh()
	}
	counts := c.counts
	total := c.total
	if len(scope) > 0 {
		// Walk the scope, not the registry: scopes are short.
		counts, total = map[string]int{}, 0
		whole := map[string]bool{}
		for _, s := range scope {
			if n, ok := c.counts[s]; ok && !whole[s] {
				whole[s] = true
				counts[s] = n
				total += n
			}
		}
		seen := map[string]bool{}
		for _, id := range scope {
			if server, ok := c.byID[id]; ok && !whole[server] && !seen[id] {
				seen[id] = true
				counts[server]++
				total++
			}
		}
	}
	out := schemas.Catalog{Tools: total, Servers: make([]schemas.ServerCount, 0, len(counts))}
	for s, n := range counts {
		out.Servers = append(out.Servers, schemas.ServerCount{Server: s, Tools: n})
	}
	slices.SortFunc(out.Servers, func(a, b schemas.ServerCount) int {
		if c := cmp.Compare(b.Tools, a.Tools); c != 0 {
			return c
		}
		return cmp.Compare(a.Server, b.Server)
	})
	if len(out.Servers) > catalogServers {
		out.MoreServers = len(out.Servers) - catalogServers
		out.Servers = out.Servers[:catalogServers]
	}
	return out
}

// refresh counts the registry's tools per server; the meta-tools are left
// out, being always there. Caller holds mu.
func (c *catalog) refresh() {
	c.counts, c.byID, c.total = map[string]int{}, map[string]string{}, 0
	for _, m := range c.set.registry.All() {
		if c.set.builtin[m.ID] {
			continue
		}
		server := m.ServerName()
		if server == "" {
			server = "(no server)"
		}
		c.counts[server]++
		c.byID[m.ID] = server
		c.total++
	}
	c.at = time.Now()
}
