package status

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// Page is everything the status page shows.
type Page struct {
	pipeline.Status
	DeadLetters DeadLetters `json:"dead_letters"`
	Activity    Activity    `json:"activity"`
	// Rates are the stages' messages handled per second since the page
	// was last read, by "stream/consumer" (none on a first read).
	Rates map[string]float64 `json:"rates_per_s"`
	// Problems are the parts that could not be read (the rest is shown).
	Problems []string `json:"problems,omitempty"`
}

// DeadLetters are the DLQ's entries by stage.
type DeadLetters struct {
	Total    uint64         `json:"total"`
	ByStage  map[string]int `json:"by_stage"`
	OldestAt time.Time      `json:"oldest_at,omitzero"`
}

// auditTail is how many of the latest audit records the activity is read from.
const auditTail = 500

// Read gathers the page.
func Read(ctx context.Context, js jetstream.JetStream) (Page, error) {
	st, err := pipeline.ReadStatus(ctx, js)
	if err != nil {
		return Page{}, err
	}
	p := Page{Status: st}
	if p.DeadLetters, err = readDeadLetters(ctx, js); err != nil {
		p.Problems = append(p.Problems, "dead letters: "+err.Error())
	}
	if p.Activity, err = ReadActivity(ctx, js, auditTail); err != nil {
		p.Problems = append(p.Problems, "activity: "+err.Error())
	}
	return p, nil
}

func readDeadLetters(ctx context.Context, js jetstream.JetStream) (DeadLetters, error) {
	d := DeadLetters{ByStage: map[string]int{}}
	s, err := js.Stream(ctx, pipeline.StreamDLQ)
	if err != nil {
		return d, err
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(pipeline.DLQPrefix+">"))
	if err != nil {
		return d, err
	}
	d.Total = info.State.Msgs
	if d.Total > 0 {
		d.OldestAt = info.State.FirstTime
	}
	for subj, n := range info.State.Subjects {
		d.ByStage[strings.TrimPrefix(subj, pipeline.DLQPrefix)] += int(n)
	}
	return d, nil
}

// age says how long ago t was, for people.
func age(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return time.Since(t).Round(time.Second).String() + " ago"
}

// sortedKeys lists a map's keys in order, for a stable page.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var page = template.Must(template.New("status").Funcs(template.FuncMap{"age": age, "keys": sortedKeys[int], "feedbackKeys": sortedKeys[*FeedbackTally], "rate": rateOf}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Toolyard status</title>
<meta http-equiv="refresh" content="5">
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin-bottom:1.5em}
td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}
th{background:#f4f4f4}
.num{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:#a00}
</style></head><body>
<h1>Toolyard</h1>
<p>Updated {{.Time.Format "2006-01-02 15:04:05 UTC"}} (every 5 s) · <a href="/metrics">metrics</a> · <a href="/status.json">JSON</a></p>
{{range .Problems}}<p class="bad">{{.}}</p>{{end}}
<h2>Stages</h2>
<table id="stages"><tr><th>Stream</th><th>Stage</th><th class="num">Waiting</th><th class="num">In progress</th><th class="num">Handled/s</th><th class="num">Redelivered</th><th class="num">Pulls</th></tr>
{{range $s := .Streams}}{{range .Consumers}}<tr><td>{{$s.Name}}</td><td>{{.Name}}</td><td class="num">{{.Pending}}</td><td class="num">{{.AckPending}}</td><td class="num">{{rate $.Rates $s.Name .Name}}</td><td class="num">{{.Redelivered}}</td><td class="num">{{.Waiting}}</td></tr>
{{end}}{{end}}</table>
<h2>Decisions</h2>
<p>From the last {{.Activity.Records}} audit records.</p>
<table id="tiers"><tr><th>Tier</th><th class="num">Intents</th></tr>
{{range $t := keys .Activity.Tiers}}<tr><td>{{$t}}</td><td class="num">{{index $.Activity.Tiers $t}}</td></tr>
{{else}}<tr><td colspan="2">none yet</td></tr>{{end}}</table>
<table id="prefetch"><tr><th>Discovery</th><th class="num">Intents</th></tr>
{{range $k := keys .Activity.Discovery}}<tr><td>{{$k}}</td><td class="num">{{index $.Activity.Discovery $k}}</td></tr>
{{else}}<tr><td colspan="2">none yet</td></tr>{{end}}</table>
<table id="feedback"><tr><th>Feedback on</th><th class="num">Top tool right</th><th class="num">Wrong</th><th class="num">Precision</th></tr>
{{range $t := feedbackKeys .Activity.Feedback}}{{with index $.Activity.Feedback $t}}<tr><td>{{$t}}</td><td class="num">{{.Right}}</td><td class="num{{if .Wrong}} bad{{end}}">{{.Wrong}}</td><td class="num">{{printf "%.2f" .Precision}}</td></tr>{{end}}
{{else}}<tr><td colspan="4">no feedback yet (<code>toolyard feedback</code>)</td></tr>{{end}}</table>
<table id="tools"><tr><th>Tool</th><th class="num">Calls</th><th class="num">Errors</th><th>Last call</th></tr>
{{range .Activity.Tools}}<tr><td>{{.ID}}</td><td class="num">{{.Calls}}</td><td class="num{{if .Errors}} bad{{end}}">{{.Errors}}</td><td>{{age .Last}}</td></tr>
{{else}}<tr><td colspan="4">no tool calls yet</td></tr>{{end}}</table>
<h2>Failures</h2>
<table id="failures"><tr><th>When</th><th>Stage</th><th>Session</th><th>Tool</th><th>Error</th></tr>
{{range .Activity.Failures}}<tr><td>{{age .Time}}</td><td>{{.Stage}}</td><td>{{.Session}}</td><td>{{.Tool}}</td><td>{{.Error}}</td></tr>
{{else}}<tr><td colspan="5">none</td></tr>{{end}}</table>
<h2>Dead letters</h2>
<table id="dlq"><tr><th>Stage</th><th class="num">Entries</th></tr>
{{range $s := keys .DeadLetters.ByStage}}<tr><td>{{$s}}</td><td class="num bad">{{index $.DeadLetters.ByStage $s}}</td></tr>
{{else}}<tr><td colspan="2">none</td></tr>{{end}}</table>
{{if .DeadLetters.Total}}<p>Oldest entry {{age .DeadLetters.OldestAt}}: <code>toolyard dlq list</code>.</p>{{end}}
<h2>Streams</h2>
<table id="streams"><tr><th>Stream</th><th>Subjects</th><th class="num">Messages</th><th class="num">Bytes</th><th class="num">Of limit</th><th class="num">Other consumers</th></tr>
{{range .Streams}}<tr><td>{{.Name}}</td><td>{{range .Subjects}}{{.}} {{end}}</td><td class="num">{{.Messages}}</td><td class="num">{{.Bytes}}</td><td class="num">{{printf "%.1f" .UsedPercent}} %</td><td class="num">{{.Ephemeral}}</td></tr>
{{end}}</table>
</body></html>`))

// Handlers are the status page (HTML, refreshing itself) and its JSON form.
func Handlers(js jetstream.JetStream) (html, jsonStatus http.Handler) {
	var meter rateMeter
	read := func(w http.ResponseWriter, r *http.Request) (Page, bool) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		p, err := Read(ctx, js)
		if err != nil {
			http.Error(w, "status unavailable: "+err.Error(), http.StatusServiceUnavailable)
			return p, false
		}
		p.Rates = meter.rates(p.Status)
		return p, true
	}
	html = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := read(w, r); ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = page.Execute(w, p)
		}
	})
	jsonStatus = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := read(w, r); ok {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(p)
		}
	})
	return html, jsonStatus
}
