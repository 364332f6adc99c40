package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/workers/join"
)

// joinFlags configure the join stage, which runs nested intents on their
// inner intents' results.
type joinFlags struct {
	timeout  time.Duration
	maxInput int
}

func (j *joinFlags) register(fl *pflag.FlagSet) {
	fl.DurationVar(&j.timeout, "join-timeout", 10*time.Minute, "how long a nested (outer) intent waits for the results of the intents inside it before it is answered with an input_timeout error; make it outlast the slowest tool plus retries")
	fl.IntVar(&j.maxInput, "join-max-input", 1000, "at most this many characters of an inner intent's output are put into its outer intent (longer output is cut, marked with …)")
}

func (j *joinFlags) options() []join.Option {
	return []join.Option{join.WithTimeout(j.timeout), join.WithMaxInputRunes(j.maxInput)}
}
