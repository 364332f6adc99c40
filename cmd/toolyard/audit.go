package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/workers/auditlog"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
)

func newAudit(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Import audit history into the AUDIT stream, or export it as JSONL",
	}
	cmd.AddCommand(newAuditImport(g), newAuditExport(g))
	return cmd
}

func newAuditImport(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE…",
		Short: "Load audit JSONL into the AUDIT stream, once: importing the same records again adds nothing",
		Long: `Reads audit records (JSONL, the audit record contract: timestamp, session_id,
conversation_context, intent_expressed, tool_id, parameters, result, …) and appends
each to the AUDIT stream on audit.import.<session>, keeping its own timestamp, so
'toolyard train' learns from it like from live traffic.

Every line is checked against the audit record schema: a bad line is reported with
its file and line number and skipped, the rest is imported. A record already
imported (same content), now or in any earlier import, is not added again.
Exits 1 when any line was bad.`,
		Example: `  toolyard audit import ../shared/bench/metatool/learn/audit.jsonl`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			// Every file is checked before any is imported: a missing
			// second file used to stop the import after the first, with
			// no count of what had gone in.
			for _, f := range files {
				if fi, err := os.Stat(f); err != nil {
					return err
				} else if fi.IsDir() {
					return fmt.Errorf("%s is a directory: give audit JSONL files", f)
				}
			}
			im, closeNC, err := openClient(g, "toolyard audit import", func(js jetstream.JetStream) (*auditlog.Importer, error) {
				return auditlog.NewImporter(cmd.Context(), js)
			})
			if err != nil {
				return err
			}
			defer closeNC()
			stderr := cmd.ErrOrStderr()
			var added, present, bad int
			for _, f := range files {
				recs, badLines, err := learn.ReadAuditFile(f)
				if err != nil {
					return err
				}
				listBadLines(stderr, "bad line skipped:", f, badLines)
				bad += len(badLines)
				p := newProgress(stderr, "import "+f, len(recs))
				for _, r := range recs {
					ok, err := im.Import(cmd.Context(), r)
					if err != nil {
						// What went in stays in (a re-import adds only the rest).
						fmt.Fprintf(cmd.OutOrStdout(), "stopped: imported %d records, %d already there, %d bad lines skipped\n", added, present, bad)
						return fmt.Errorf("%s: record of session %s at %s: %w", f, r.SessionID, r.Timestamp.Format(time.RFC3339), err)
					}
					if ok {
						added++
					} else {
						present++
					}
					p.step()
				}
				p.done()
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d records, %d already there, %d bad lines skipped\n", added, present, bad)
			if bad > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
}

func newAuditExport(g *globalFlags) *cobra.Command {
	var since, until, session, stage, out string
	c := &cobra.Command{
		Use:   "export",
		Short: "Write audit records from the AUDIT stream as JSONL",
		Long: `Reads the AUDIT stream with an ordered consumer from --since and writes the
records that match as JSONL (to --out, or standard output), oldest first, up to
the last record stored when the export started. Memory stays bounded however
many records there are. Times filter on each record's own timestamp.`,
		Example: `  toolyard audit export --since 24h > last-day.jsonl
  toolyard audit export --since 2026-11-01T00:00:00Z --until 2026-11-08T00:00:00Z --session 'ci-*' --stage execute`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var f auditlog.Filter
			var err error
			if f.Since, f.Until, err = auditWindow(since, until, time.Now()); err != nil {
				return err
			}
			f.Session, f.Stage = session, stage
			w := cmd.OutOrStdout()
			if out != "" {
				fh, err := os.Create(out)
				if err != nil {
					return err
				}
				defer fh.Close()
				w = fh
			}
			bw := bufio.NewWriter(w)
			js, closeNC, err := openClient(g, "toolyard audit export", func(js jetstream.JetStream) (jetstream.JetStream, error) { return js, nil })
			if err != nil {
				return err
			}
			defer closeNC()
			n := 0
			enc := json.NewEncoder(bw)
			err = auditlog.Export(cmd.Context(), js, f, func(r schemas.AuditRecord) error {
				n++
				return enc.Encode(r)
			})
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			if n == 0 && stage != "" && !slices.Contains(auditStages(), stage) {
				// A misspelt stage matches nothing: say so rather than
				// let an empty export pass for an empty history.
				fmt.Fprintf(cmd.ErrOrStderr(), "exported 0 records: no stage %q writes audit records; the stages are %s\n", stage, strings.Join(auditStages(), ", "))
				return nil
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "exported %d records\n", n)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&since, "since", "", "records from this time: a duration back from now (24h, 30m) or an RFC 3339 time")
	fl.StringVar(&until, "until", "", "records up to this time: a duration back from now or an RFC 3339 time")
	fl.StringVar(&session, "session", "", "only sessions matching this glob (ci-*, demo)")
	fl.StringVar(&stage, "stage", "", "only this stage's records (parse, route, execute, feedback, import, …)")
	fl.StringVar(&out, "out", "", "write to this file instead of standard output")
	return c
}

// auditStages are the stage tokens of the AUDIT stream's subjects
// (audit.<stage>.<session>): the pipeline's stages, the session stage, the
// micro service, feedback and imported history.
func auditStages() []string {
	return append(slices.Clone(bind.Stages), session.StageName, service.StageService, service.StageFeedback, auditlog.ImportStage)
}

// parseSince reads a time as a duration back from now or an RFC 3339 time;
// "" is no bound.
func parseSince(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, errors.New("a duration back from now must be positive")
		}
		return time.Now().Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither a duration (24h) nor an RFC 3339 time (2026-11-01T00:00:00Z)", s)
	}
	return t, nil
}

// auditWindow reads --since and --until for a read of the AUDIT stream. A
// window that can hold nothing is an error, not an empty result that looks
// like an empty stream: --since later than now (a read stops at the last
// record stored when it starts), or --until before --since.
func auditWindow(since, until string, now time.Time) (from, to time.Time, err error) {
	if from, err = parseSince(since); err != nil {
		return from, to, fmt.Errorf("--since: %w", err)
	}
	if to, err = parseSince(until); err != nil {
		return from, to, fmt.Errorf("--until: %w", err)
	}
	if from.After(now) {
		return from, to, fmt.Errorf("--since %s is in the future (now %s): no record stored yet is that late", from.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if !to.IsZero() && to.Before(from) {
		return from, to, fmt.Errorf("--until %s is before --since %s: the window holds nothing (a duration counts back from now: --since 48h --until 24h is the day before yesterday)", to.Format(time.RFC3339), from.Format(time.RFC3339))
	}
	return from, to, nil
}

// progress prints a counting line on stderr at most once a second.
type progress struct {
	w          io.Writer
	what       string
	n, total   int
	start, out time.Time
}

func newProgress(w io.Writer, what string, total int) *progress {
	now := time.Now()
	return &progress{w: w, what: what, total: total, start: now, out: now}
}

func (p *progress) step() {
	p.n++
	if time.Since(p.out) >= time.Second {
		p.out = time.Now()
		p.print()
	}
}

func (p *progress) print() {
	rate := float64(p.n) / time.Since(p.start).Seconds()
	fmt.Fprintf(p.w, "  %s: %d/%d (%.0f/s)\n", p.what, p.n, p.total, rate)
}

func (p *progress) done() { p.print() }

// maxListedBadLines is how many bad lines of a file are listed one by one:
// a file of the wrong kind is bad on every line, and thousands of lines
// saying so hide the count that follows.
const maxListedBadLines = 20

// listBadLines writes a file's bad lines, each after label, up to
// maxListedBadLines, then how many more there are.
func listBadLines(w io.Writer, label, file string, bad []learn.BadLine) {
	for _, b := range bad[:min(len(bad), maxListedBadLines)] {
		fmt.Fprintln(w, label, b)
	}
	if n := len(bad) - maxListedBadLines; n > 0 {
		fmt.Fprintf(w, "%s … and %d more bad lines in %s\n", label, n, file)
	}
}
