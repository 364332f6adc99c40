package replay

// pageHTML is the report page. Everything is inline: it must open from a
// file, offline, years later.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Toolyard replay: {{.S.Intents}} intents</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.figs { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.fig svg { max-width: 100%; height: auto; }
.gained { color: #1a7f37; } .lost { color: #c62828; }
.headline span { display: inline-block; margin-right: 2em; font-size: 1.1em; }
small { color: #666; }
</style>
</head>
<body>
<h1>Replay: what the candidate would change</h1>
<p class="headline">
<span><b>{{.S.Intents}}</b> intents replayed</span>
<span><b>{{.S.ChangedTier}}</b> changed tier</span>
<span><b>{{.S.ChangedTool}}</b> changed tool</span>
<span class="gained"><b>{{.S.Gained}}</b> gained</span>
<span class="lost"><b>{{.S.Lost}}</b> lost</span>
</p>
<p><small>Baseline: {{.S.Baseline.Source}}. Candidate: {{.S.Candidate.Source}}.
Candidate tiers: activated ≥ {{.Th.Activate}}, alternatives ≥ {{.Th.Multiple}}, weak ≥ {{.Th.Weak}}.
{{with .S.Skipped}}Not replayable: {{range $k, $v := .}}{{$v}} {{$k}}; {{end}}{{end}}
{{.S.Labelled}} intents carry a label (what the agent wanted, derived as <code>toolyard train</code> does).
Replayed at {{printf "%.0f" .S.Throughput.IntentsPerSec}} intents/s {{if .S.Throughput.Workers}}on {{.S.Throughput.Workers}} workers{{else}}on the cluster's replay workers{{end}}; no tool was run.</small></p>

<h2>Metrics</h2>
<table>
<tr><th></th><th>baseline</th><th>candidate</th></tr>
{{range .Metric}}<tr><td>{{.Name}}</td><td class="n">{{.Baseline}}</td><td class="n">{{.Candidate}}</td></tr>
{{end}}</table>
<p><small>Rates are over labelled intents. Precision of not_found: share of not_found answers whose top candidate was wrong (refusing was right);
its coverage: share of wrong top candidates answered not_found.</small></p>

<h2>Tier transitions</h2>
<div class="figs"><div class="fig" id="plot-transitions">{{.P.Transitions}}</div></div>

<h2>Top tool changes</h2>
<p><small>Intents whose most confident tool differs between the sides, whatever their tiers.</small></p>
<div class="figs"><div class="fig" id="plot-tool-changes">{{.P.ToolChanges}}</div></div>
{{if .S.ToolChanges}}<table>
<tr><th>baseline tool</th><th>candidate tool</th><th>intents</th><th>examples</th></tr>
{{range .S.ToolChanges}}<tr><td>{{or .From "—"}}</td><td>{{or .To "—"}}</td><td class="n">{{.Count}}</td><td>{{range .Examples}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>{{end}}

<h2>Thresholds</h2>
<p><small>Each side's labelled intents, tiered again at every threshold: activated when the top confidence is at or above it
(precision: its tool is the label's; coverage: share of labelled intents activated), not_found when below the weak threshold.
{{if not .S.Baseline.Metrics.ECE}}The baseline has no confidences (the audit recorded none), so only the candidate is drawn.{{end}}</small></p>
<div class="figs">
<div class="fig" id="plot-activated">{{.P.Activated}}</div>
<div class="fig" id="plot-not-found">{{.P.NotFound}}</div>
</div>

<h2>Calibration and latency</h2>
<div class="figs">
<div class="fig" id="plot-reliability">{{.P.Reliability}}</div>
<div class="fig" id="plot-latency">{{.P.Latency}}</div>
</div>

<h2>Gained and lost, per tool</h2>
<p><small>An intent is gained when the candidate would run the tool its label names where the baseline would not (or would
not run a wrong one where the baseline would), lost the other way round.</small></p>
{{if .S.PerTool}}<table>
<tr><th>tool</th><th>gained</th><th>lost</th></tr>
{{range .S.PerTool}}<tr><td>{{.Tool}}</td><td class="n gained">{{.Gained}}</td><td class="n lost">{{.Lost}}</td></tr>
{{end}}</table>{{else}}<p>No labelled intent was gained or lost.</p>{{end}}

<h2>Changed intents</h2>
{{if .Shown}}<table>
<tr><th>intent</th><th>label</th><th>baseline</th><th>candidate</th><th>effect</th></tr>
{{range .Shown}}<tr><td>{{.Text}}</td><td>{{.Label}}</td>
<td>{{.Baseline.Tier}} {{.Baseline.Tool}} {{conf .Baseline.Confidence}}</td>
<td>{{.Candidate.Tier}} {{.Candidate.Tool}} {{conf .Candidate.Confidence}}</td>
<td class="{{.Effect}}">{{.Effect}}</td></tr>
{{end}}</table>
<p><small>Showing {{len .Shown}}; summary.json lists up to 500{{if .S.ChangesOmitted}} ({{.S.ChangesOmitted}} more not listed){{end}}.</small></p>
{{else}}<p>Nothing changed.</p>{{end}}
</body>
</html>
`
