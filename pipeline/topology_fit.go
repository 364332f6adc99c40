package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nats-io/nats.go/jetstream"
)

// MinStreamBytes is the smallest size FitStore gives a stream: below it a
// stream holds too little to be worth running on.
const MinStreamBytes = 64 << 20

// ErrStoreTooSmall is returned by FitStore when JetStream's store cannot
// hold even the smallest useful streams.
var ErrStoreTooSmall = errors.New("JetStream's store is too small for Toolyard's streams")

// Reserved is the disk the topology's streams reserve together: JetStream
// refuses a stream whose max_bytes does not fit beside the others'.
func (t Topology) Reserved() int64 {
	var sum int64
	for _, l := range t.limits() {
		sum += max(l.MaxBytes, 0)
	}
	return sum
}

// FitStore returns the topology with its streams' sizes scaled down in
// proportion, to multiples of 64 MiB, so that together they reserve at
// most budget bytes; unchanged, and fitted false, when they already fit.
//
// JetStream sizes its store from the free disk (three quarters of it, on
// a server without max_file_store), and refuses outright any stream that
// does not fit: the built-in sizes (AUDIT 10 GiB, the others 1 GiB each)
// need about 19 GB free, and on a fuller disk a first start used to fail
// with the server's "insufficient storage resources available".
func (t Topology) FitStore(budget int64) (fitted Topology, changed bool, err error) {
	need := t.Reserved()
	if need <= budget {
		return t, false, nil
	}
	limits := t.limits()
	var sized int
	for _, l := range limits {
		if l.MaxBytes > 0 {
			sized++
		}
	}
	if budget < int64(sized)*MinStreamBytes {
		return t, false, fmt.Errorf("%w: it can hold %s here, the streams need at least %s (%d streams of %s): free disk under the data directory or give the server a larger max_file_store",
			ErrStoreTooSmall, FormatBytes(budget), FormatBytes(int64(sized)*MinStreamBytes), sized, FormatBytes(MinStreamBytes))
	}
	// Every stream keeps its share of the whole; rounding down to whole
	// 64 MiB keeps the sum within budget and the sizes stable across
	// restarts whose free disk differs a little.
	scale := float64(budget) / float64(need)
	for _, l := range limits {
		if l.MaxBytes <= 0 {
			continue
		}
		n := int64(float64(l.MaxBytes)*scale) / MinStreamBytes * MinStreamBytes
		l.MaxBytes = max(n, MinStreamBytes)
	}
	// The floors can push the sum over the budget; the largest streams
	// give up the excess (the budget holds every floor, so this ends).
	for over := t.Reserved() - budget; over > 0; over = t.Reserved() - budget {
		largest := slices.MaxFunc(limits, func(a, b *StreamLimits) int { return cmp.Compare(a.MaxBytes, b.MaxBytes) })
		cut := min((over+MinStreamBytes-1)/MinStreamBytes*MinStreamBytes, largest.MaxBytes-MinStreamBytes)
		if cut <= 0 {
			break
		}
		largest.MaxBytes -= cut
	}
	t.StoreFitted = true
	return t, true, nil
}

// Sizes names each stream's max_bytes, for logs ("AUDIT=6.1GiB").
func (t Topology) Sizes() []string {
	var out []string
	for _, cfg := range t.Streams() {
		out = append(out, cfg.Name+"="+FormatBytes(cfg.MaxBytes))
	}
	return out
}

// limits are the topology's streams, in Streams' order, to change in place.
func (t *Topology) limits() []*StreamLimits {
	return []*StreamLimits{&t.Agent, &t.Pipe, &t.Result, &t.Audit, &t.DLQ}
}

// StoreBudget is what JetStream's store, maxStore bytes in all, leaves for
// the topology's streams: what the account's other streams (the KV
// buckets' and object stores', and any an operator added) reserve is not
// theirs to take.
func (t Topology) StoreBudget(ctx context.Context, js jetstream.JetStream, maxStore int64) (int64, error) {
	ours := map[string]bool{}
	for _, cfg := range t.Streams() {
		ours[cfg.Name] = true
	}
	others := int64(0)
	names := js.ListStreams(ctx)
	for info := range names.Info() {
		if !ours[info.Config.Name] && info.Config.Storage == jetstream.FileStorage {
			others += max(info.Config.MaxBytes, 0)
		}
	}
	if err := names.Err(); err != nil {
		return 0, fmt.Errorf("list streams: %w", err)
	}
	return maxStore - others, nil
}

// FitTo is FitStore with the budget a store of maxStore bytes leaves the
// topology's streams beside the account's other streams (StoreBudget).
func (t Topology) FitTo(ctx context.Context, js jetstream.JetStream, maxStore int64) (fitted Topology, changed bool, err error) {
	budget, err := t.StoreBudget(ctx, js, maxStore)
	if err != nil {
		return t, false, err
	}
	return t.FitStore(budget)
}
