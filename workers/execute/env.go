package execute

import (
	"os"
	"strings"

	"github.com/toolyard/toolyard/workers/internal/toolenv"
)

// EnvIntentID names the variable that carries the call's intent id, the
// idempotency key of a tool with side effects.
const EnvIntentID = "TOOLYARD_INTENT_ID"

// buildEnv assembles a subprocess environment. manifest entries are names
// passed through from the worker, or NAME=value settings; allowed are
// names passed through for every tool (WithEnv).
func buildEnv(manifest, allowed []string, intentID, idempotencyKey string) []string {
	b := toolenv.New()
	b.Pass(allowed)
	b.Pass(manifest)
	b.Set(EnvIntentID, intentID)
	if idempotencyKey != "" {
		b.Set(EnvIdempotencyKey, idempotencyKey)
	}
	return b.Environ()
}

// lookPath finds a command on the PATH the subprocess will have, not the
// worker's, so what runs is what the tool's environment names.
func lookPath(name string, env []string) (string, error) {
	if strings.ContainsRune(name, '/') {
		return name, nil
	}
	path := toolenv.DefaultPath
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range strings.Split(path, ":") {
		if dir == "" || !strings.HasPrefix(dir, "/") {
			// Relative PATH entries would resolve against the tool's
			// temporary dir; skip them rather than guess.
			continue
		}
		full := dir + "/" + name
		if fi, err := os.Stat(full); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return full, nil
		}
	}
	return "", os.ErrNotExist
}

// setEnv replaces (or adds) name in env.
func setEnv(env []string, name, value string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
