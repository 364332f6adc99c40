package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/workers/models"
)

// resolveModel is a flag's value as a path on this machine: the path
// given when something is there (a model directory, or a configuration
// file), or else the version of that name stored by 'toolyard train' in the
// running Toolyard's models bucket (g's connection), downloaded and checked
// against its manifest into a temporary directory that cleanup removes.
func resolveModel(ctx context.Context, g *globalFlags, stderr io.Writer, spec string) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	if spec == "" {
		return "", cleanup, nil
	}
	if _, err := os.Stat(spec); !os.IsNotExist(err) {
		return spec, cleanup, nil // there, or unreadable: its reader says why
	}
	store, closeNC, err := openClient(g, "toolyard", func(js jetstream.JetStream) (*models.Store, error) { return models.Open(ctx, js) })
	if err != nil {
		return "", cleanup, fmt.Errorf("%s is no file or directory here, and the models bucket (for a stored version of that name) is out of reach: %w", spec, err)
	}
	defer closeNC()
	tmp, err := os.MkdirTemp("", "toolyard-model-")
	if err != nil {
		return "", cleanup, err
	}
	dir = filepath.Join(tmp, "version")
	if _, err := store.Download(ctx, spec, dir); err != nil {
		os.RemoveAll(tmp)
		return "", cleanup, fmt.Errorf("%s is neither a file or directory here nor a stored model version: %w", spec, err)
	}
	fmt.Fprintf(stderr, "model version %s read from the models bucket\n", spec)
	return dir, func() { os.RemoveAll(tmp) }, nil
}
