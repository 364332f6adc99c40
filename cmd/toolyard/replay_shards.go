package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/training/replay"
	"github.com/toolyard/toolyard/workers/roles"
)

// Where a sharded replay lives on NATS: the stream of shards and parts
// (kept a day, so a coordinator that restarts reads what was done) and the
// object store of job specifications.
const (
	replayStream  = roles.StreamReplay
	replayJobs    = roles.ReplayJobs
	replayStage   = roles.StageReplay
	replayJobsTTL = 24 * time.Hour
)

// ensureReplay creates the stream and the object store when missing.
func ensureReplay(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	_, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: replayStream, Description: "Toolyard sharded replays: shards for the replay workers, their parts back",
		Subjects: []string{replay.ShardPrefix + ">", replay.PartPrefix + ">"}, MaxAge: replayJobsTTL, Duplicates: 10 * time.Minute,
	})
	if err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return nil, fmt.Errorf("create stream %s: %w", replayStream, err)
	}
	return pipeline.ObjectStore(ctx, js, jetstream.ObjectStoreConfig{Bucket: replayJobs, Description: "Toolyard replay jobs: registry, configurations, intents", TTL: replayJobsTTL})
}

// jobSides is a job loaded by a replay worker, with its sides built.
type jobSides struct {
	job             replay.Job
	base, candidate *replay.Side
}

// replayWorker runs shards: the stage 'toolyard worker --stage replay' adds.
type replayWorker struct {
	g   *globalFlags
	log io.Writer
	obj jetstream.ObjectStore

	mu   sync.Mutex
	jobs map[string]*jobSides // the last few jobs
	last []string
}

// stage is the worker's pipeline stage: one durable consumer shared by
// every replay worker of the cluster.
func (w *replayWorker) stage() pipeline.Stage {
	return pipeline.Stage{
		Name: replayStage, Stream: replayStream, Subjects: []string{replay.ShardPrefix + ">"},
		Setup: func(ctx context.Context, js jetstream.JetStream) error {
			obj, err := ensureReplay(ctx, js)
			w.obj = obj
			return err
		},
		Handler: w.handle,
	}
}

func (w *replayWorker) handle(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
	var s replay.Shard
	if err := json.Unmarshal(m.Data, &s); err != nil {
		return nil, pipeline.Permanentf("replay shard: %v", err)
	}
	js, err := w.load(ctx, s.Job)
	if err != nil {
		return nil, err
	}
	intents, err := js.job.ReplayIntents(s.From, s.To)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	rows, err := replay.Run(ctx, intents, js.base, js.candidate, replay.RunOptions{Workers: runtime.GOMAXPROCS(0)})
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(replay.PartOf(s, rows))
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	// The id makes a redone shard's part a duplicate the stream drops.
	return []pipeline.Out{{Subject: replay.PartPrefix + s.Job, Data: data, ID: fmt.Sprintf("%s:%d", s.Job, s.Index)}}, nil
}

// load reads a job and builds its sides, once per job.
func (w *replayWorker) load(ctx context.Context, id string) (*jobSides, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if js := w.jobs[id]; js != nil {
		return js, nil
	}
	data, err := w.obj.GetBytes(ctx, id)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, pipeline.Permanentf("replay job %s: not in %s (expired, or its coordinator removed it)", id, replayJobs)
	}
	if err != nil {
		return nil, fmt.Errorf("replay job %s: %w", id, err)
	}
	var job replay.Job
	if err := json.Unmarshal(data, &job); err != nil {
		return nil, pipeline.Permanentf("replay job %s: %v", id, err)
	}
	b := sideBuilder{g: w.g, tools: job.Tools, log: w.log}
	js := &jobSides{job: job}
	if js.candidate, err = buildShipped(ctx, b, "candidate", job.Candidate, job.CandidateModel); err != nil {
		return nil, pipeline.Permanent(err)
	}
	if job.Baseline != nil {
		if js.base, err = buildShipped(ctx, b, "baseline", *job.Baseline, job.BaselineModel); err != nil {
			return nil, pipeline.Permanent(err)
		}
	}
	if w.jobs == nil {
		w.jobs = map[string]*jobSides{}
	}
	w.jobs[id] = js
	w.last = append(w.last, id)
	if len(w.last) > 4 {
		delete(w.jobs, w.last[0])
		w.last = w.last[1:]
	}
	return js, nil
}

// shardedRun is the coordinator of 'toolyard replay --workers': it stores
// the job, publishes its shards and merges the parts the workers send
// back, each shard once.
func shardedRun(ctx context.Context, g *globalFlags, stderr io.Writer, job replay.Job, intents []replay.Intent, shardSize int, wait time.Duration) ([]replay.Row, error) {
	nc, err := g.connect("toolyard replay")
	if err != nil {
		return nil, withUpHint(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	obj, err := ensureReplay(ctx, js)
	if err != nil {
		return nil, err
	}
	job.ID = nuid.Next()
	spec, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	if _, err := obj.Put(ctx, jetstream.ObjectMeta{Name: job.ID}, bytes.NewReader(spec)); err != nil {
		return nil, fmt.Errorf("store replay job: %w", err)
	}
	defer func() { _ = obj.Delete(context.WithoutCancel(ctx), job.ID) }()

	// Parts are read from the stream's end as it is now, so none slips past.
	parts, err := pipeline.FollowFromEnd(ctx, js, replayStream, replay.PartPrefix+job.ID)
	if err != nil {
		return nil, err
	}
	shards := replay.Shards(job.ID, len(intents), shardSize)
	for _, s := range shards {
		data, _ := json.Marshal(s)
		if _, err := js.Publish(ctx, replay.ShardPrefix+job.ID, data, jetstream.WithMsgID(fmt.Sprintf("%s:shard:%d", job.ID, s.Index))); err != nil {
			return nil, fmt.Errorf("publish shard %d: %w", s.Index, err)
		}
	}
	fmt.Fprintf(stderr, "replay job %s: %d intents in %d shards for the replay workers ('toolyard worker --stage replay')\n", job.ID, len(intents), len(shards))
	got := map[int]replay.Part{}
	start, lastPart := time.Now(), time.Now()
	for len(got) < len(shards) {
		msg, err := parts.Next(jetstream.FetchMaxWait(5 * time.Second))
		if errors.Is(err, jetstream.ErrNoMessages) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
			if time.Since(lastPart) > wait {
				return nil, fmt.Errorf("no part of replay job %s in %s (%d of %d shards done): is a 'toolyard worker --stage replay' running?", job.ID, wait, len(got), len(shards))
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read parts: %w", err)
		}
		var p replay.Part
		if err := json.Unmarshal(msg.Data(), &p); err != nil || p.Job != job.ID {
			continue
		}
		if _, dup := got[p.Index]; dup {
			continue // a redone shard's part: counted once
		}
		got[p.Index] = p
		lastPart = time.Now()
		done := 0
		for _, q := range got {
			done += len(q.Candidate)
		}
		fmt.Fprintf(stderr, "  shard %d done: %d/%d intents (%.0f/s)\n", p.Index, done, len(intents), float64(done)/time.Since(start).Seconds())
	}
	return replay.Merge(intents, shards, got)
}

// runReplayWorkers runs the replay stage in a worker process.
func runReplayWorkers(ctx context.Context, g *globalFlags, js jetstream.JetStream, sf *stageFlags, metrics *pipeline.Metrics, log *slog.Logger) error {
	w := &replayWorker{g: g, log: io.Discard}
	return pipeline.Run(ctx, js, w.stage(), pipeline.WithConcurrency(1), pipeline.WithAckWait(sf.ackWait),
		pipeline.WithMaxDeliver(sf.maxDeliver), pipeline.WithMetrics(metrics), pipeline.WithLogger(log))
}

// buildShipped builds a side of a job: its configuration and, when the job
// ships one, its model (written to a temporary directory while it is read).
func buildShipped(ctx context.Context, b sideBuilder, name string, cfg replay.Config, model map[string][]byte) (*replay.Side, error) {
	dir := ""
	if len(model) > 0 {
		d, err := writeModelDir(model)
		if err != nil {
			return nil, fmt.Errorf("%s model: %w", name, err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	side, _, err := b.build(ctx, name, cfg, dir, replay.SideInfo{}, nil)
	return side, err
}
