package sign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Scripts lists the files m's executor runs that a signature covers (see
// the package doc), as absolute cleaned paths, sorted.
func Scripts(m schemas.Manifest) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if systemFile(p) || seen[p] {
			return
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	// A parameter fixed by its schema (const) that names a file is the
	// script a delegation hands down: a kiwi tool passes its .py file to
	// its python runtime tool as script_path.
	for _, p := range constPaths(m.Parameters) {
		add(p)
	}
	x := m.Executor
	var tmpl []string
	if x != nil {
		switch x.Kind {
		case schemas.ExecSubprocess:
			tmpl = x.Argv
		case schemas.ExecMCP:
			tmpl = x.Command
		}
	}
	for i, el := range tmpl {
		if el == "" || hasPlaceholder(el) || i == 0 && !strings.Contains(el, "/") {
			continue
		}
		el = unescapeBraces(el)
		p := el
		if !filepath.IsAbs(p) {
			if x.Dir == "" || !filepath.IsAbs(x.Dir) {
				// Relative to a fresh empty directory: nothing there to run.
				continue
			}
			p = filepath.Join(x.Dir, p)
		}
		add(p)
	}
	// Declared files count whether or not they exist now, and wherever
	// they are: the manifest says the tool runs them, so a missing one is
	// refused at signing and at verification alike.
	files, _ := DeclaredFiles(m)
	for _, p := range files {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// DeclaredFiles are the executor's files (Executor.Files) as absolute
// cleaned paths. A relative entry needs the executor's dir to be absolute;
// the error names the entries that cannot be placed.
func DeclaredFiles(m schemas.Manifest) ([]string, error) {
	x := m.Executor
	if x == nil {
		return nil, nil
	}
	var out, bad []string
	for _, f := range x.Files {
		switch {
		case f == "":
			continue
		case filepath.IsAbs(f):
			out = append(out, filepath.Clean(f))
		case filepath.IsAbs(x.Dir):
			out = append(out, filepath.Join(x.Dir, f))
		default:
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("tool %s: executor files %q are relative but the executor has no absolute dir", m.ID, bad)
	}
	return out, nil
}

// constPaths are the absolute paths among the string consts of a
// parameter schema's top-level properties.
func constPaths(params json.RawMessage) []string {
	if len(params) == 0 {
		return nil
	}
	var doc struct {
		Properties map[string]struct {
			Const any `json:"const"`
		} `json:"properties"`
	}
	if json.Unmarshal(params, &doc) != nil {
		return nil
	}
	var out []string
	for _, p := range doc.Properties {
		if s, ok := p.Const.(string); ok && filepath.IsAbs(s) {
			out = append(out, s)
		}
	}
	return out
}

// systemDirs hold the system's commands and libraries: an interpreter
// there (/usr/bin/python3) is the system's, updated by its package manager,
// not part of the tool.
var systemDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/", "/lib/", "/lib64/"}

func systemFile(p string) bool {
	for _, d := range systemDirs {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// hasPlaceholder reports whether a template element holds a {name}
// placeholder; {{ and }} are literal braces.
func hasPlaceholder(s string) bool {
	return strings.Contains(strings.ReplaceAll(s, "{{", ""), "{")
}

func unescapeBraces(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "{{", "{"), "}}", "}")
}

// maxScriptBytes bounds what is hashed: a tool's script, not a data set.
const maxScriptBytes = 256 << 20

// hashFile is the hex sha256 of a file's content.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxScriptBytes+1))
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	if n > maxScriptBytes {
		return "", fmt.Errorf("hash %s: larger than %d MiB", path, maxScriptBytes>>20)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
