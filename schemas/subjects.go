package schemas

// Subjects of the public contract. A session id is a single subject token.
const (
	// AgentOutputPrefix + session: where agents publish their output.
	AgentOutputPrefix = "agent.output."
	// AgentStreamPrefix + session: streamed token chunks of an output.
	AgentStreamPrefix = "agent.stream."
	// AgentEndPrefix + session: where an agent platform says a session is over.
	AgentEndPrefix = "agent.end."
	// ResultPrefix + session: where the agent reads results.
	ResultPrefix = "result."
	// AuditPrefix + stage + "." + session: one record per decision.
	AuditPrefix = "audit."
)

// ResultSubject is the subject an agent reads its session's results from.
func ResultSubject(session string) string { return ResultPrefix + session }

// AgentOutputSubject is the subject an agent publishes its output to.
func AgentOutputSubject(session string) string { return AgentOutputPrefix + session }

// AgentStreamSubject is the subject an agent streams its output's chunks to.
func AgentStreamSubject(session string) string { return AgentStreamPrefix + session }

// AgentEndSubject is the subject an agent says its session is over on.
func AgentEndSubject(session string) string { return AgentEndPrefix + session }

// AuditSubject is the subject of one stage's audit records for a session.
func AuditSubject(stage, session string) string { return AuditPrefix + stage + "." + session }
