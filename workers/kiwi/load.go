package kiwi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// ToolsDir is where a project keeps its tools, under its root.
const ToolsDir = ".ai/tools"

// File is one tool file of a directory: its tool, or why it was refused.
type File struct {
	Path     string
	Tool     Tool
	Manifest schemas.Manifest
	Err      error
}

// Options of LoadDir.
type Options struct {
	// Namespace prefixes the tool ids: Namespace/<name> ("kiwi" by default).
	Namespace string
	// RequireSigned refuses files without a signature line.
	RequireSigned bool
}

// LoadDir parses every DIR/.ai/tools/**/*.py (files and directories whose
// name starts with "_" or "." are skipped: __init__.py, helpers, caches) and
// turns each into a manifest. It returns every file, accepted or refused; the
// error is for the directory itself.
func LoadDir(dir string, opts Options) ([]File, error) {
	if opts.Namespace == "" {
		opts.Namespace = "kiwi"
	}
	root := filepath.Join(dir, ToolsDir)
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("no tools directory: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	var out []File
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".py") || !d.Type().IsRegular() {
			return nil
		}
		out = append(out, loadFile(root, path, opts))
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("read %s: %w", root, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func loadFile(root, path string, opts Options) File {
	f := File{Path: path}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		f.Err = err
		return f
	}
	name := filepath.ToSlash(strings.TrimSuffix(rel, ".py"))
	abs, err := filepath.Abs(path)
	if err != nil {
		f.Err = err
		return f
	}
	src, err := os.ReadFile(path)
	if err != nil {
		f.Err = err
		return f
	}
	f.Tool, f.Err = Parse(name, abs, src)
	if f.Err == nil && opts.RequireSigned && f.Tool.Signature == nil {
		f.Err = errors.New("unsigned (no # kiwi-mcp:validated:… line) and signatures are required")
	}
	if f.Err == nil {
		f.Manifest, f.Err = f.Tool.Manifest(opts.Namespace)
	}
	return f
}

// Manifest is the tool's registry manifest: id Namespace/Name, its
// executor a delegation to __executor_id__, validated as the registry
// validates every manifest.
func (t Tool) Manifest(namespace string) (schemas.Manifest, error) {
	params, err := t.ParametersJSON()
	if err != nil {
		return schemas.Manifest{}, err
	}
	base := t.Name
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	m := schemas.Manifest{
		ID: namespace + "/" + t.Name, Name: base, Description: t.Description, Parameters: params,
		Server: namespace, Version: t.Version,
		Executor: &schemas.Executor{Kind: schemas.ExecTool, Tool: t.ExecutorID},
	}
	if t.Category != "" {
		m.Keywords = []string{t.Category}
	}
	m.Permissions = t.Permissions
	raw, err := json.Marshal(m)
	if err != nil {
		return m, err
	}
	v, err := schemas.ValidateManifest(raw)
	if err != nil {
		return m, fmt.Errorf("manifest: %w", err)
	}
	return v, nil
}
