package resolve

import "regexp"

// Scopes: "the failed pods in payments", "stop i-0abc in us-east-1",
// "scale checkout in the prod namespace" say where in a system the thing
// lives: a namespace, a region, a cluster, a project.

// scopeNames name a parameter for where in a system a thing lives.
var scopeNames = setOf("namespace", "ns", "region", "zone", "environment", "env", "cluster", "workspace", "project",
	"account", "datacenter", "stage", "tenant", "context")

// scopeCode is a scope written as a code: lower-case letters and digits
// joined by hyphens, dots or underscores ("us-east-1", "prod-eu",
// "team_a").
var scopeCode = regexp.MustCompile(`^[a-z][a-z0-9]*(?:[-._][a-z0-9]+)+$`)

// scopeProp: p takes a scope: a text parameter named for one, with no
// enum (an enum's members are read by the enum rules).
func scopeProp(p *property) bool {
	return stringProp(p) && len(p.enum) == 0 && !isIDProp(p) && !p.date && fitsName(p, scopeNames)
}

// applyScopes is the rule scopes: the word after "in" or "on" fills the
// one missing scope parameter (namespace, region, cluster, environment …)
// when it is a code ("in us-east-1"), or a plain lower-case word that ends
// its clause or meets a preposition, no idiom's ("in detail"), no time
// ("in March") and no word of the tool's; "in the prod namespace", the
// parameter's own noun after it, whatever the word.
func (f *filler) applyScopes() {
	target := f.soleMissingWhere(func(p *property) bool { return p.scope })
	if target == nil {
		return
	}
	for i := 0; i+1 < len(f.toks); i++ {
		if w := f.toks[i].word; !f.free(i) || w != "in" && w != "on" || endsClause(f.toks[i].raw) {
			continue
		}
		k := i + 1
		if f.free(k) && f.toks[k].word == "the" && !endsClause(f.toks[k].raw) {
			k++
		}
		if k >= len(f.toks) || !f.free(k) || capWord(f.toks[k].raw) {
			continue
		}
		w, last := f.toks[k].word, k
		named := k+1 < len(f.toks) && f.free(k+1) && !endsClause(f.toks[k].raw) && f.isNameWord(target, f.toks[k+1].word)
		switch {
		case named:
			last = k + 1
		case scopeCode.MatchString(w):
		case f.scopeWord(k, w):
		default:
			continue
		}
		if f.try(target, w) {
			f.useTokens(rangeIdx(i, last)...)
		}
		return
	}
}

// scopeWord: w, at token k, can name a scope as a plain word: it ends its
// clause or meets a preposition, and is no common word, no idiom's end,
// no time and no word of the tool's.
func (f *filler) scopeWord(k int, w string) bool {
	ends := k+1 == len(f.toks) || endsClause(f.toks[k].raw) || prepositions[f.toks[k+1].word] || shortPreps[f.toks[k+1].word] ||
		f.toks[k+1].word == "and"
	return ends && f.bareName(w)
}
