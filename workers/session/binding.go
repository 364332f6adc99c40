package session

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// StageName is the stage (and durable consumer) that seeds and ends sessions.
const StageName = "session"

// EndPrefix + session is where an agent platform says a session is over.
const EndPrefix = schemas.AgentEndPrefix

// EndSubject is the subject that ends a session.
func EndSubject(session string) string { return EndPrefix + session }

// Stage binds the seeder to the agent log: agent.output.<session> seeds
// the session's set on its first output; agent.end.<session> clears it.
// Each decision gets an audit record. Outputs too broken to read are left
// to the parse stage, which answers them; here they are skipped.
func Stage(s *Seeder) pipeline.Stage {
	return pipeline.Stage{
		Name:     StageName,
		Stream:   pipeline.StreamAgent,
		Subjects: []string{schemas.AgentOutputPrefix + ">", EndPrefix + ">"},
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			session := bind.SessionOf(m.Subject)
			if CheckID(session) != nil {
				return nil, nil
			}
			if strings.HasPrefix(m.Subject, EndPrefix) {
				n, err := s.store.End(ctx, session)
				if err != nil {
					return nil, err
				}
				ref := "end-" + strconv.FormatUint(m.StreamSeq, 10)
				return []pipeline.Out{bind.Audit(schemas.AuditRecord{
					SessionID: session, Stage: StageName, MessageID: ref,
					Decision: "ended", Result: strconv.Itoa(n) + " tools cleared",
				})}, nil
			}
			var out schemas.AgentOutput
			if schemas.CheckJSONUTF8(m.Data) != nil || json.Unmarshal(m.Data, &out) != nil || out.SessionID != session {
				return nil, nil
			}
			if out.MessageID == "" {
				out.MessageID = "seq-" + strconv.FormatUint(m.StreamSeq, 10)
			}
			set, seeded, err := s.Seed(ctx, out)
			if err != nil || !seeded {
				return nil, err
			}
			a := schemas.AuditRecord{
				SessionID: session, Stage: StageName, MessageID: out.MessageID,
				IntentExpressed: clip(out.Text, 500), Decision: "seeded", Result: "seeded", Error: set.Degraded,
				Candidates: set.IDs(),
			}
			if set.Degraded != "" {
				a.Result = "degraded"
			}
			return []pipeline.Out{bind.Audit(a)}, nil
		},
	}
}
