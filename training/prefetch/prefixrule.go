package prefetch

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/route"
)

// A prefix rule would let discovery answer an intent from the search of one
// of its word prefixes, made while the agent was still writing, when that
// search looks settled enough to be the whole intent's answer (same top
// tool, same tier). What follows measures whether such a rule exists at the
// precision an answer needs: rows of searched prefixes (CollectPrefixes),
// a threshold rule over what is known when the prefix's search ends
// (PrefixRule), fitted on one collection and checked on another.

// PrefixRow is one word prefix of an intent, searched.
type PrefixRow struct {
	Query string `json:"query"`
	// Words is the prefix's word count; Missing how many of the intent's
	// words it lacks (at least 1).
	Words   int `json:"words"`
	Missing int `json:"missing"`
	// Conf is the prefix's top confidence, Margin its lead over the
	// second; Agree how many prefixes in a row, this one included, had
	// the same top tool and tier (at most 3).
	Conf   float64 `json:"conf"`
	Margin float64 `json:"margin"`
	Agree  int     `json:"agree"`
	// Same: the prefix's top tool and tier are the whole intent's.
	Same bool `json:"same"`
}

// CollectPrefixes searches every prefix of at least minWords words of each
// query, and the whole query, with e.
func CollectPrefixes(ctx context.Context, e Engine, th route.Thresholds, qs []eval.Query, minWords int, progress func(done, total int)) ([]PrefixRow, error) {
	type answer struct {
		tool, tier   string
		conf, margin float64
	}
	search := func(id, text string) (answer, error) {
		c, err := e.Discover(ctx, schemas.Intent{ID: id, SessionID: "prefix-rule", Text: text})
		if err != nil {
			return answer{}, fmt.Errorf("search %q: %w", text, err)
		}
		var a answer
		if len(c.Candidates) > 0 {
			a.tool, a.conf = c.Candidates[0].ToolID, c.Candidates[0].Confidence
			a.margin = a.conf
			if len(c.Candidates) > 1 {
				a.margin -= c.Candidates[1].Confidence
			}
		}
		a.tier = th.Tier(a.conf)
		return a, nil
	}
	var rows []PrefixRow
	for i, q := range qs {
		if progress != nil {
			progress(i, len(qs))
		}
		words := strings.Fields(q.Query)
		final, err := search(q.ID, q.Query)
		if err != nil {
			return nil, err
		}
		var prev []answer
		for n := minWords; n < len(words); n++ {
			a, err := search(q.ID, strings.Join(words[:n], " "))
			if err != nil {
				return nil, err
			}
			agree := 1
			for k := len(prev) - 1; k >= 0 && agree < 3 && prev[k].tool == a.tool && prev[k].tier == a.tier; k-- {
				agree++
			}
			prev = append(prev, a)
			rows = append(rows, PrefixRow{Query: q.ID, Words: n, Missing: len(words) - n, Conf: a.conf, Margin: a.margin,
				Agree: agree, Same: a.tool == final.tool && a.tier == final.tier})
		}
	}
	return rows, nil
}

// PrefixRule accepts a prefix's answer for the whole intent's.
type PrefixRule struct {
	MinWords  int     `json:"min_words"`
	MinConf   float64 `json:"min_conf"`
	MinMargin float64 `json:"min_margin"`
	MinAgree  int     `json:"min_agree"`
}

// Accepts says whether the rule takes the row's answer.
func (r PrefixRule) Accepts(p PrefixRow) bool {
	return p.Words >= r.MinWords && p.Conf >= r.MinConf && p.Margin >= r.MinMargin && p.Agree >= r.MinAgree
}

// PrefixFigures are a rule's figures over intents, for prefixes lacking at
// least Lead words (those whose search can end before "]" at a given
// speed): Covered intents have such a prefix the rule accepts (the
// longest is the one used), Right of them have the whole intent's answer.
type PrefixFigures struct {
	Lead      int     `json:"lead"`
	Intents   int     `json:"intents"`
	Covered   int     `json:"covered"`
	Right     int     `json:"right"`
	Coverage  float64 `json:"coverage"`
	Precision float64 `json:"precision"`
}

// Evaluate applies the rule to rows (CollectPrefixes order: by intent,
// then by growing prefix).
func (r PrefixRule) Evaluate(rows []PrefixRow, lead int) PrefixFigures {
	f := PrefixFigures{Lead: lead}
	used := map[string]PrefixRow{}
	seen := map[string]bool{}
	for _, p := range rows {
		if !seen[p.Query] {
			seen[p.Query] = true
			f.Intents++
		}
		if p.Missing >= lead && r.Accepts(p) {
			used[p.Query] = p // later rows are longer prefixes
		}
	}
	for _, p := range used {
		f.Covered++
		if p.Same {
			f.Right++
		}
	}
	if f.Intents > 0 {
		f.Coverage = float64(f.Covered) / float64(f.Intents)
	}
	if f.Covered > 0 {
		f.Precision = float64(f.Right) / float64(f.Covered)
	}
	return f
}

// FitPrefixRule searches a grid of rules for the one covering the most
// intents at lead with a precision of at least minPrecision on rows; ok is
// false when none reaches it.
func FitPrefixRule(rows []PrefixRow, lead int, minPrecision float64) (PrefixRule, PrefixFigures, bool) {
	return bestRule(rows, lead, func(f PrefixFigures) bool { return f.Precision >= minPrecision },
		func(a, b PrefixFigures) bool {
			return a.Covered > b.Covered || a.Covered == b.Covered && a.Precision > b.Precision
		})
}

// MostPrecise is the grid's rule of the highest precision at lead among
// those covering at least minCoverage of the intents: how close the
// collection comes when no rule reaches the precision asked.
func MostPrecise(rows []PrefixRow, lead int, minCoverage float64) (PrefixRule, PrefixFigures, bool) {
	return bestRule(rows, lead, func(f PrefixFigures) bool { return f.Coverage >= minCoverage },
		func(a, b PrefixFigures) bool {
			return a.Precision > b.Precision || a.Precision == b.Precision && a.Covered > b.Covered
		})
}

// bestRule is the grid's rule whose figures at lead are admissible and
// better than every other admissible rule's; ok is false when none is.
func bestRule(rows []PrefixRow, lead int, admissible func(PrefixFigures) bool, better func(a, b PrefixFigures) bool) (PrefixRule, PrefixFigures, bool) {
	var best PrefixRule
	var bf PrefixFigures
	ok := false
	for _, r := range grid() {
		f := r.Evaluate(rows, lead)
		if f.Covered == 0 || !admissible(f) {
			continue
		}
		if !ok || better(f, bf) {
			best, bf, ok = r, f, true
		}
	}
	return best, bf, ok
}

// grid is the rules FitPrefixRule and MostPrecise choose among.
func grid() []PrefixRule {
	var out []PrefixRule
	for _, w := range []int{2, 3, 4, 5, 6, 8} {
		for _, c := range []float64{0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98} {
			for _, m := range []float64{0, 0.1, 0.2, 0.3, 0.5, 0.7} {
				for _, a := range []int{1, 2, 3} {
					out = append(out, PrefixRule{MinWords: w, MinConf: c, MinMargin: m, MinAgree: a})
				}
			}
		}
	}
	return out
}
