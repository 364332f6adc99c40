package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover/synth"
)

// benchReplayOutput is what 'bench replay' measures.
type benchReplayOutput struct {
	Records       int     `json:"records"`
	Tools         int     `json:"tools"`
	Intents       int     `json:"intents"`
	Groups        int     `json:"groups"`
	ReadSeconds   float64 `json:"read_seconds"`
	ReplaySeconds float64 `json:"replay_seconds"`
	IntentsPerS   float64 `json:"intents_per_s"`
	ReportSeconds float64 `json:"report_seconds"`
	PeakHeapMiB   float64 `json:"peak_heap_mib"`
	PeakRSSMiB    float64 `json:"peak_rss_mib,omitempty"`
}

func newBenchReplay(g *globalFlags) *cobra.Command {
	var (
		records, tools int
		asJSON         bool
		keepReport     string
		cpuProfile     string
	)
	// The labels' correction window as replay's default: bench has no flag for it.
	r := replayRun{g: g, groupSize: "64MiB", lopts: labels.Options{Window: 10 * time.Minute}}
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Replay a synthetic history of any length: intents/s, peak memory, report time",
		Long: `Writes a synthetic deployment history of --records audit records to a temporary
audit file (sessions of intents recorded as the stages record them: parse,
discover, route, execute, and the agent's corrections after multiple_matches),
over a synthetic registry of --tools tools, the same for the same sizes. It then
replays the file exactly as 'toolyard replay --audit FILE' does, against a
candidate with a stricter activation threshold, and measures:

  read_seconds    reading the file and grouping its sessions
  intents_per_s   replaying (parse → discover → route → resolve, dry run)
  report_seconds  building the summary and the page from what was replayed
  peak_heap_mib   the largest live Go heap seen, sampled every 50 ms
  peak_rss_mib    the process's peak resident memory (Linux)

A history longer than --group-size is replayed a group of sessions at a time,
so peak memory depends on the group size, not on the history's length: compare
--records 100000 with --records 1000000.`,
		Example: `  toolyard bench replay --records 100000
  toolyard bench replay --records 1000000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
			if records <= 0 || tools <= 0 {
				return fmt.Errorf("--records %d and --tools %d must be positive", records, tools)
			}
			dir, err := os.MkdirTemp(r.spillDir, "toolyard-bench-replay-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			reg := synth.Tools(tools, 1)
			fmt.Fprintf(stderr, "bench: writing %d synthetic audit records over %d tools\n", records, tools)
			file := filepath.Join(dir, "audit.jsonl")
			if err := writeSyntheticAudit(file, synth.History(reg, records, 1)); err != nil {
				return err
			}
			cand := filepath.Join(dir, "candidate.json")
			if err := os.WriteFile(cand, []byte(`{"activate-threshold": 0.9}`), 0o600); err != nil {
				return err
			}
			r.audits, r.candidate = []string{file}, cand
			if err := r.check(); err != nil {
				return err
			}
			stopProfile, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			defer stopProfile()
			heap := sampleHeap(50 * time.Millisecond)
			t0 := time.Now()
			part, err := r.partition(ctx, stderr)
			if err != nil {
				heap()
				return err
			}
			defer part.Close()
			out := benchReplayOutput{Records: part.Records(), Tools: tools, Groups: part.Groups(), ReadSeconds: time.Since(t0).Seconds()}
			rep, err := r.replay(ctx, stderr, reg, part)
			if err != nil {
				heap()
				return err
			}
			t1 := time.Now()
			// The page is rendered as 'replay --report' renders it.
			if keepReport != "" {
				err = rep.Write(keepReport)
			} else {
				_, err = rep.HTML()
			}
			if err != nil {
				heap()
				return err
			}
			out.ReportSeconds = time.Since(t1).Seconds()
			out.PeakHeapMiB = heap()
			out.PeakRSSMiB = peakRSSMiB()
			out.Intents, out.ReplaySeconds, out.IntentsPerS = rep.Summary.Intents, rep.Summary.Throughput.Seconds, rep.Summary.Throughput.IntentsPerSec
			return printBenchReplay(cmd.OutOrStdout(), out, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&records, "records", 100_000, "synthetic audit records to write and replay")
	fl.IntVar(&tools, "tools", 1000, "synthetic tools in the registry")
	fl.StringVar(&r.groupSize, "group-size", r.groupSize, "as 'replay --group-size': audit JSON replayed at once")
	fl.StringVar(&r.spillDir, "spill-dir", "", "where the synthetic file and the groups go (default: the system's temporary directory)")
	fl.IntVar(&r.parallel, "parallel", 0, "intents replayed at once (default: one per core)")
	fl.StringVar(&keepReport, "report", "", "also write the report (summary.json, index.html) here")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object")
	fl.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the reading, replaying and report to this file, for 'go tool pprof'")
	return cmd
}

// writeSyntheticAudit writes records as audit JSONL.
func writeSyntheticAudit(path string, records iter.Seq[schemas.AuditRecord]) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	for rec := range records {
		if err = enc.Encode(rec); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// sampleHeap samples the live heap every period until the returned
// function is called; it returns the largest sample, in MiB.
func sampleHeap(period time.Duration) func() float64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		mu   sync.Mutex
		peak uint64
	)
	read := func() {
		metrics.Read(sample)
		mu.Lock()
		peak = max(peak, sample[0].Value.Uint64())
		mu.Unlock()
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			read()
			select {
			case <-t.C:
			case <-stop:
				return
			}
		}
	}()
	var once sync.Once
	return func() float64 {
		once.Do(func() { close(stop); <-done; read() })
		mu.Lock()
		defer mu.Unlock()
		return float64(peak) / (1 << 20)
	}
}

// peakRSSMiB is the process's peak resident memory (VmHWM), 0 where
// /proc does not say.
func peakRSSMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}

func printBenchReplay(w io.Writer, out benchReplayOutput, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "replay\t%d synthetic audit records, %d tools, %d intents in %d groups of sessions\n", out.Records, out.Tools, out.Intents, out.Groups)
	fmt.Fprintf(tw, "  read and group\t%.2f s\n", out.ReadSeconds)
	fmt.Fprintf(tw, "  replay\t%.2f s, %.0f intents/s\n", out.ReplaySeconds, out.IntentsPerS)
	fmt.Fprintf(tw, "  report\t%.2f s\n", out.ReportSeconds)
	fmt.Fprintf(tw, "  peak memory\theap %.0f MiB, resident %.0f MiB\n", out.PeakHeapMiB, out.PeakRSSMiB)
	return tw.Flush()
}
