package main

import (
	"log/slog"

	"github.com/toolyard/toolyard/pipeline"
)

// redactLogs keeps the secrets of the messages this process is handling
// (secret arguments, tools' environment secrets) out of its log: every
// command logs through it.
func redactLogs(h slog.Handler) slog.Handler { return pipeline.RedactLogs(h) }
