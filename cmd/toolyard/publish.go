package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/predict"
)

func newPublish(g *globalFlags) *cobra.Command {
	var (
		session      string
		messageID    string
		wait         bool
		timeout      time.Duration
		scope        []string
		timeZone     string
		conversation string
		stream       bool
		tps          float64
	)
	cmd := &cobra.Command{
		Use:   "publish --session S [--wait] [TEXT | -]",
		Short: "Publish agent output for a session and (with --wait) print its results as JSON lines",
		Long: `Publishes an agent output to agent.output.<session>: the text given as arguments,
or standard input with "-" (or no text at all). Intents in the text are written
[TOOL: what you want in plain words]; direct calls as <tool_call name="id">{json args}</tool_call>.

With --wait, prints every result for this output from result.<session>, one JSON
object a line, and exits once each intent is answered. The first line is the
receipt (status "accepted") listing the intent ids to expect.
Exit status: 0 when every result arrived, 2 on timeout, 130 when interrupted
(either way the output runs on, and --message-id ID --wait shows its results
later), 1 on any other error.

With --message-id ID --wait and no TEXT (not even "-"), nothing is published:
the command shows the receipt and results of the output published under ID,
waiting up to --timeout for them. A message id runs one output: publishing
under an id the session used within the streams' duplicate window publishes
nothing; with the same text the earlier receipt and results are shown, with
another text the command says the id was already used and exits 1.

With --stream, the text is first written to agent.stream.<session> token by token
at --tokens-per-second, as an agent streaming its output would ({session_id,
message_id, seq, delta} chunks), then published whole as usual: the predict stage
prefetches the searches of the intents it sees coming.`,
		Example: `  toolyard publish --session demo --wait "[TOOL: show disk usage for path=/tmp]"
  echo "[TOOL: what time is it] and [TOOL: kernel version]" | toolyard publish --session demo --wait -
  toolyard publish --session demo --stream --tokens-per-second 40 --wait "Checking. [TOOL: how long has the system been up?]"
  toolyard publish --session demo --timezone Asia/Tokyo --wait "[TOOL: what time is it]"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := schemas.ValidateSessionID(session); err != nil {
				return fmt.Errorf("--session: %w", err)
			}
			// A timeout already past failed later as "context deadline
			// exceeded (is 'toolyard up' running?)".
			if timeout <= 0 {
				return fmt.Errorf("--timeout %s: want a positive duration", timeout)
			}
			// --message-id ID --wait without TEXT is how an interrupted or
			// timed-out wait is resumed: publishing an empty output there
			// would take the id, and the real output under it would then be
			// dropped as a duplicate.
			attach := wait && len(args) == 0 && cmd.Flags().Changed("message-id")
			if attach && stream {
				return fmt.Errorf("--stream needs TEXT: without it, --message-id %s --wait only shows that output's results", messageID)
			}
			text, err := readText(cmd.InOrStdin(), args)
			if err != nil {
				return err
			}
			// json.Marshal would replace bad bytes with U+FFFD and the
			// pipeline would run text nobody wrote: refuse instead.
			if !utf8.ValidString(text) {
				return fmt.Errorf("the text is not valid UTF-8; send UTF-8 text")
			}
			if timeZone != "" {
				if _, err := schemas.TimeZone(timeZone); err != nil {
					return fmt.Errorf("--timezone: %w", err)
				}
			}
			out := schemas.AgentOutput{V: schemas.Version, SessionID: session, MessageID: messageID, Text: text, Scope: scope, TimeZone: timeZone}
			if out.MessageID == "" {
				out.MessageID = nuid.Next()
			}
			if conversation != "" {
				if out.Conversation, err = readConversation(conversation); err != nil {
					return err
				}
			}
			data, err := json.Marshal(out)
			if err != nil {
				return err
			}
			if err := schemas.Validate(schemas.KindAgentOutput, data); err != nil {
				return err
			}
			nc, err := g.clientConnect("toolyard-publish")
			if err != nil {
				return withUpHint(err)
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			aw := awaiting{out: out, givenID: cmd.Flags().Changed("message-id"), timeout: timeout, stderr: cmd.ErrOrStderr(),
				down: func() string {
					if nc.IsConnected() {
						return ""
					}
					return fmt.Sprintf("; the connection to NATS at %s is down (is 'toolyard up' running?); the output was published: %s once the server is back",
						g.nats, reattach(out))
				}}
			enc := json.NewEncoder(cmd.OutOrStdout())
			if attach {
				aw.mode = waitAttached
				results, err := sessionResults(ctx, js, session)
				if err != nil {
					return withUpHint(err)
				}
				return aw.results(ctx, results, enc)
			}
			var results jetstream.Consumer
			if wait {
				// Read from the result stream's end as it is now, so no result
				// published after this point can slip past (an ordered consumer
				// is only created on its first read).
				results, err = pipeline.FollowFromEnd(ctx, js, pipeline.StreamResult, schemas.ResultSubject(session))
				if err != nil {
					return withUpHint(fmt.Errorf("read results: %w", err))
				}
			}
			if stream {
				if err := publishStream(ctx, js, out, tps); err != nil {
					return err
				}
			}
			ack, err := js.Publish(ctx, schemas.AgentOutputSubject(session), data, jetstream.WithMsgID(session+":"+out.MessageID))
			if err != nil {
				if strings.Contains(err.Error(), "maximum bytes") || strings.Contains(err.Error(), "maximum messages") {
					return fmt.Errorf("publish to %s: the %s stream is full and refuses new outputs until older ones age out (nothing accepted was dropped); raise its limit with 'toolyard streams apply --retention %s=MAXAGE:MAXBYTES': %w",
						schemas.AgentOutputSubject(session), pipeline.StreamAgent, pipeline.StreamAgent, err)
				}
				return fmt.Errorf("publish to %s: %w", schemas.AgentOutputSubject(session), err)
			}
			if ack.Duplicate {
				// Published before: its receipt and results are already in
				// the result stream, behind where a reader from the end
				// starts. The receipt says whether it was this text.
				aw.mode = waitDuplicate
				if results, err = sessionResults(ctx, js, session); err != nil {
					return err
				}
				if !wait {
					return aw.sameOutput(ctx, results, ack, enc)
				}
			}
			if !wait {
				return enc.Encode(map[string]any{"session_id": session, "message_id": out.MessageID, "subject": schemas.AgentOutputSubject(session), "stream_seq": ack.Sequence})
			}
			return aw.results(ctx, results, enc)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&stream, "stream", false, "stream the text to agent.stream.<session> token by token first, as an agent writing it")
	fl.Float64Var(&tps, "tokens-per-second", 40, "with --stream: how fast the tokens are written")
	fl.StringVar(&session, "session", "", "session id (letters, digits, - and _)")
	fl.StringVar(&messageID, "message-id", "", "id of this output within the session (default: a new unique id); republishing the same id runs nothing twice; with --wait and no TEXT: show the results of the output published under it")
	fl.BoolVar(&wait, "wait", false, "wait for and print the results")
	fl.DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for results")
	fl.StringSliceVar(&scope, "scope", nil, "restrict discovery to these tool ids or servers")
	fl.StringVar(&timeZone, "timezone", "", "the IANA time zone of the person the output is for (Europe/Berlin): the days and times its intents write are read in it, not in the workers' zone")
	fl.StringVar(&conversation, "conversation", "", `JSON file with the preceding conversation: [{"role": "user", "content": "…"}, …]`)
	_ = cmd.MarkFlagRequired("session")
	return cmd
}

func readText(stdin io.Reader, args []string) (string, error) {
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("read standard input: %w", err)
		}
		return string(b), nil
	}
	return strings.Join(args, " "), nil
}

func readConversation(path string) ([]schemas.Message, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read conversation: %w", err)
	}
	var conv []schemas.Message
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("conversation %s is not valid UTF-8", path)
	}
	if err := json.Unmarshal(b, &conv); err != nil {
		return nil, fmt.Errorf("conversation %s: want a JSON array of {role, content}: %w", path, err)
	}
	return conv, nil
}

// waitMode is what a publish --wait waits for.
type waitMode int

const (
	waitPublished waitMode = iota // the output this command published
	waitDuplicate                 // an output published before under the same message id
	waitAttached                  // nothing published: an earlier output's results (--message-id ID --wait, no TEXT)
)

// awaiting is the output whose results a publish waits for, and how it
// tells what it could not see.
type awaiting struct {
	out     schemas.AgentOutput
	mode    waitMode
	givenID bool // the message id came from --message-id
	timeout time.Duration
	stderr  io.Writer
	// down says why nothing arrives when the connection is down ("" when
	// it is up), for the timeout's message.
	down func() string
}

// reattach is the command that shows out's results later.
func reattach(out schemas.AgentOutput) string {
	return fmt.Sprintf("'toolyard publish --session %s --message-id %s --wait' shows its results", out.SessionID, out.MessageID)
}

// sessionResults reads every result of the session from the first stored.
func sessionResults(ctx context.Context, js jetstream.JetStream, session string) (jetstream.Consumer, error) {
	c, err := js.OrderedConsumer(ctx, pipeline.StreamResult, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{schemas.ResultSubject(session)},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return c, nil
}

// reused is the error of an output whose message id ran another output,
// told by receipt, the receipt of the output published under it first.
func (a awaiting) reused(receipt schemas.Result) error {
	if a.mode != waitDuplicate || receipt.TextSHA256 == "" || receipt.TextSHA256 == schemas.TextDigest(a.out.Text) {
		return nil
	}
	return fmt.Errorf("message id %s was already used for a different output in session %s; this one was not published: give it an id of its own (or leave --message-id out for a new one)",
		a.out.MessageID, a.out.SessionID)
}

// sameOutput answers a publish without --wait whose message id was
// published before: an error when the receipt shows another text under it,
// else the ack, marked a duplicate.
func (a awaiting) sameOutput(ctx context.Context, results jetstream.Consumer, ack *jetstream.PubAck, enc *json.Encoder) error {
	reader, err := pipeline.NewReader(ctx, results)
	if err != nil {
		return fmt.Errorf("read results: %w", err)
	}
	defer reader.Stop()
	seen := "its receipt did not arrive within --timeout, so whether it was this text is unknown"
	for {
		msg, err := reader.Next()
		if err != nil {
			break
		}
		var r schemas.Result
		if json.Unmarshal(msg.Data(), &r) != nil || r.MessageID != a.out.MessageID || r.Status != schemas.StatusAccepted {
			continue
		}
		if err := a.reused(r); err != nil {
			return err
		}
		seen = "with this text"
		break
	}
	fmt.Fprintf(a.stderr, "toolyard: message id %s was published before (%s) and runs once: this output was not published again; %s\n",
		a.out.MessageID, seen, reattach(a.out))
	return enc.Encode(map[string]any{"session_id": a.out.SessionID, "message_id": a.out.MessageID, "subject": schemas.AgentOutputSubject(a.out.SessionID),
		"stream_seq": ack.Sequence, "duplicate": true})
}

// results prints this output's results until every intent is answered.
func (a awaiting) results(ctx context.Context, results jetstream.Consumer, enc *json.Encoder) error {
	messageID := a.out.MessageID
	var expected map[string]bool // nil until the receipt arrives
	answered := map[string]bool{}
	reader, err := pipeline.NewReader(ctx, results)
	if err != nil {
		return fmt.Errorf("read results: %w", err)
	}
	defer reader.Stop()
	for {
		msg, err := reader.Next()
		if err != nil {
			return a.stopped(ctx, err, expected, answered)
		}
		var r schemas.Result
		if err := json.Unmarshal(msg.Data(), &r); err != nil || r.MessageID != messageID {
			continue
		}
		if r.Status == schemas.StatusAccepted && expected == nil {
			if err := a.reused(r); err != nil {
				return err
			}
			if a.mode == waitDuplicate {
				fmt.Fprintf(a.stderr, "toolyard: message id %s was published before and runs once: its earlier receipt and results follow\n", messageID)
			}
		}
		if err := enc.Encode(json.RawMessage(msg.Data())); err != nil {
			return err
		}
		switch {
		case r.Status == schemas.StatusAccepted:
			expected = map[string]bool{}
			for _, id := range r.IntentIDs {
				expected[id] = true
			}
		case r.IntentID == "" && r.Status == schemas.StatusError:
			// The output as a whole was refused: nothing more will come.
			return nil
		default:
			answered[r.IntentID] = true
		}
		if expected != nil && allAnswered(expected, answered) {
			return nil
		}
	}
}

// stopped is what a wait that read err instead of a result says and
// returns: interrupted, timed out, or cut off from the server.
func (a awaiting) stopped(ctx context.Context, err error, expected, answered map[string]bool) error {
	missing := waitingFor(expected, answered)
	if errors.Is(ctx.Err(), context.Canceled) {
		if cause := context.Cause(ctx); errors.Is(cause, nats.ErrPermissionViolation) {
			return cause
		}
		// Ctrl-C: the output was published and runs on, so this is not a
		// timeout; say how to see its results.
		fmt.Fprintf(a.stderr, "toolyard: interrupted while waiting for %s; the output was published and runs on: %s (nothing runs twice)\n",
			missing, reattach(a.out))
		return exitCode(130)
	}
	if ctx.Err() != nil || errors.Is(err, nats.ErrTimeout) {
		fmt.Fprintf(a.stderr, "toolyard: %s\n", a.timedOut(expected, missing))
		return exitCode(2)
	}
	if errors.Is(err, jetstream.ErrNoHeartbeat) || a.down() != "" {
		// The server went away under the reader: the output was stored
		// before, and runs on when it is back.
		return fmt.Errorf("read results: %w while waiting for %s%s", err, missing, a.down())
	}
	return fmt.Errorf("read results: %w", err)
}

// timedOut says what did not arrive within --timeout and how to see it
// later.
func (a awaiting) timedOut(expected map[string]bool, missing string) string {
	down := a.down()
	if a.mode == waitAttached {
		if expected != nil {
			return fmt.Sprintf("timed out waiting for %s%s", missing, down)
		}
		return fmt.Sprintf("no receipt for message id %s of session %s within %s%s: nothing was published under this id yet, its results are no longer kept, or no parse worker is running. Without TEXT, --message-id --wait publishes nothing: give the output's text to publish it",
			a.out.MessageID, a.out.SessionID, a.timeout, down)
	}
	later := down
	if later == "" {
		ran := "the output was published and runs on"
		if a.mode == waitDuplicate {
			ran = "the output published under this id runs on"
		}
		later = fmt.Sprintf("; %s: %s later (nothing runs twice)", ran, reattach(a.out))
	}
	if expected != nil {
		return fmt.Sprintf("timed out waiting for %s%s", missing, later)
	}
	msg := "no receipt for this output yet: is a parse worker running?"
	if down == "" && a.givenID && a.mode == waitPublished {
		// The parse stage answers a message id once: an output published
		// under it before by a client that set no Nats-Msg-Id got its
		// receipt then.
		msg += fmt.Sprintf(" Or message id %s was published before by another client: it runs once, and its receipt and results were published then (the session's results hold them); a new output needs an id of its own", a.out.MessageID)
	}
	return msg + later
}

// waitingFor names what has not arrived yet: the receipt, or the
// intents without a result.
func waitingFor(expected, answered map[string]bool) string {
	if expected == nil {
		return "the receipt"
	}
	var missing []string
	for id := range expected {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	slices.Sort(missing)
	return fmt.Sprintf("%d result(s): %s", len(missing), strings.Join(missing, ", "))
}

func allAnswered(expected, answered map[string]bool) bool {
	for id := range expected {
		if !answered[id] {
			return false
		}
	}
	return true
}

// publishStream writes out's text to agent.stream.<session> as chunks of a
// token each, tps a second. Each chunk has its own message id, so a retried
// publish is stored once.
func publishStream(ctx context.Context, js jetstream.JetStream, out schemas.AgentOutput, tps float64) error {
	if tps <= 0 {
		return fmt.Errorf("--tokens-per-second must be positive, got %v", tps)
	}
	subject := schemas.AgentStreamSubject(out.SessionID)
	interval := time.Duration(float64(time.Second) / tps)
	start := time.Now()
	for i, tok := range predict.Tokens(out.Text) {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			pipeline.Sleep(ctx, d)
		}
		data, err := json.Marshal(schemas.StreamChunk{V: schemas.Version, SessionID: out.SessionID, MessageID: out.MessageID, Seq: uint64(i), Delta: tok})
		if err != nil {
			return err
		}
		if _, err := js.Publish(ctx, subject, data, jetstream.WithMsgID(fmt.Sprintf("%s:%s:%d", out.SessionID, out.MessageID, i))); err != nil {
			return fmt.Errorf("publish to %s: %w", subject, err)
		}
	}
	return nil
}
