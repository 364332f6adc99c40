package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/shortcut"
)

func newEvalShortcuts() *cobra.Command {
	var (
		queriesFile, modelDir string
		audits                []string
		rule                  learn.ShortcutRule
		guard                 labels.Guard
		window                time.Duration
		asJSON                bool
	)
	c := &cobra.Command{
		Use:   "shortcuts --queries FILE (--model DIR | --audit FILE…)",
		Short: "Count the queries whose phrasing has a learned shortcut, and how often its tool is a gold tool",
		Long: `Looks every query of --queries up among the learned shortcuts, as the discover
stage does with a model in force: the shortcuts of a trained model (--model DIR,
from 'toolyard train --out DIR'), or those 'toolyard train' would learn from
--audit with the same rule (--shortcut-min-count, --shortcut-min-share, and the
poisoning guard's --max-per-session and --min-sessions, and the labels'
--correction-window). Prints how many queries
get a hint and the share of those whose hinted tool is among the query's gold
tools; --json prints them as one object.`,
		Example: `  toolyard eval shortcuts --audit ../shared/bench/metatool/learn/audit.jsonl \
      --queries ../shared/bench/metatool/learn/queries.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (modelDir == "") == (len(audits) == 0) {
				return errors.New("give either --model DIR or --audit FILE")
			}
			if err := checkFlags(learningChecks(guard, rule, window)); err != nil {
				return err
			}
			qs, err := eval.LoadQueries(queriesFile)
			if err != nil {
				return err
			}
			var table *shortcut.Table
			if modelDir != "" {
				b, err := bundle.ReadDir(modelDir)
				if err != nil {
					return err
				}
				var learned map[string]bundle.Shortcut
				if b.Templates != nil {
					learned = b.Templates.Shortcuts
				}
				table = shortcut.NewTable(b.Manifest.Version, learned)
			} else {
				// As train reads them: all files at once (a session may
				// span two), and no valid record is an error, not 0 shortcuts.
				recs, err := readAudits(cmd.ErrOrStderr(), audits)
				if err != nil {
					return err
				}
				table = shortcut.NewTable("", learn.Shortcuts(labels.Derive(recs, labels.Options{Window: window}), rule, guard))
			}
			f := learn.EvaluateShortcuts(table, qs)
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(f)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "shortcuts %d; queries %d, hinted %d (%.1f%%), hinted tool right %d (precision %.3f)\n",
				f.Shortcuts, f.Queries, f.Hinted, 100*f.Coverage, f.Right, f.Precision)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&queriesFile, "queries", "", "query file (JSONL {id, query, gold_tool_ids})")
	fl.StringVar(&modelDir, "model", "", "a trained model directory (toolyard train --out DIR)")
	fl.StringArrayVar(&audits, "audit", nil, "audit JSONL file to learn the shortcuts from (repeatable)")
	fl.IntVar(&rule.MinCount, "shortcut-min-count", 3, "as toolyard train's")
	fl.Float64Var(&rule.MinShare, "shortcut-min-share", 0.9, "as toolyard train's")
	fl.IntVar(&guard.PerSession, "max-per-session", 3, "as toolyard train's")
	fl.IntVar(&guard.MinSessions, "min-sessions", 2, "as toolyard train's")
	fl.DurationVar(&window, "correction-window", 10*time.Minute, "as toolyard train's: how long after an answer the agent's next move still corrects it")
	fl.BoolVar(&asJSON, "json", false, "print the figures as one JSON object")
	_ = c.MarkFlagRequired("queries")
	return c
}
