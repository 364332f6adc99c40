//go:build experiment

package prefetch

// What answering an intent from a prefix's vectors changes, the intent's
// own words searched as written: for each query, the fresh search against
// the same search with every vector embedded from the query less its last
// m words.
//
//	TOOLYARD_MODEL_DIR=/tmp/model go test -tags experiment ./training/prefetch -run TestExperimentPrefixVectors -v -timeout 30m

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/route"
)

func TestExperimentPrefixVectors(t *testing.T) {
	ctx := context.Background()
	emb, err := embed.NewLocal()
	if err != nil {
		t.Skip(err)
	}
	th := route.DefaultThresholds()
	run := func(name, tools, queries, model string) {
		e := hybridEngine(t, emb, tools, model)
		defer e.Close()
		type tally struct{ n, gated, changed, changedTool, gatedHigh, changedHigh int }
		leads := []int{1, 2, 3, 4, 5, 6}
		byLead := map[int]*tally{}
		for _, m := range leads {
			byLead[m] = &tally{}
		}
		type gate struct {
			conf, margin float64
			n, changed   int
		}
		var gates []*gate
		for _, c := range []float64{0, 0.5, 0.7, 0.85, 0.9} {
			for _, mg := range []float64{0, 0.2, 0.4, 0.6} {
				gates = append(gates, &gate{conf: c, margin: mg})
			}
		}
		defer func() {
			for _, g := range gates {
				t.Logf("%s lead 3: conf ≥ %.2f margin ≥ %.1f: %d taken, %d changed (%.2f%%)", name, g.conf, g.margin, g.n, g.changed, 100*float64(g.changed)/float64(max(g.n, 1)))
			}
		}()
		for _, q := range evaltest.Queries(t, queries) {
			words := strings.Fields(q.Query)
			fresh, err := e.Search(ctx, q.Query, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(fresh) == 0 {
				continue
			}
			fv, _ := emb.EmbedQuery(ctx, q.Query)
			for _, m := range leads {
				if len(words)-m < 2 {
					continue
				}
				prefix := strings.Join(words[:len(words)-m], " ")
				tl := byLead[m]
				tl.n++
				pv, _ := emb.EmbedQuery(ctx, prefix)
				if cosine32(fv, pv) < 0.8 {
					continue
				}
				tl.gated++
				sub, err := e.SearchVectorsOf(ctx, q.Query, prefix, 0)
				if err != nil {
					t.Fatal(err)
				}
				changed := len(sub) == 0 || sub[0].ToolID != fresh[0].ToolID || th.Tier(sub[0].Confidence) != th.Tier(fresh[0].Confidence)
				if changed {
					tl.changed++
				}
				if len(sub) == 0 || sub[0].ToolID != fresh[0].ToolID {
					tl.changedTool++
				}
				if len(sub) > 0 {
					margin := sub[0].Confidence
					if len(sub) > 1 {
						margin -= sub[1].Confidence
					}
					for _, g := range gates {
						if sub[0].Confidence >= g.conf && margin >= g.margin && (m == 3) {
							g.n++
							if changed {
								g.changed++
							}
						}
					}
				}
				if len(sub) > 0 && sub[0].Confidence >= 0.95 {
					tl.gatedHigh++
					if changed {
						tl.changedHigh++
					}
				}
			}
		}
		for _, m := range leads {
			tl := byLead[m]
			t.Logf("%s lacking %d words: %d prefixes, %d with cosine ≥ 0.8 (%.1f%%), changed %d (%.2f%%; tool %d), conf ≥ 0.95: %d changed %d",
				name, m, tl.n, tl.gated, 100*float64(tl.gated)/float64(max(tl.n, 1)), tl.changed, 100*float64(tl.changed)/float64(max(tl.gated, 1)), tl.changedTool, tl.gatedHigh, tl.changedHigh)
		}
	}
	run("MetaTool", evaltest.Path(t, "metatool", "tools.jsonl"), evaltest.Path(t, "metatool", "learn", "queries.jsonl"), os.Getenv("TOOLYARD_MODEL_DIR"))
	run("Seal-Tools", evaltest.Path(t, "sealtools", "tools.jsonl"), evaltest.Path(t, "sealtools", "queries.dev.jsonl"), "")
}
