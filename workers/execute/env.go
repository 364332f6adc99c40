package execute

import (
	"os"
	"strings"
)

// baseEnv is what every subprocess gets from the worker's environment:
// enough to find commands and speak the right locale, nothing secret.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ"}

// defaultPath is used when the worker itself has no PATH.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// EnvIntentID names the variable that carries the call's intent id, the
// idempotency key of a tool with side effects.
const EnvIntentID = "TOOLYARD_INTENT_ID"

// buildEnv assembles a subprocess environment. manifest entries are names
// passed through from the worker, or NAME=value settings; allowed are
// names passed through for every tool (WithEnv).
func buildEnv(manifest, allowed []string, intentID, idempotencyKey string) []string {
	vals := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = v
	}
	pass := func(names []string) {
		for _, n := range names {
			if k, v, ok := strings.Cut(n, "="); ok {
				if k != "" {
					set(k, v)
				}
				continue
			}
			if v, ok := os.LookupEnv(n); ok {
				set(n, v)
			}
		}
	}
	pass(baseEnv)
	if _, ok := vals["PATH"]; !ok {
		set("PATH", defaultPath)
	}
	pass(allowed)
	pass(manifest)
	set(EnvIntentID, intentID)
	if idempotencyKey != "" {
		set(EnvIdempotencyKey, idempotencyKey)
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+"="+vals[k])
	}
	return out
}

// lookPath finds a command on the PATH the subprocess will have, not the
// worker's, so what runs is what the tool's environment names.
func lookPath(name string, env []string) (string, error) {
	if strings.ContainsRune(name, '/') {
		return name, nil
	}
	path := defaultPath
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
