// Package parse is the pure core of the parse stage: it finds the tool
// intents ([TOOL: …] markers) and direct calls (<tool_call> elements) in an
// agent's output, whole (Parser.Parse) or as it streams (Parser.NewStream).
// It knows nothing of NATS; a binding feeds it AgentOutputs or chunks and
// publishes what it returns.
//
// # Markers
//
// A marker is "[", optional spaces or tabs, "TOOL" in any case, optional
// spaces or tabs, ":", the intent text, and the "]" that balances the "[":
//
//	[TOOL: run the google maps scraper for tech companies, limit 50]
//	[tool:x]   [ Tool : x ]   [TOOL :x]
//
// At most 16 spaces or tabs may stand on either side of "TOOL", and no line
// break. Not markers: "[TOOLS: …]", "[TOOL …]", "[TO OL: …]". There is no
// escape syntax; to show a marker without calling it, put it in code.
//
// The text may span lines. It is trimmed and every run of whitespace (any
// Unicode space, line breaks included) becomes one space. Brackets inside it
// balance, so "[TOOL: sort [1, 2, 3] ascending]" reads "sort [1, 2, 3]
// ascending", and inline code inside it is opaque: in "[TOOL: grep for `]`]"
// the "]" in backticks does not close the marker (the backticks stay in the
// text). Quotes do not protect a bracket: in [TOOL: find "]"] the first "]"
// closes the marker.
//
// Markers nest to any depth. An inner marker is an intent of its own, run
// first: it is numbered before its outer marker, which lists it in DependsOn
// and reads it in place of the inner marker:
//
//	[TOOL: run [TOOL: search for latest deploy script]]
//	→ 0 "search for latest deploy script"
//	  1 "run search for latest deploy script", DependsOn [0], Nested [{0, 4, 35}]
//
// Nested gives the byte span of each inner intent's text in the outer text:
// the stage binding holds the outer intent back, and the join stage
// (package join) puts the inner intent's result in that span before the
// outer intent is discovered.
//
// Intents and calls share one numbering, in run order: an inner marker
// before its outer one, otherwise by position. Ids are
// "<message_id>.<index>". Start and End are the byte offsets of the whole
// marker; ContextBefore and ContextAfter hold up to WithContextChars runes
// (500 by default) of the raw text around it, never splitting a character.
//
// # Problems and errors
//
// A marker with nothing in it ("[TOOL: ]") is a CodeEmptyIntent problem; if
// it was nested, its outer marker simply reads without it.
//
// A marker is unterminated (CodeUnterminated) when its paragraph ends before
// its "]": at a blank line, at a code fence line, at a <tool_call>, or at the
// end of the output. An intent may span lines but not paragraphs: this keeps
// a forgotten "]" from swallowing the rest of the output (a direct call
// included), and lets a Stream know early. Every marker still open there is reported; markers that closed
// inside it are intents of their own (they just have no outer marker), and
// scanning goes on after the cut. So in
//
//	[TOOL: first, oops
//	then [TOOL: second] — fine
//
// "second" is intent 0 and "first" a problem; after a blank line instead of
// the line break, the same. The alternative, reading the rest of the output
// again as if the bad "[" were text, would give the same answer for almost
// every real output at a quadratic worst case, and would make a Stream hold
// everything after an open marker until the end.
//
// Problems carry the byte offset and a message for the agent quoting the
// offending text. Past 64 problems, one CodeTooManyProblems problem counts
// the rest.
//
// Whole-output failures are *Error: CodeTooLarge (over WithMaxTextBytes,
// 256 KiB by default), CodeInvalidUTF8, CodeTooManyIntents (more intents
// and calls together than WithMaxIntents, 32 by default) and
// CodeInvalidMessageID. The output then yields nothing. Nothing here panics
// on any input.
//
// # Code
//
// Markers and calls inside code are documentation, not requests, and are
// skipped unless WithCodeIntents(true):
//
//   - Fenced blocks: a line of three or more backticks or tildes (after at
//     most 16 spaces or tabs, so fences in list items count), whose info
//     string has no backtick; closed by a line of at least as many of the same
//     character and nothing else, or by the end of the output.
//   - Inline code: a run of backticks closed by the next run of exactly as
//     many on the same line. An unmatched run is plain text. (CommonMark lets
//     a span cross lines within a paragraph; stopping at the line end means a
//     stray backtick hides at most the rest of its line.)
//
// Indented code blocks, HTML <code>/<pre> and block quotes are not
// recognised.
//
// # Direct calls
//
// A <tool_call> element outside code is a call that skips discovery (one
// inside a marker's paragraph cuts the marker, as said above). Three forms
// are accepted:
//
//	<tool_call name="disk_usage">{"path": "/tmp"}</tool_call>
//	<tool_call name="uptime"/>
//	<tool_call>{"name": "disk_usage", "arguments": {"path": "/tmp"}}</tool_call>
//	<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type>
//	  <action>run</action><item_id>system/disk_usage</item_id>
//	  <parameters>{"path": "/tmp"}</parameters><confidence>0.9</confidence>
//	</tool_call>
//
// In the attribute form (first two lines) the name attribute is the tool id
// and the body a JSON object of parameters, or empty. The JSON form (third
// line) is the common "JSON in <tool_call>" format of open models
// ("arguments" may also be called "parameters", or be a string holding the
// JSON object). In the element form, <parameters> holds a JSON object or one child element per parameter
// (<parameters><path>/tmp</path></parameters>); child parameters are strings,
// nested elements objects and repeated elements arrays. meta_tool defaults to
// execute and must be search, load, execute or help; execute needs a tool id
// (item_id or name). item_type defaults to "tool", and action to "run" for
// execute, so every form of the same call gives the same ToolCall. JSON
// bodies are read raw, so "<" and "&" need no escaping in them; a bare "&"
// is accepted in XML text too. A call that breaks any of this is a
// CodeBadToolCall problem with the reason.
//
// A "<tool_call" without a </tool_call> after it is CodeUnterminated, and the
// text after it is read again as prose, so an unclosed call hides no intent.
// (Its content is data until the end tag, so a Stream holds what follows an
// unclosed "<tool_call" until the end of the output.)
package parse
