package pipeline

import "github.com/toolyard/toolyard/pipeline/auth"

// APIProxy is the subject prefix under which agents' JetStream requests
// that need a check reach TOOLYARD: the AGENTS account imports
// "$JS.API.<verb>…" renamed to APIProxy+".<verb>…", and every up and
// worker (service.APIProxy) checks each request before passing it on to
// the JetStream API. A consumer's deliver subject would be another subject
// an agent names in TOOLYARD (see auth.Share), and a stream's information
// can list every subject it holds, one per session.
const APIProxy = "toolyard_jsapi"

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
	{Subject: APIProxy + ".STREAM.INFO." + StreamResult, Local: "$JS.API.STREAM.INFO." + StreamResult, Why: "reading results: the stream's state, without its subjects"},
	{Subject: APIProxy + ".CONSUMER.CREATE." + StreamResult + ".>", Local: "$JS.API.CONSUMER.CREATE." + StreamResult + ".>", Why: "reading results: ephemeral pull consumers only"},
	{Subject: "$JS.API.CONSUMER.MSG.NEXT." + StreamResult + ".*", Replies: true, Why: "reading results"},
	{Subject: "$JS.API.CONSUMER.INFO." + StreamResult + ".*", Why: "reading results"},
	{Subject: "$JS.API.CONSUMER.DELETE." + StreamResult + ".*", Why: "reading results"},
	{Subject: "$KV." + agentSessionsBucket + ".*", Feed: true, Why: "watching the session's tool set"},
}
