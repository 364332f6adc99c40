package route

import (
	"github.com/toolyard/toolyard/schemas"
)

// Catalog is what routing knows of the registry beyond an intent's
// candidates: enough to tell an agent whose request matched nothing which
// of its words the registry does not know and what it does offer.
type Catalog interface {
	// Unmatched returns the describing words of text no tool contains.
	Unmatched(text string) []string
	// Summary counts the tools per server, restricted to scope (tool ids
	// or server names) when it is not empty.
	Summary(scope []string) schemas.Catalog
}

// Option configures the routing stages.
type Option func(*options)

type options struct {
	catalog       Catalog
	disambiguator Disambiguator
	chooseTimeout float64 // seconds; 0 means DefaultChooseTimeout
}

// WithCatalog lets not-found answers name the unknown words and summarise
// the registry. Without it they say only that nothing matched.
func WithCatalog(c Catalog) Option { return func(o *options) { o.catalog = c } }

func newOptions(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Route decides an intent's tier like Decide, recognises the explicit
// meta-tool commands ("activate ID", "find_tools QUERY") and, for a
// not-found intent, adds what the catalog knows: the words nothing matched
// and a summary of the servers in scope.
func Route(c schemas.Candidates, th Thresholds, cat Catalog) Decision {
	if d, ok := command(c.Intent); ok {
		return d
	}
	d := Decide(c, th)
	if d.Tier != schemas.TierNotFound || cat == nil {
		return d
	}
	d.Unmatched = cat.Unmatched(c.Intent.Text)
	sum := cat.Summary(c.Intent.Scope)
	d.Available = &sum
	if sum.Tools == 0 && len(c.Intent.Scope) > 0 {
		// Nothing was searched: rephrasing cannot help, the scope can.
		d.Unmatched = nil
		d.Message = emptyScopeMessage(quoteIntent(c.Intent.Text), c.Intent.Scope)
		return d
	}
	d.Message = notFoundMessage(quoteIntent(c.Intent.Text), head(byConfidence(c.Candidates), nearestShown), d.Unmatched, d.Available)
	return d
}
