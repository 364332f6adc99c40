package discover

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// fixtureTools is a small registry shaped like a real one: namespaced ids,
// snake_case and camelCase names, JSON Schema parameters.
func fixtureTools() []schemas.Manifest {
	return []schemas.Manifest{
		{ID: "system/disk_usage", Name: "disk_usage", Description: "Report how much space files and directories take up on a drive.",
			Parameters: params(`{"path":{"type":"string","description":"Directory to measure"},"human_readable":{"type":"boolean"}}`)},
		{ID: "system/list_processes", Name: "list_processes", Description: "List running processes with their CPU and memory use.",
			Parameters: params(`{"sort_by":{"type":"string","enum":["cpu","memory"]}}`)},
		{ID: "maps/google_maps_scraper", Name: "google_maps_scraper", Description: "Scrape business listings (name, address, phone, rating) from Google Maps search results.",
			Keywords:   []string{"places", "leads"},
			Parameters: params(`{"query":{"type":"string","description":"What to search for, e.g. dentists in Berlin"},"limit":{"type":"integer","description":"Maximum number of places"}}`)},
		{ID: "weather/getForecast", Name: "getForecast", Description: "Get the weather forecast for a city for the coming days.",
			Parameters: params(`{"city":{"type":"string"},"days":{"type":"integer"},"units":{"type":"string","enum":["metric","imperial"]}}`)},
		{ID: "github/create_issue", Name: "create_issue", Description: "Open a new issue in a GitHub repository.", Server: "github",
			Parameters: params(`{"repo":{"type":"string","description":"owner/name of the repository"},"title":{"type":"string"},"body":{"type":"string"},"labels":{"type":"array","items":{"type":"string"}}}`)},
		{ID: "github/list_pull_requests", Name: "list_pull_requests", Description: "List open pull requests of a GitHub repository.", Server: "github",
			Parameters: params(`{"repo":{"type":"string"},"state":{"type":"string","enum":["open","closed","all"]}}`)},
		{ID: "mail/send_email", Name: "send_email", Description: "Send an email message to one or more recipients.",
			Parameters: params(`{"to":{"type":"array","items":{"type":"string"}},"subject":{"type":"string"},"body":{"type":"string"}}`)},
		{ID: "calendar/create_event", Name: "create_event", Description: "Create a calendar event with attendees, start time and duration.",
			Parameters: params(`{"title":{"type":"string"},"start":{"type":"string","description":"Start time, RFC 3339"},"attendees":{"type":"array","items":{"type":"string"}}}`)},
		{ID: "translate/translate_text", Name: "translate_text", Description: "Translate text from one language into another.",
			Parameters: params(`{"text":{"type":"string"},"target_language":{"type":"string","description":"ISO 639-1 code of the language to translate into"}}`)},
		{ID: "db/run_sql_query", Name: "run_sql_query", Description: "Run a read-only SQL query against the analytics database.",
			Examples:   []string{"how many orders did we get last week"},
			Parameters: params(`{"sql":{"type":"string"}}`)},
	}
}

func params(props string) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":` + props + `}`)
}

func newFixture(t testing.TB, opts ...Option) *Engine {
	t.Helper()
	e, err := New(fixtureTools(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// compactNow compacts the index and waits until no update is pending.
func (e *Engine) compactNow() {
	for {
		e.comp.running.Wait()
		e.mu.Lock()
		if e.comp.pending == 0 && !e.comp.active {
			e.mu.Unlock()
			return
		}
		e.comp.pending = max(e.comp.pending, e.cfg.compactAfter)
		e.maybeCompact()
		e.mu.Unlock()
	}
}

func ids(cs []schemas.Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ToolID
	}
	return out
}

// Vocabulary of the synthetic registry: tools are verb × object × service,
// described in sentences of the kind real manifests use.
var (
	synVerbs = []string{"get", "list", "create", "update", "delete", "search", "send", "fetch", "analyze",
		"convert", "export", "import", "generate", "summarize", "validate", "scrape", "upload", "download",
		"schedule", "monitor", "archive", "tag", "share", "sync"}
	synObjects = []string{"issue", "pull request", "email", "calendar event", "invoice", "customer", "order",
		"file", "image", "video", "forecast", "stock price", "repository", "ticket", "contact", "playlist",
		"flight", "hotel booking", "recipe", "document", "spreadsheet", "table", "log entry", "metric",
		"alert", "deployment", "container", "user", "report", "comment", "task", "note", "payment", "shipment"}
	synServices = []string{"github", "gitlab", "slack", "drive", "jira", "salesforce", "shopify", "aws",
		"kubernetes", "spotify", "stripe", "zendesk", "notion", "dropbox", "twitter", "youtube", "gmail",
		"outlook", "trello", "asana", "hubspot", "airtable", "figma", "linear", "sentry", "datadog"}
	synFiller = []string{"quickly", "securely", "in bulk", "with filters", "by date range", "for a team",
		"with pagination", "across projects", "using the official API", "and return JSON", "for auditing",
		"with retries", "for reporting", "in real time", "from a workspace", "with custom fields"}
	// synDetail gives each description a few words of its own, as real
	// descriptions have; without them thousands of tools would tie exactly.
	synDetail = strings.Fields(`archived nested regional private shared starred pinned draft public
		recurring overdue pending failed approved rejected flagged urgent scheduled recent legacy
		primary secondary external internal temporary encrypted compressed signed verified cached
		batch incremental hourly daily weekly monthly quarterly annual realtime streaming delayed
		summary detail metadata history audit version snapshot backup template attachment preview
		thumbnail transcript caption subtitle owner assignee reviewer watcher member guest admin
		billing shipping invoice refund discount coupon tax currency locale timezone language
		region zone cluster namespace node volume bucket queue topic channel thread mention
		reaction label milestone sprint epic story backlog roadmap release changelog`)
	synParams = []struct{ name, desc string }{
		{"id", "Identifier of the item"}, {"query", "Free-text search query"}, {"limit", "Maximum number of results"},
		{"since", "Only items after this date"}, {"project", "Project or workspace name"}, {"format", "Output format such as csv or json"},
		{"owner", "Account that owns the item"}, {"title", "Human readable title"}, {"body", "Content in markdown"},
		{"recipients", "Email addresses to notify"}, {"region", "Cloud region"}, {"tags", "Labels to attach"},
	}
)

// syntheticTools generates n distinct, deterministic manifests.
func syntheticTools(n int) []schemas.Manifest {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	out := make([]schemas.Manifest, 0, n)
	for i := 0; i < n; i++ {
		verb := synVerbs[r.IntN(len(synVerbs))]
		obj := synObjects[r.IntN(len(synObjects))]
		svc := synServices[r.IntN(len(synServices))]
		snake := strings.ReplaceAll(verb+" "+obj, " ", "_")
		var props []string
		for _, j := range r.Perm(len(synParams))[:2+r.IntN(4)] {
			p := synParams[j]
			props = append(props, fmt.Sprintf(`%q:{"type":"string","description":%q}`, p.name, p.desc))
		}
		detail := make([]string, 2+r.IntN(6))
		for j := range detail {
			detail[j] = synDetail[r.IntN(len(synDetail))]
		}
		desc := fmt.Sprintf("%s %ss in %s %s. Works %s. Handles %s items.", strings.ToUpper(verb[:1])+verb[1:], obj, svc,
			synFiller[r.IntN(len(synFiller))], synFiller[r.IntN(len(synFiller))], strings.Join(detail, ", "))
		out = append(out, schemas.Manifest{
			ID:          fmt.Sprintf("%s/%s_%d", svc, snake, i),
			Name:        snake,
			Description: desc,
			Keywords:    []string{svc, obj},
			Parameters:  params("{" + strings.Join(props, ",") + "}"),
		})
	}
	return out
}

// syntheticQueries are intents in the registry's vocabulary, phrased the way
// agents write them.
func syntheticQueries(n int) []string {
	r := rand.New(rand.NewPCG(2, uint64(n)))
	forms := []string{
		"%s the latest %s from %s",
		"please %s every %s in %s for the last week, limit 20",
		"can you %s my %s on %s and send me a summary",
		"%s %s %s",
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(forms[r.IntN(len(forms))], synVerbs[r.IntN(len(synVerbs))],
			synObjects[r.IntN(len(synObjects))], synServices[r.IntN(len(synServices))])
	}
	return out
}
