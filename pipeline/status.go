package pipeline

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Status is a snapshot of the streams and their consumers.
type Status struct {
	Time    time.Time      `json:"time"`
	Streams []StreamStatus `json:"streams"`
}

// StreamStatus is one stream with its consumers.
type StreamStatus struct {
	Name     string   `json:"name"`
	Subjects []string `json:"subjects"`
	Messages uint64   `json:"messages"`
	Bytes    uint64   `json:"bytes"`
	// UsedPercent is the fullest of the stream's limits (bytes, messages),
	// 0 when it has none: at 100 a publish is refused or old data dropped.
	UsedPercent float64          `json:"used_percent"`
	Consumers   []ConsumerStatus `json:"consumers"`
}

// ConsumerStatus is one consumer: a stage's shared queue.
type ConsumerStatus struct {
	Name        string `json:"name"`
	Pending     uint64 `json:"pending"`
	AckPending  int    `json:"ack_pending"`
	Redelivered int    `json:"redelivered"`
	Waiting     int    `json:"waiting_pulls"`
}

// ReadStatus reads the state of the topology's streams.
func ReadStatus(ctx context.Context, js jetstream.JetStream) (Status, error) {
	st := Status{Time: time.Now().UTC()}
	for _, name := range []string{StreamAgent, StreamPipe, StreamResult, StreamAudit, StreamDLQ} {
		s, err := js.Stream(ctx, name)
		if err != nil {
			return st, err
		}
		info, err := s.Info(ctx)
		if err != nil {
			return st, err
		}
		ss := StreamStatus{Name: name, Subjects: info.Config.Subjects, Messages: info.State.Msgs, Bytes: info.State.Bytes}
		for _, used := range streamUsage(info) {
			ss.UsedPercent = max(ss.UsedPercent, 100*used)
		}
		cl := s.ListConsumers(ctx)
		for ci := range cl.Info() {
			ss.Consumers = append(ss.Consumers, ConsumerStatus{
				Name: ci.Name, Pending: ci.NumPending, AckPending: ci.NumAckPending,
				Redelivered: ci.NumRedelivered, Waiting: ci.NumWaiting,
			})
		}
		st.Streams = append(st.Streams, ss)
	}
	return st, nil
}

var statusPage = template.Must(template.New("status").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Toolyard status</title>
<meta http-equiv="refresh" content="5">
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin-bottom:1.5em}
td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}
th{background:#f4f4f4}
.num{text-align:right;font-variant-numeric:tabular-nums}
</style></head><body>
<h1>Toolyard</h1>
<p>Updated {{.Time.Format "2006-01-02 15:04:05 UTC"}} · <a href="/metrics">metrics</a> · <a href="/status.json">JSON</a></p>
<table id="streams"><tr><th>Stream</th><th>Subjects</th><th class="num">Messages</th><th class="num">Bytes</th><th class="num">Of limit</th></tr>
{{range .Streams}}<tr><td>{{.Name}}</td><td>{{range .Subjects}}{{.}} {{end}}</td><td class="num">{{.Messages}}</td><td class="num">{{.Bytes}}</td><td class="num">{{printf "%.1f" .UsedPercent}} %</td></tr>
{{end}}</table>
<table id="stages"><tr><th>Stream</th><th>Stage</th><th class="num">Waiting</th><th class="num">In progress</th><th class="num">Redelivered</th><th class="num">Pulls</th></tr>
{{range $s := .Streams}}{{range .Consumers}}<tr><td>{{$s.Name}}</td><td>{{.Name}}</td><td class="num">{{.Pending}}</td><td class="num">{{.AckPending}}</td><td class="num">{{.Redelivered}}</td><td class="num">{{.Waiting}}</td></tr>
{{end}}{{end}}</table>
</body></html>`))

// StatusHandlers returns the status page (HTML) and its JSON form.
func StatusHandlers(js jetstream.JetStream) (page, jsonStatus http.Handler) {
	read := func(w http.ResponseWriter, r *http.Request) (Status, bool) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		st, err := ReadStatus(ctx, js)
		if err != nil {
			http.Error(w, "status unavailable: "+err.Error(), http.StatusServiceUnavailable)
			return st, false
		}
		return st, true
	}
	page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st, ok := read(w, r); ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_ = statusPage.Execute(w, st)
		}
	})
	jsonStatus = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st, ok := read(w, r); ok {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(st)
		}
	})
	return page, jsonStatus
}
