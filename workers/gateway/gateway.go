package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
)

// Meta-tool names on the facade.
const (
	ToolFindTools     = "find_tools"
	ToolActivate      = "activate"
	ToolResolveIntent = "resolve_intent"
	ToolExecute       = "execute"
)

// Gateway builds the MCP servers of the facade, one per connection.
type Gateway struct {
	backend Backend
	log     *slog.Logger
	version string
}

// Option configures a Gateway.
type Option func(*Gateway)

// WithLogger sets the logger (slog.Default() by default).
func WithLogger(l *slog.Logger) Option {
	return func(g *Gateway) {
		if l != nil {
			g.log = l
		}
	}
}

// WithVersion sets the server version announced to clients.
func WithVersion(v string) Option { return func(g *Gateway) { g.version = v } }

// New returns a gateway over backend.
func New(backend Backend, opts ...Option) *Gateway {
	g := &Gateway{backend: backend, log: slog.Default(), version: "dev"}
	for _, o := range opts {
		o(g)
	}
	return g
}

// conn is one MCP connection: its Toolyard session and its tool list.
type conn struct {
	g       *Gateway
	session string
	srv     *mcp.Server

	mu     sync.Mutex
	active map[string]string // MCP name → tool id
}

// instructions tell an MCP client how to work with a list that holds only
// the session's active tools, in MCP terms: call find_tools, then the tool
// it added.
const instructions = "Toolyard lists only the tools this session has active. To do something none of them does, " +
	"call find_tools with what the tool should do, in plain words: the good matches join your tool list " +
	"(notifications/tools/list_changed), and you then call the right one by its name with its arguments. " +
	"activate adds a tool by id; resolve_intent finds, fills and runs the right tool from plain words in one call; " +
	"execute runs any registered tool by id."

// Server returns the MCP server of one connection for session, with its
// active tools listed, and keeps the list in step with the session's set
// until ctx ends or the client's session closes.
//
// The SDK's HTTP handler asks for a server on every request, to read its
// protocol versions, and keeps only those that start a session; so a server
// does nothing until its first request after initialize: only then does it list the
// session's tools and watch its set. A server never used holds no watch,
// goroutine or context (each used to watch until the process ended: one
// JetStream consumer more per HTTP request).
func (g *Gateway) Server(ctx context.Context, session string) *mcp.Server {
	c := &conn{g: g, session: session, active: map[string]string{}}
	c.srv = mcp.NewServer(&mcp.Implementation{Name: "toolyard", Title: "Toolyard gateway", Version: g.version}, &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		// The SDK narrates every connection at info; its warnings are enough.
		Logger: slog.New(minLevel{g.log.Handler(), slog.LevelWarn}),
	})
	c.addMeta()
	var once sync.Once
	c.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(rctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			// After initialize: its reply goes out before any
			// notifications/tools/list_changed the listing causes.
			if method != "initialize" {
				once.Do(func() { c.start(ctx, req.GetSession()) })
			}
			return next(rctx, method, req)
		}
	})
	return c.srv
}

// start lists the session's tools and, for a client session that has
// been initialized, watches its set until ctx ends or that session closes.
//
// A request outside an initialized session (a client's server/discover
// probe, a stateless request) is served by a session the SDK closes when
// it has answered: such a server lists the tools but watches nothing, or
// each probe would leave one more consumer on the sessions bucket until
// the server expires it.
func (c *conn) start(ctx context.Context, ss mcp.Session) {
	if err := c.sync(ctx); err != nil {
		c.g.log.Warn("session tools not listed yet", "session", c.session, "error", err)
	}
	s, ok := ss.(*mcp.ServerSession)
	if !ok || s.InitializeParams() == nil {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() { _ = s.Wait(); cancel() }()
	go func() {
		defer cancel()
		if err := c.g.backend.WatchSet(ctx, c.session, func(set schemas.ToolSet, err error) {
			if err == nil {
				c.apply(ctx, set)
			} else if ctx.Err() == nil {
				c.g.log.Warn("session tools not refreshed", "session", c.session, "error", err)
			}
		}); err != nil && ctx.Err() == nil {
			c.g.log.Warn("session set not watched: the list refreshes after this connection's own calls", "session", c.session, "error", err)
		}
	}()
}

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// metaTool is one of the gateway's own tools and its handler.
type metaTool struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

// metaTools are the tools every client sees beside its session's set.
func (c *conn) metaTools() []metaTool {
	return []metaTool{
		{&mcp.Tool{Name: ToolFindTools, Title: "Find tools",
			Description: "Search the tool registry for tools that do what you describe, and add the good matches to your tool list; then call the right one by its name.",
			InputSchema: object(map[string]any{
				"query": str("what the tools should do, in plain words"),
				"k":     map[string]any{"type": "integer", "minimum": 1, "maximum": 50, "description": "how many to look at (default 5)"},
			}, "query")}, c.findTools},
		{&mcp.Tool{Name: ToolActivate, Title: "Activate a tool",
			Description: "Add a registered tool, by id, to your tool list; then call it by the name the reply gives.",
			InputSchema: object(map[string]any{"id": str("the tool id, e.g. files/checksum")}, "id")}, c.activate},
		{&mcp.Tool{Name: ToolResolveIntent, Title: "Do something, in plain words",
			Description: "Say what you want done in plain words (e.g. \"show disk usage of /tmp\"): Toolyard finds the tool, " +
				"fills its arguments and runs it, or answers with the alternatives when it is not sure.",
			InputSchema: object(map[string]any{"text": str("what you want done")}, "text")}, c.resolveIntent},
		{&mcp.Tool{Name: ToolExecute, Title: "Run a tool by id",
			Description: "Run a registered tool by id with arguments (validated against its schema).",
			InputSchema: object(map[string]any{
				"tool_id":   str("the tool id, e.g. files/checksum"),
				"arguments": map[string]any{"type": "object", "description": "the tool's arguments"},
			}, "tool_id")}, c.execute},
	}
}

func (c *conn) addMeta() {
	for _, m := range c.metaTools() {
		c.addMetaTool(m.tool, m.handler)
	}
}

// addMetaTool adds a meta-tool whose handler runs only on arguments that fit
// its input schema.
func (c *conn) addMetaTool(t *mcp.Tool, h mcp.ToolHandler) { c.srv.AddTool(t, checked(t, h)) }

// args decodes a call's arguments.
func args(req *mcp.CallToolRequest, v any) error {
	if len(req.Params.Arguments) == 0 {
		return nil
	}
	if err := json.Unmarshal(req.Params.Arguments, v); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}

func textResult(isErr bool, text string, structured any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: isErr, Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: structured}
}

func failed(err error) *mcp.CallToolResult { return textResult(true, err.Error(), nil) }

func jsonResult(raw json.RawMessage) *mcp.CallToolResult {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return textResult(false, string(raw), nil)
	}
	pretty, _ := json.MarshalIndent(v, "", "  ")
	return textResult(false, string(pretty), v)
}

func (c *conn) findTools(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Query string `json:"query"`
		K     int    `json:"k"`
	}
	if err := args(req, &a); err != nil {
		return failed(err), nil
	}
	raw, err := c.g.backend.FindTools(ctx, c.session, a.Query, a.K)
	if err != nil {
		return failed(err), nil
	}
	c.refresh(ctx)
	return jsonResult(mcpFindReply(raw)), nil
}

func (c *conn) activate(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		ID string `json:"id"`
	}
	if err := args(req, &a); err != nil {
		return failed(err), nil
	}
	raw, err := c.g.backend.Activate(ctx, c.session, a.ID)
	if err != nil {
		return failed(err), nil
	}
	c.refresh(ctx)
	return jsonResult(mcpActivateReply(raw)), nil
}

func (c *conn) resolveIntent(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Text string `json:"text"`
	}
	if err := args(req, &a); err != nil {
		return failed(err), nil
	}
	res, err := c.g.backend.ResolveIntent(ctx, c.session, a.Text)
	if err != nil {
		return failed(err), nil
	}
	// The first intent of a session seeds its set.
	c.refresh(ctx)
	return resultContent(res), nil
}

func (c *conn) execute(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		ToolID    string         `json:"tool_id"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := args(req, &a); err != nil {
		return failed(err), nil
	}
	return c.run(ctx, a.ToolID, a.Arguments), nil
}

func (c *conn) run(ctx context.Context, id string, arguments map[string]any) *mcp.CallToolResult {
	res, err := c.g.backend.Execute(ctx, c.session, id, arguments)
	if err != nil {
		return failed(err)
	}
	return resultContent(res)
}

// resultContent renders a Toolyard result: an executed tool's output as
// text, anything else as its message (with the alternatives), the whole
// result as structured content.
func resultContent(r schemas.Result) *mcp.CallToolResult {
	var structured any
	if b, err := json.Marshal(r); err == nil {
		_ = json.Unmarshal(b, &structured)
	}
	switch r.Status {
	case schemas.StatusExecuted:
		text := ""
		if r.Output != nil {
			if s, ok := r.Output.Content.(string); ok {
				text = s
			} else {
				b, _ := json.MarshalIndent(r.Output.Content, "", "  ")
				text = string(b)
			}
		}
		if len(r.Unmapped) > 0 && r.Message != "" {
			// Words of the request the call did not use: said beside the
			// output, so the client does not take it for the whole answer.
			text += "\n\n(toolyard) " + r.Message
		}
		return textResult(false, text, structured)
	case schemas.StatusError:
		msg := r.Message
		if r.Error != nil {
			msg = r.Error.Code + ": " + r.Error.Message
		}
		return textResult(true, msg, structured)
	}
	var b strings.Builder
	b.WriteString(mcpGuidance(r))
	for _, m := range r.Matches {
		fmt.Fprintf(&b, "\n- %s (%.2f): %s", m.ToolID, m.Confidence, m.Description)
	}
	return textResult(false, b.String(), structured)
}

// mcpGuidance says what to do next in MCP terms — the gateway's tools —
// where the pipeline's message speaks to agents writing [TOOL: …] text.
func mcpGuidance(r schemas.Result) string {
	switch r.Status {
	case schemas.StatusNotFound:
		return "No registered tool does this. Call find_tools with other words for what you need, or answer without a tool."
	case schemas.StatusMissingArguments:
		var b strings.Builder
		for _, u := range r.Unmapped {
			if u.Unplaced() {
				fmt.Fprintf(&b, "%q was not used; parameter %s of %s would take it. ", u.Text, u.Parameter, r.ToolID)
			}
		}
		b.WriteString("The call did not run. Call execute with tool_id " + r.ToolID + " and the arguments, or resolve_intent again with the value written as parameter=value.")
		return b.String()
	case schemas.StatusMultiple, schemas.StatusWeak:
		if len(r.Matches) > 0 && r.Matches[0].Mismatch != nil {
			return nearMissSays(r.Matches[0].ToolID, *r.Matches[0].Mismatch) + " If one below is right anyway, call activate with its id " +
				"(it joins your tool list, with its parameters), then call that tool; otherwise answer without a tool."
		}
		return "More than one tool might do this. Call activate with the id of the right one below (it joins your tool list, with its parameters), " +
			"then call that tool; or call execute with its id and arguments."
	}
	return r.Message
}

// refresh syncs the tool list after a call that may have changed the set;
// a failure is logged (the watch catches up).
func (c *conn) refresh(ctx context.Context) {
	if err := c.sync(ctx); err != nil {
		c.g.log.Warn("session tools not refreshed", "session", c.session, "error", err)
	}
}

// sync makes the listed tools the session's active set: the SDK tells the
// client with notifications/tools/list_changed.
func (c *conn) sync(ctx context.Context) error {
	set, err := c.g.backend.ToolSet(ctx, c.session)
	if err != nil {
		return err
	}
	c.apply(ctx, set)
	return nil
}

// apply makes the listed tools those of set (see sync).
func (c *conn) apply(ctx context.Context, set schemas.ToolSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	want := map[string]schemas.ActiveTool{}
	for _, t := range set.Tools {
		if strings.HasPrefix(t.ID, "toolyard/") {
			continue // the meta-tools are there already
		}
		want[mcpName(t.ID)] = t
	}
	var gone []string
	for name := range c.active {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		c.srv.RemoveTools(gone...)
		for _, n := range gone {
			delete(c.active, n)
		}
	}
	for name, t := range want {
		if c.active[name] == t.ID {
			continue
		}
		c.srv.AddTool(c.toolFor(ctx, name, t), c.caller(t.ID))
		c.active[name] = t.ID
	}
}

// toolFor is the MCP tool of an active tool: its manifest's schema when the
// registry has it.
func (c *conn) toolFor(ctx context.Context, name string, t schemas.ActiveTool) *mcp.Tool {
	tool := &mcp.Tool{Name: name, Title: t.ID, Description: t.Description, InputSchema: map[string]any{"type": "object"}}
	m, err := c.g.backend.Manifest(ctx, c.session, t.ID)
	if err != nil {
		c.g.log.Warn("active tool's manifest not read; listed without its schema", "tool", t.ID, "error", err)
		return tool
	}
	if m.Description != "" {
		tool.Description = m.Description
	}
	if len(m.Parameters) > 0 {
		var schema map[string]any
		if json.Unmarshal(m.Parameters, &schema) == nil && schema["type"] == "object" {
			tool.InputSchema = schema
		}
	}
	return tool
}

func (c *conn) caller(id string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var arguments map[string]any
		if err := args(req, &arguments); err != nil {
			return failed(err), nil
		}
		return c.run(ctx, id, arguments), nil
	}
}

// minLevel drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
