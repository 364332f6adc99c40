package parse_test

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/parse"
)

// prose is agent-like Markdown: paragraphs, lists, a link, inline code, a
// fenced block, no markers.
func prose(n int) string {
	const para = "I looked at the deployment logs for the last three releases. The failures " +
		"all start after the cache warm-up step, which suggests the new config loader is " +
		"reading a stale file. Next, I'll compare the `config.yaml` in staging with the one in " +
		"production, then check whether the [runbook](https://example.com/runbook) covers it.\n\n" +
		"1. Collect the logs from each node (about 40 MB in total).\n" +
		"2. Diff the configs: keys, values, and ordering.\n" +
		"3. Report the result with a short summary, < 200 words.\n\n" +
		"```yaml\ncache:\n  warmup: true\n  ttl: 300s\n```\n\n"
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(para)
	}
	return b.String()[:n]
}

func benchParse(b *testing.B, p *parse.Parser, text string) {
	b.Helper()
	out := output(text)
	if _, err := p.Parse(out); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = p.Parse(out)
	}
}

// BenchmarkParsePlain: 64 KiB of prose without markers, the common case.
func BenchmarkParsePlain(b *testing.B) {
	benchParse(b, parse.New(), prose(64<<10))
}

// BenchmarkParseIntents: an 8 KiB answer with 5 intents, one nested, and a call.
func BenchmarkParseIntents(b *testing.B) {
	text := prose(8<<10) + "\nNow: [TOOL: run the google maps scraper for tech companies, limit 50], then " +
		"[TOOL: summarize [TOOL: fetch https://example.com/report]] and [TOOL: email the summary to ops].\n" +
		"Finally [TOOL: open a ticket for the config drift].\n" +
		`<tool_call name="disk_usage">{"path": "/tmp"}</tool_call>` + "\n" + prose(2<<10)
	benchParse(b, parse.New(), text)
}

// BenchmarkParseAdversarial: 256 KiB built to hurt a naive scanner: unclosed
// openers, deep unclosed nesting, near-miss openers, backtick runs of
// growing length on one line, unclosed calls, brackets.
func BenchmarkParseAdversarial(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 256<<10-64<<10 {
		sb.WriteString(strings.Repeat("[TOOL:", 2000))
		sb.WriteString("\n\n" + strings.Repeat("[TOOL: a [", 1000) + "\n\n")
		sb.WriteString(strings.Repeat("[TOO [ TOOL <tool_cal [TOOL x ", 300))
		sb.WriteString(backtickRuns(80, " [ "))
		sb.WriteString("\n" + strings.Repeat("<tool_call ", 300) + "\n")
	}
	text := sb.String()[:256<<10-64<<10]
	benchParse(b, parse.New(), text)
}

// BenchmarkStream: the 64 KiB prose in 16-byte chunks, as tokens arrive.
func BenchmarkStream(b *testing.B) {
	text := prose(64 << 10)
	p := parse.New()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		st := p.NewStream("s", "m")
		for i := 0; i < len(text); i += 16 {
			if _, err := st.Write(text[i:min(i+16, len(text))]); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
	}
}
