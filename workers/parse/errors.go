package parse

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Codes of Problems (one marker or call) and Errors (the whole output).
const (
	// CodeEmptyIntent: a marker with nothing to do in it, e.g. "[TOOL: ]".
	CodeEmptyIntent = "empty_intent"
	// CodeUnterminated: a marker without its "]" before the end of its
	// paragraph, or a <tool_call> without </tool_call>.
	CodeUnterminated = "unterminated"
	// CodeBadToolCall: a <tool_call> that is malformed or incomplete.
	CodeBadToolCall = "bad_tool_call"
	// CodeTooManyProblems: the problems past the first 64, counted in one.
	CodeTooManyProblems = "too_many_problems"

	// CodeTooManyIntents: more intents and calls than WithMaxIntents allows.
	CodeTooManyIntents = "too_many_intents"
	// CodeTooLarge: more text than WithMaxTextBytes allows.
	CodeTooLarge = "too_large"
	// CodeInvalidUTF8: the text is not UTF-8.
	CodeInvalidUTF8 = "invalid_utf8"
	// CodeInvalidMessageID: the output's message id cannot make intent ids.
	CodeInvalidMessageID = "invalid_message_id"
	// CodeConversationTooLarge: a conversation over WithMaxConversationBytes.
	CodeConversationTooLarge = "conversation_too_large"
	// CodeInvalidSession: the subject's session is not a session id, or the
	// output names another session.
	CodeInvalidSession = "invalid_session"
	// CodeRateLimited: the session published outputs faster than the parse
	// stage's rate limit allows.
	CodeRateLimited = "rate_limited"
	// CodeInvalidTimeZone: the output's timezone is not an IANA time zone.
	CodeInvalidTimeZone = "invalid_timezone"
)

// Problem is something wrong with one marker or call. The rest of the output
// is still parsed and its good items returned.
type Problem struct {
	Code string `json:"code"`
	// Pos is the byte offset in the output text where the marker or call starts.
	Pos int `json:"pos"`
	// Message tells the agent what is wrong and how to fix it, quoting a short
	// excerpt of the offending text.
	Message string `json:"message"`
}

// Error is a failure of the whole output: nothing of it is to be run.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return "parse: " + e.Message }

// ErrorCode is the code an error result carries (see bind.CodeOf).
func (e *Error) ErrorCode() string { return e.Code }

// Is matches any *Error with the same code, so errors.Is(err, ErrTooLarge)
// works whatever the message says.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is.
var (
	ErrTooManyIntents   = &Error{Code: CodeTooManyIntents, Message: "too many intents"}
	ErrTooLarge         = &Error{Code: CodeTooLarge, Message: "output too large"}
	ErrInvalidUTF8      = &Error{Code: CodeInvalidUTF8, Message: "invalid UTF-8"}
	ErrInvalidMessageID = &Error{Code: CodeInvalidMessageID, Message: "invalid message id"}
	// ErrConversationTooLarge matches a conversation over the limit.
	ErrConversationTooLarge = &Error{Code: CodeConversationTooLarge, Message: "conversation too large"}
	// ErrInvalidSession matches a bad or mismatched session id.
	ErrInvalidSession = &Error{Code: CodeInvalidSession, Message: "invalid session id"}
	// ErrRateLimited matches an output refused by the rate limit.
	ErrRateLimited = &Error{Code: CodeRateLimited, Message: "rate limited"}
	// ErrInvalidTimeZone matches an output whose timezone is no IANA zone.
	ErrInvalidTimeZone = &Error{Code: CodeInvalidTimeZone, Message: "invalid time zone"}
)

// ErrClosed is returned by Write on a closed Stream.
var ErrClosed = errors.New("parse: write to a closed stream")

// maxMessageID keeps "<message_id>.<index>" within the 256 bytes an id may have.
const maxMessageID = 240

func checkMessageID(id string) *Error {
	switch {
	case id == "":
		return &Error{Code: CodeInvalidMessageID, Message: "the output has no message_id; intent ids are derived from it"}
	case len(id) > maxMessageID:
		return &Error{Code: CodeInvalidMessageID, Message: fmt.Sprintf("the message_id is %d bytes long, over the limit of %d", len(id), maxMessageID)}
	case strings.ContainsFunc(id, isIDSpace) || !utf8.ValidString(id):
		return &Error{Code: CodeInvalidMessageID, Message: fmt.Sprintf("the message_id %q must be valid UTF-8 without whitespace", id)}
	}
	return nil
}

// isIDSpace matches what the contract's \S excludes (ECMAScript \s).
func isIDSpace(r rune) bool { return unicode.IsSpace(r) || r == 0xFEFF }

func errTooLarge(n, limit int, streamed bool) *Error {
	if streamed {
		return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("the streamed output passed %d bytes, over the limit of %d bytes per output; send it in smaller parts, or raise the limit with --max-output-bytes on toolyard up / worker", n, limit)}
	}
	return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("the output is %d bytes, over the limit of %d bytes per output; send it in smaller parts, or raise the limit with --max-output-bytes on toolyard up / worker", n, limit)}
}

func errInvalidUTF8(at int) *Error {
	return &Error{Code: CodeInvalidUTF8, Message: fmt.Sprintf("the output is not valid UTF-8 (bad byte at offset %d); send UTF-8 text", at)}
}

func errConversationTooLarge(n, limit, perIntent int) *Error {
	return &Error{Code: CodeConversationTooLarge, Message: fmt.Sprintf("the conversation is %d bytes, over the limit of %d bytes per output; send only its recent turns (each intent carries at most its last %d bytes anyway), or raise the limit with --max-conversation-bytes on toolyard up / worker", n, limit, perIntent)}
}

func errTooMany(limit int) *Error {
	return &Error{Code: CodeTooManyIntents, Message: fmt.Sprintf("the output holds more than %d tool intents and calls, the limit per output; spread them over several messages, or raise the limit with --max-intents on toolyard up / worker", limit)}
}

// Reasons an open marker was cut short, as the end of a sentence.
const (
	cutBlank = "the blank line that ends its paragraph"
	cutFence = "the code fence that follows it"
	cutCall  = "the <tool_call> that follows it"
	cutEnd   = "the end of the output"
)

func msgEmpty(pos int, excerpt string) string {
	return fmt.Sprintf("The tool intent at byte %d, %q, is empty: write what you need between the colon and the closing bracket, e.g. [TOOL: list the files in /tmp].", pos, excerpt)
}

func msgUnterminated(pos int, excerpt, cut string) string {
	return fmt.Sprintf("The tool intent at byte %d, %q, is never closed: there is no \"]\" before %s. Close it with \"]\"; an intent may span lines but not a blank line, a code fence or a <tool_call>.", pos, excerpt, cut)
}

func msgUnclosedCall(pos int, excerpt string) string {
	return fmt.Sprintf("The <tool_call> at byte %d, %q, is never closed: no </tool_call> follows it. Close it with </tool_call>, or write a call without parameters as <tool_call name=\"TOOL_ID\"/>.", pos, excerpt)
}

func msgBadCall(pos int, excerpt string, err error) string {
	return fmt.Sprintf("The <tool_call> at byte %d, %q, is invalid: %v. Write <tool_call name=\"TOOL_ID\">{\"param\": \"value\"}</tool_call>, or the element form with <meta_tool>, <item_id> and <parameters>.", pos, excerpt, err)
}

func msgTooManyProblems(n int) string {
	return fmt.Sprintf("%d more problems were found but not listed; fix the ones above first.", n)
}
