package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/workers/effects"
	"github.com/toolyard/toolyard/workers/execute"
)

// effectFlags set how the execute stage makes calls take effect once and
// where it keeps large outputs.
type effectFlags struct {
	exactlyOnce bool
	lease       time.Duration
	ttl         time.Duration
	busyWait    time.Duration
	keepOutputs int
	retryBudget time.Duration
}

func (f *effectFlags) register(fl *pflag.FlagSet) {
	fl.BoolVar(&f.exactlyOnce, "exactly-once", true, "claim each call in the executions KV bucket before running it, so a redelivered call republishes its stored result instead of running the tool again ; off: a redelivery runs the tool again (tools get TOOLYARD_IDEMPOTENCY_KEY either way, to dedupe themselves)")
	fl.DurationVar(&f.lease, "lease", effects.DefaultLease, "how long a worker's claim on a call holds without a heartbeat: a call whose worker died is taken over after this")
	fl.DurationVar(&f.ttl, "execution-ttl", effects.DefaultRecordTTL, "how long execution records and stored large outputs are kept (when the buckets are created)")
	fl.DurationVar(&f.busyWait, "busy-wait", effects.DefaultBusyWait, "how long a delivery waits for another live worker running the same call before giving the message back")
	fl.IntVar(&f.keepOutputs, "keep-outputs", effects.DefaultKeepOutputs, "large outputs (over 64 KiB, kept in the outputs object store) kept per tool; older ones are deleted")
	fl.DurationVar(&f.retryBudget, "retry-budget", execute.DefaultRetryBudget, "how long a call's temporary failures (connection refused, timeouts, 5xx, exit status 75) are retried with backoff before the agent is told; 0 turns retries off")
}

// stageOptions are the execute binding's options.
func (f *effectFlags) stageOptions() []execute.StageOption {
	if !f.exactlyOnce {
		return []execute.StageOption{}
	}
	return []execute.StageOption{execute.WithEffects(f.keepOutputs,
		effects.WithLease(f.lease), effects.WithTTL(f.ttl), effects.WithBusyWait(f.busyWait))}
}

// executorOptions are the executor's options these flags set.
func (f *effectFlags) executorOptions() []execute.Option {
	return []execute.Option{execute.WithRetryBudget(f.retryBudget)}
}
