package replay

import (
	"context"
	"errors"
	"github.com/toolyard/toolyard/training/labels"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Row is one replayed intent: what the baseline and the candidate decided.
type Row struct {
	Intent    Intent
	Baseline  Outcome
	Candidate Outcome
}

// RunOptions tune Run.
type RunOptions struct {
	// Workers is how many intents are replayed at once (default: every core).
	Workers int
	// Progress, when set, is called from time to time (and once at the
	// end) with how many intents are done.
	Progress func(done, total int)
	// Every is how often Progress is called at most (default 1 s).
	Every time.Duration
}

// Run replays every intent through the candidate and, when baseline is not
// nil, through the baseline too; with no baseline, the baseline is what
// the audit recorded. Rows come back in the intents' order.
func Run(ctx context.Context, intents []Intent, baseline, candidate *Side, opts RunOptions) ([]Row, error) {
	if candidate == nil {
		return nil, errors.New("replay: no candidate")
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	every := opts.Every
	if every <= 0 {
		every = time.Second
	}
	rows := make([]Row, len(intents))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next, done atomic.Int64
		wg         sync.WaitGroup
		errOnce    sync.Once
		firstErr   error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(intents) || ctx.Err() != nil {
					return
				}
				in := intents[i]
				r := Row{Intent: in, Baseline: in.Recorded}
				var err error
				if baseline != nil {
					if r.Baseline, err = baseline.Decide(ctx, in); err != nil {
						fail(err)
						return
					}
				}
				if r.Candidate, err = candidate.Decide(ctx, in); err != nil {
					fail(err)
					return
				}
				rows[i] = r
				done.Add(1)
			}
		}()
	}
	if opts.Progress != nil {
		stop := make(chan struct{})
		go func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					opts.Progress(int(done.Load()), len(intents))
				case <-stop:
					return
				}
			}
		}()
		wg.Wait()
		close(stop)
	} else {
		wg.Wait()
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(len(intents), len(intents))
	}
	return rows, nil
}

// GroupRunner replays one group's intents: in this process (Run), or on
// the cluster's replay workers.
type GroupRunner func(ctx context.Context, group int, intents []Intent) ([]Row, error)

// GroupStart is told, before a group is replayed, its intents and how
// many of them are labelled.
type GroupStart func(group, groups, intents, labelled int)

// ReplayGroups replays the partition a group at a time: each group's
// records are extracted and labelled (the derivation 'toolyard train'
// uses), its intents replayed by run, and its rows added to acc; only one
// group is in memory at once. It returns what could not be replayed, by
// reason.
func ReplayGroups(ctx context.Context, p *Partition, lopts labels.Options, acc *Accumulator, run GroupRunner, start GroupStart) (Skipped, error) {
	skipped := Skipped{}
	for g := range p.Groups() {
		recs, err := p.Group(g)
		if err != nil {
			return nil, err
		}
		intents, sk := Extract(recs)
		for k, n := range sk {
			skipped[k] += n
		}
		lbl := Labels(recs, lopts)
		if len(intents) == 0 {
			continue
		}
		if start != nil {
			labelled := 0
			for _, in := range intents {
				if lbl[in.Key].Tool != "" {
					labelled++
				}
			}
			start(g, p.Groups(), len(intents), labelled)
		}
		rows, err := run(ctx, g, intents)
		if err != nil {
			return nil, err
		}
		acc.AddRows(rows, lbl)
	}
	return skipped, nil
}
