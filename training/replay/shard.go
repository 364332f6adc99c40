package replay

import (
	"fmt"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// A sharded replay (toolyard replay --workers) splits one job into shards
// that replay workers on any machine of the cluster take from a JetStream
// consumer. The job — the registry, the configurations and the intents —
// is stored once; a shard names a range of its intents; a part carries
// the shard's decisions back. A shard is redone when its worker dies
// before acknowledging it, and its part is de-duplicated by the stream
// (its message id) and by the coordinator (its index): each intent counts
// exactly once.

// Subjects of a sharded replay.
const (
	ShardPrefix = "replay.shard." // + job: the shards, one consumer shared by the workers
	PartPrefix  = "replay.part."  // + job: the parts, read by the job's coordinator
)

// Job is what every shard of a replay shares.
type Job struct {
	ID    string             `json:"id"`
	Tools []schemas.Manifest `json:"tools"`
	// Baseline is nil when the baseline is what the audit recorded.
	Baseline  *Config `json:"baseline,omitempty"`
	Candidate Config  `json:"candidate"`
	// BaselineModel and CandidateModel are model version directories
	// ('toolyard train --out'), file name to content, shipped so every
	// worker applies the same model.
	BaselineModel  map[string][]byte `json:"baseline_model,omitempty"`
	CandidateModel map[string][]byte `json:"candidate_model,omitempty"`
	Intents        []JobIntent       `json:"intents"`
}

// JobIntent is an Intent with every field a replay reads.
type JobIntent struct {
	Key          string    `json:"key"`
	Session      string    `json:"session"`
	IntentID     string    `json:"intent_id,omitempty"`
	Time         time.Time `json:"time"`
	Expressed    string    `json:"expressed"`
	Text         string    `json:"text"`
	Conversation string    `json:"conversation,omitempty"`
	Recorded     Outcome   `json:"recorded"`
}

// JobIntents converts intents for a job.
func JobIntents(in []Intent) []JobIntent {
	out := make([]JobIntent, len(in))
	for i, x := range in {
		out[i] = JobIntent(x) // the same fields; only the JSON tags differ
	}
	return out
}

// ReplayIntents are the job's intents from..to as Intents.
func (j Job) ReplayIntents(from, to int) ([]Intent, error) {
	if from < 0 || to > len(j.Intents) || from > to {
		return nil, fmt.Errorf("replay job %s: shard range %d..%d outside its %d intents", j.ID, from, to, len(j.Intents))
	}
	out := make([]Intent, 0, to-from)
	for _, x := range j.Intents[from:to] {
		out = append(out, Intent(x))
	}
	return out, nil
}

// Shard is one range of a job's intents.
type Shard struct {
	Job   string `json:"job"`
	Index int    `json:"index"`
	From  int    `json:"from"`
	To    int    `json:"to"`
}

// Part is a shard's decisions, one pair per intent of its range.
type Part struct {
	Job       string    `json:"job"`
	Index     int       `json:"index"`
	Baseline  []Outcome `json:"baseline"`
	Candidate []Outcome `json:"candidate"`
}

// PartOf is the part of a shard's rows.
func PartOf(s Shard, rows []Row) Part {
	p := Part{Job: s.Job, Index: s.Index, Baseline: make([]Outcome, len(rows)), Candidate: make([]Outcome, len(rows))}
	for i, r := range rows {
		p.Baseline[i], p.Candidate[i] = r.Baseline, r.Candidate
	}
	return p
}

// Shards splits n intents into ranges of at most size.
func Shards(job string, n, size int) []Shard {
	if size <= 0 {
		size = 500
	}
	var out []Shard
	for from := 0; from < n; from += size {
		out = append(out, Shard{Job: job, Index: len(out), From: from, To: min(from+size, n)})
	}
	return out
}

// Merge puts the parts back together as the rows of intents, in order.
// Each shard counts once however many copies of its part arrived; a
// missing or malformed part is an error.
func Merge(intents []Intent, shards []Shard, parts map[int]Part) ([]Row, error) {
	rows := make([]Row, len(intents))
	for _, s := range shards {
		p, ok := parts[s.Index]
		if !ok {
			return nil, fmt.Errorf("replay job %s: no part for shard %d", s.Job, s.Index)
		}
		if len(p.Baseline) != s.To-s.From || len(p.Candidate) != s.To-s.From {
			return nil, fmt.Errorf("replay job %s: shard %d has %d/%d decisions for %d intents", s.Job, s.Index, len(p.Baseline), len(p.Candidate), s.To-s.From)
		}
		for i := s.From; i < s.To; i++ {
			rows[i] = Row{Intent: intents[i], Baseline: p.Baseline[i-s.From], Candidate: p.Candidate[i-s.From]}
		}
	}
	return rows, nil
}
