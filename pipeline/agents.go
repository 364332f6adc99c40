package pipeline

import "github.com/toolyard/toolyard/pipeline/auth"

// ConsumerCreateProxy is the subject prefix under which agents' requests
// to create a consumer reach TOOLYARD: the AGENTS account imports
// "$JS.API.CONSUMER.CREATE.<stream>.>" renamed to it, and Toolyard's
// service checks each request before passing it on to the JetStream API
// (a push consumer's deliver subject would be another reply subject an
// agent names in TOOLYARD; see auth.Share).
const ConsumerCreateProxy = "toolyard_jsapi.CONSUMER.CREATE"

// Agent-facing names owned by the workers (the service's subjects, the
// sessions bucket): roles.TestAgentShares keeps them in step.
const (
	agentServiceSubjects = "toolyard.>"
	agentSessionsBucket  = "sessions"
)

// AgentShares are the TOOLYARD subjects agents' account imports: what an
// agent credential can do at all (its own permissions narrow it to its
// sessions).
var AgentShares = []auth.Share{
	{Subject: "agent.>", Why: "publishing outputs, token chunks and session ends, with JetStream's acknowledgement"},
	{Subject: agentServiceSubjects, Why: "the service's endpoints (find_tools, activate, tools/list, …)"},
	// Imported, the account information also keeps the server from
	// answering AGENTS' other JetStream requests itself ("JetStream not
	// enabled for account") before the imports below do: it adds its own
	// API import only to an account that imports none of it.
	{Subject: "$JS.API.INFO", Why: "clients asking whether JetStream is there"},
	{Subject: "$JS.API.STREAM.INFO." + StreamResult, Why: "reading results"},
	{Subject: ConsumerCreateProxy + "." + StreamResult + ".>", Local: "$JS.API.CONSUMER.CREATE." + StreamResult + ".>", Why: "reading results: pull consumers only, checked by the service"},
	{Subject: "$JS.API.CONSUMER.MSG.NEXT." + StreamResult + ".*", Replies: true, Why: "reading results"},
	{Subject: "$JS.API.CONSUMER.INFO." + StreamResult + ".*", Why: "reading results"},
	{Subject: "$JS.API.CONSUMER.DELETE." + StreamResult + ".*", Why: "reading results"},
	{Subject: "$KV." + agentSessionsBucket + ".*", Feed: true, Why: "watching the session's tool set"},
}
