package parse

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/toolyard/toolyard/schemas"
)

// Parser finds the tool intents and direct calls of agent outputs. It holds
// only its configuration: one Parser serves any number of goroutines.
type Parser struct {
	cfg config
}

// New returns a Parser with the given options.
func New(opts ...Option) *Parser {
	return &Parser{cfg: newConfig(opts)}
}

// Parsed is what one output (or one Stream chunk) yielded.
type Parsed struct {
	// Intents are the plain-language intents, for discovery, in run order.
	Intents []schemas.Intent
	// Calls are the direct <tool_call>s, straight to execution, in run order.
	Calls []schemas.ToolCall
	// Problems are the markers and calls that could not be used, in the
	// order they were found; the good items are returned all the same.
	Problems []Problem
	// ConversationCut is set when the intents carry only the end of the
	// output's conversation (WithIntentConversationBytes).
	ConversationCut *ConversationCut
}

// IDs lists the ids of every intent and call, merged in run order: the
// intent ids an "accepted" result announces. Ids are "<message_id>.<index>".
func (p Parsed) IDs() []string {
	type item struct {
		index int
		id    string
	}
	items := make([]item, 0, len(p.Intents)+len(p.Calls))
	for _, in := range p.Intents {
		items = append(items, item{in.Index, in.ID})
	}
	for _, c := range p.Calls {
		items = append(items, item{indexOf(c.IntentID), c.IntentID})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].index < items[j].index })
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.id
	}
	return ids
}

func indexOf(id string) int {
	n, _ := strconv.Atoi(id[strings.LastIndexByte(id, '.')+1:])
	return n
}

// Parse finds every intent and direct call of an agent output.
//
// A whole-output failure (no or bad message id, too large, invalid UTF-8,
// too many intents, too large a conversation) returns an *Error and nothing else: none of the output is
// to be run. Problems with single markers come back in Parsed.Problems.
//
// The contexts of the intents are substrings of out.Text, not copies.
func (p *Parser) Parse(out schemas.AgentOutput) (Parsed, error) {
	if err := checkMessageID(out.MessageID); err != nil {
		return Parsed{}, err
	}
	if len(out.Text) > p.cfg.maxTextBytes {
		return Parsed{}, errTooLarge(len(out.Text), p.cfg.maxTextBytes, false)
	}
	if !utf8.ValidString(out.Text) {
		return Parsed{}, errInvalidUTF8(firstInvalid(out.Text))
	}
	if n := conversationBytes(out.Conversation); n > p.cfg.maxConvBytes {
		return Parsed{}, errConversationTooLarge(n, p.cfg.maxConvBytes, p.cfg.intentConv)
	}
	if out.TimeZone != "" {
		if _, err := schemas.TimeZone(out.TimeZone); err != nil {
			return Parsed{}, &Error{Code: CodeInvalidTimeZone, Message: err.Error()}
		}
	}
	meta, cut := p.cfg.metaOf(out)
	s := scanner{cfg: &p.cfg, meta: meta, buf: bytesOf(out.Text), src: out.Text, whole: true}
	s.finish()
	if s.err != nil {
		return Parsed{}, s.err
	}
	s.out.ConversationCut = cut
	linkOuter(s.out.Intents)
	return s.out, nil
}

// linkOuter sets each nested intent's Outer to the intent that lists it in
// DependsOn, so that every answer to it reaches the join stage.
func linkOuter(intents []schemas.Intent) {
	if !slices.ContainsFunc(intents, func(in schemas.Intent) bool { return len(in.DependsOn) > 0 }) {
		return // the usual output: nothing nested, no index to build
	}
	pos := make(map[string]int, len(intents))
	for i, in := range intents {
		pos[in.ID] = i
	}
	for _, in := range intents {
		for _, dep := range in.DependsOn {
			if i, ok := pos[dep]; ok {
				intents[i].Outer = in.ID
			}
		}
	}
}

// meta is what every item of one output carries.
type meta struct {
	session, message string
	conversation     []schemas.Message
	scope            []string
	timeZone         string
}

// metaOf is what the intents of out carry: the conversation only up to the
// per-intent limit, one slice that every intent shares.
func (c *config) metaOf(out schemas.AgentOutput) (meta, *ConversationCut) {
	conv, cut := tailConversation(out.Conversation, c.intentConv)
	return meta{session: out.SessionID, message: out.MessageID, conversation: conv, scope: out.Scope, timeZone: out.TimeZone}, cut
}

func (m *meta) id(index int) string { return m.message + "." + strconv.Itoa(index) }

func firstInvalid(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

// bytesOf views s as bytes without copying it: Parse is on the hot path and
// outputs run to hundreds of KiB. This is sound because a scanner holding a
// whole output only reads buf; only a Stream, which owns its buffer, ever
// writes to one.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
