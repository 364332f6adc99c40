// Package bundle is a trained model version on disk: what `toolyard train`
// writes and discover workers load. A bundle is a directory:
//
//	manifest.json   version, when, what it was trained on, its metrics, and
//	                the sha256 of every other file
//	usage.json      discover.Usage: learned intents per tool, the fused
//	                weights of the usage signals, the refitted calibration
//	templates.json  Templates: the predictor's statistics
//	usage_vectors.bin  the learned intents as the usage model's sentence
//	                encoder embedded them (VectorsFile), when it has one
//
// Files are written to a temporary directory and renamed into place, so a
// reader never sees half a bundle, and ReadDir checks every file against the
// manifest.
package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/toolyard/toolyard/workers/discover"
)

// File names inside a bundle directory.
const (
	ManifestFile  = "manifest.json"
	UsageFile     = "usage.json"
	TemplatesFile = "templates.json"
)

// Manifest describes a bundle.
type Manifest struct {
	Version   string    `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	Trained   Trained   `json:"trained"`
	// Metrics are the held-out figures of training (see training/learn).
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Files maps each file of the bundle to its sha256.
	Files map[string]string `json:"files"`
	Note  string            `json:"note,omitempty"`
}

// Trained says what a bundle was learned from.
type Trained struct {
	Records  int            `json:"records"`
	Examples int            `json:"examples"`
	BySource map[string]int `json:"by_source,omitempty"`
	From     time.Time      `json:"from"`
	Until    time.Time      `json:"until"`
}

// Templates are the predictor's statistics (format "templates/v1"):
// Next[tool] lists the tools that followed it in a session, most frequent
// first; Context[word] the tools whose intents that word preceded in the
// conversation. Counts are of distinct examples.
//
// Shortcuts are the learned shortcuts (workers/shortcut): by normalised
// intent phrasing, the tool it resolved to again and again. A bundle
// without them (older ones) gives no hints.
type Templates struct {
	Format    string              `json:"format"`
	Next      map[string][]Count  `json:"next"`
	Context   map[string][]Count  `json:"context"`
	Shortcuts map[string]Shortcut `json:"shortcuts,omitempty"`
}

// Shortcut is one learned shortcut: the tool a phrasing resolved to, how
// many of its labels said so, from how many sessions, and their share of
// all the phrasing's labels.
type Shortcut struct {
	Tool     string  `json:"tool"`
	Count    int     `json:"count"`
	Sessions int     `json:"sessions"`
	Share    float64 `json:"share"`
}

// Count is a tool and how often it was seen.
type Count struct {
	Tool  string `json:"tool"`
	Count int    `json:"count"`
}

// TemplatesFormat is the format Templates are written in.
const TemplatesFormat = "templates/v1"

// Bundle is a model version.
type Bundle struct {
	Manifest  Manifest
	Usage     *discover.Usage
	Templates *Templates
}

// WriteDir writes the bundle to dir, replacing what is there at once.
// What is there must be nothing, an empty directory or a bundle
// (CheckReplaceable): a replaced directory is deleted whole.
func (b *Bundle) WriteDir(dir string) error {
	if b.Manifest.Version == "" {
		return errors.New("bundle: no version")
	}
	if err := CheckReplaceable(dir); err != nil {
		return err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer os.RemoveAll(tmp)
	m := b.Manifest
	m.Files = map[string]string{}
	for name, v := range map[string]any{UsageFile: b.Usage, TemplatesFile: b.Templates} {
		if v == nil {
			continue
		}
		sum, err := writeJSON(filepath.Join(tmp, name), v)
		if err != nil {
			return err
		}
		m.Files[name] = sum
	}
	if b.Usage != nil && b.Usage.Vectors != nil {
		data, ok, err := encodeVectors(b.Usage.Vectors)
		if err != nil {
			return err
		}
		if ok {
			if err := os.WriteFile(filepath.Join(tmp, VectorsFile), data, 0o644); err != nil {
				return fmt.Errorf("bundle: %w", err)
			}
			sum := sha256.Sum256(data)
			m.Files[VectorsFile] = hex.EncodeToString(sum[:])
		}
	}
	if _, err := writeJSON(filepath.Join(tmp, ManifestFile), m); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	old := dir + ".old"
	os.RemoveAll(old)
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	os.RemoveAll(old)
	b.Manifest.Files = m.Files
	return nil
}

// CheckReplaceable says whether WriteDir may put a bundle at dir: dir does
// not exist, is an empty directory, or holds a bundle's files and nothing
// else. WriteDir replaces the directory whole, so anything else there (a
// file, a project, notes beside an old version) would be deleted.
func CheckReplaceable(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("bundle: %s is a file, not a model version directory: give a new directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	known := []string{ManifestFile, UsageFile, TemplatesFile, VectorsFile}
	for _, e := range entries {
		if !slices.Contains(known, e.Name()) || !e.Type().IsRegular() {
			return fmt.Errorf("bundle: %s holds %s, so it is not a model version directory, and writing the version would replace it whole: give a new or empty directory", dir, e.Name())
		}
	}
	if len(entries) > 0 && !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == ManifestFile }) {
		return fmt.Errorf("bundle: %s has no %s, so it is not a model version directory: give a new or empty directory", dir, ManifestFile)
	}
	return nil
}

func writeJSON(path string, v any) (string, error) {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return "", fmt.Errorf("bundle: encode %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// ReadDir reads a bundle written by WriteDir, checking every file's sha256.
func ReadDir(dir string) (*Bundle, error) {
	var b Bundle
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, fmt.Errorf("bundle %s: not a model version directory (no %s; 'toolyard train --out DIR' writes one): %w", dir, ManifestFile, err)
	}
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", dir, err)
	}
	if err := json.Unmarshal(data, &b.Manifest); err != nil {
		return nil, fmt.Errorf("bundle %s: %s: %w", dir, ManifestFile, err)
	}
	// A manifest that names no version or no usage model is not one
	// training wrote: read as it stood it put "no model" in force, and an
	// eval with it printed the figures without a model as the model's.
	if b.Manifest.Version == "" {
		return nil, fmt.Errorf("bundle %s: %s names no version: not a model version directory", dir, ManifestFile)
	}
	if _, ok := b.Manifest.Files[UsageFile]; !ok {
		return nil, fmt.Errorf("bundle %s: %s lists no %s: not a trained model version", dir, ManifestFile, UsageFile)
	}
	names := make([]string, 0, len(b.Manifest.Files))
	for name := range b.Manifest.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	var vectors *discover.UsageVectors
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", dir, err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != b.Manifest.Files[name] {
			return nil, fmt.Errorf("bundle %s: %s has sha256 %s, the manifest says %s", dir, name, got, b.Manifest.Files[name])
		}
		if name == VectorsFile {
			if vectors, err = decodeVectors(data); err != nil {
				return nil, fmt.Errorf("bundle %s: %s: %w", dir, name, err)
			}
			continue
		}
		var dst any
		switch name {
		case UsageFile:
			b.Usage = &discover.Usage{}
			dst = b.Usage
		case TemplatesFile:
			b.Templates = &Templates{}
			dst = b.Templates
		default:
			continue // a later format's file: checked, not read
		}
		if err := json.Unmarshal(data, dst); err != nil {
			return nil, fmt.Errorf("bundle %s: %s: %w", dir, name, err)
		}
	}
	if vectors != nil && b.Usage != nil {
		b.Usage.Vectors = vectors
	}
	return &b, nil
}

// Apply puts the bundle's usage model (and the calibration it carries) in
// force on a running engine; searches in flight finish on the old one.
func (b *Bundle) Apply(ctx context.Context, e *discover.Engine) error {
	if b.Usage == nil {
		return e.SetUsage(ctx, nil)
	}
	u := *b.Usage
	if u.Version == "" {
		u.Version = b.Manifest.Version
	}
	return e.SetUsage(ctx, &u)
}
