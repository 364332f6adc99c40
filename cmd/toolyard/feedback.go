package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/service"
)

func newFeedback(g *globalFlags) *cobra.Command {
	var req service.FeedbackRequest
	c := &cobra.Command{
		Use:   "feedback --session S --intent ID (--tool X | --wrong)",
		Short: "Tell Toolyard which tool an intent wanted, or that the tool it ran was wrong",
		Long: `Records feedback on one intent in the AUDIT stream (audit.feedback.<session>),
through the toolyard.feedback endpoint of the micro service. 'toolyard train'
reads it: --tool X labels the intent X (the strongest label there is), --wrong
drops the intent's label and counts its tool (--tool, or the tool that ran) as a
wrong answer for those words. Intent ids are in receipts and results; an intent
the session's audit has no record of is refused, and nothing is recorded.`,
		Example: `  toolyard feedback --session demo --intent turn-7.0 --tool files/checksum
  toolyard feedback --session demo --intent turn-7.1 --wrong`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Checked here: the session is a token of the subject the
			// request goes to, and with a bad one no service can answer
			// ("no toolyard service answers" would blame the server).
			if err := schemas.ValidateSessionID(req.SessionID); err != nil {
				return fmt.Errorf("--session: %w", err)
			}
			if strings.TrimSpace(req.IntentID) == "" {
				return errors.New("--intent is required: the intent's id, from the receipt or its result")
			}
			if !req.Wrong && req.ToolID == "" {
				return errors.New("say which tool the intent wanted (--tool X) or that its tool was wrong (--wrong)")
			}
			nc, err := g.clientConnect("toolyard feedback")
			if err != nil {
				return withUpHint(err)
			}
			defer nc.Close()
			body, err := json.Marshal(req)
			if err != nil {
				return err
			}
			data, err := requestService(cmd.Context(), nc, service.SessionSubject(service.SubjectFeedback, req.SessionID), body)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), string(data))
			var reply service.FeedbackReply
			if json.Unmarshal(data, &reply) == nil && reply.Tier == route.TierUnknown {
				// The service refuses an intent its session never had
				// (404); tier unknown is a direct call, never routed, or
				// an intent beyond what the service searched: recorded,
				// but not judged, which the reply alone does not say.
				fmt.Fprintf(cmd.ErrOrStderr(), "note: no routing decision of intent %q was found in session %q's audit (a direct call is never routed; an old intent may lie beyond what the service searches): the feedback is recorded but not judged right or wrong\n", req.IntentID, req.SessionID)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&req.SessionID, "session", "", "the intent's session")
	fl.StringVar(&req.IntentID, "intent", "", "the intent's id (from the receipt or its result)")
	fl.StringVar(&req.ToolID, "tool", "", "the tool the intent wanted (with --wrong: the tool that was wrong)")
	fl.BoolVar(&req.Wrong, "wrong", false, "the tool the intent ran (or --tool) was the wrong one")
	fl.StringVar(&req.Note, "note", "", "a few words on why (kept with the feedback)")
	return c
}
