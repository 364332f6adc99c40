package execute

import (
	"sort"
	"strings"
	"unicode"

	"github.com/toolyard/toolyard/schemas"
)

// localSearch is the search used when the Executor has no SearchFunc: the
// share of query words found in a tool's id, name, description and
// keywords. It scans the whole registry, which is fine for the small
// registries of tests and single-process setups; discovery's index is the
// real search.
func (e *Executor) localSearch(query string, k int) []schemas.Candidate {
	terms := searchTerms(query)
	if len(terms) == 0 {
		return nil
	}
	var all []schemas.Manifest
	if e.reg != nil {
		all = e.reg.All()
	}
	for id, m := range e.builtins {
		if e.reg != nil {
			if _, inReg := e.reg.Get(id); inReg {
				continue // already listed, possibly overridden
			}
		}
		all = append(all, m)
	}
	var hits []schemas.Candidate
	for _, m := range all {
		hay := map[string]bool{}
		for _, s := range append([]string{m.ID, m.Name, m.Description}, m.Keywords...) {
			for _, w := range searchTerms(s) {
				hay[w] = true
			}
		}
		n := 0
		for _, t := range terms {
			if hay[t] {
				n++
			}
		}
		if n == 0 {
			continue
		}
		conf := float64(n) / float64(len(terms))
		hits = append(hits, schemas.Candidate{
			ToolID: m.ID, Name: m.Name, Description: m.Description, Keywords: m.Keywords,
			Server: m.ServerName(), Score: float64(n), Confidence: conf, MatchType: schemas.MatchKeyword,
		})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ToolID < hits[j].ToolID
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

var searchStop = map[string]bool{"a": true, "an": true, "the": true, "for": true, "of": true, "to": true,
	"and": true, "or": true, "in": true, "on": true, "with": true, "that": true, "tool": true, "tools": true}

// searchTerms lower-cases and splits text into words, dropping plural s so
// "files" finds "file".
func searchTerms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if searchStop[w] || len(w) < 2 {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") {
			w = w[:len(w)-1]
		}
		out = append(out, w)
	}
	return out
}
