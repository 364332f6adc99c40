package schemas

// Subjects of the public contract. A session id is a single subject token.
const (
	// AgentOutputPrefix + session: where agents publish their output.
	AgentOutputPrefix = "agent.output."
	// AgentStreamPrefix + session: streamed token chunks of an output.
	AgentStreamPrefix = "agent.stream."
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

// AuditSubject is the subject of one stage's audit records for a session.
func AuditSubject(stage, session string) string { return AuditPrefix + stage + "." + session }

// ValidSessionID says whether s can be a session id: 1–128 letters, digits,
// '-' and '_' (the session_id pattern of common.json), so that it is always
// one subject token — no dots, wildcards or spaces.
func ValidSessionID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
