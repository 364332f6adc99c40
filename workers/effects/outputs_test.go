package effects_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

func openOutputs(t *testing.T, env *pipelinetest.Env, keep int) *effects.Outputs {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o, err := effects.OpenOutputs(ctx, env.JS, effects.KeepOutputs(keep))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func big(label string, n int) []byte {
	return bytes.Repeat([]byte(label+" "), n/(len(label)+1)+1)[:n]
}

// Only the last N outputs of a tool are kept; other tools keep theirs.
func TestOutputsKeepLastNPerTool(t *testing.T) {
	env := pipelinetest.Start(t)
	o := openOutputs(t, env, 3)
	ctx := ctxT(t)
	var refs []schemas.OutputRef
	for i := range 5 {
		ref, err := o.Put(ctx, "test/big", effects.ID{SessionID: "s", IntentID: fmt.Sprintf("m%d.0", i)}, big(fmt.Sprint(i), 100<<10), "text/plain")
		if err != nil {
			t.Fatal(err)
		}
		if ref.Bucket != effects.OutputsBucket || ref.Size != 100<<10 || ref.Digest == "" {
			t.Fatalf("ref %+v", ref)
		}
		refs = append(refs, ref)
	}
	other, err := o.Put(ctx, "test/other", effects.ID{SessionID: "s", IntentID: "x.0"}, big("other", 70<<10), "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	for i, ref := range refs {
		data, err := o.Get(ctx, ref)
		if i < 2 {
			if !errors.Is(err, effects.ErrOutputGone) {
				t.Errorf("output %d of 5 (keep 3): %v, want ErrOutputGone", i, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("output %d: %v", i, err)
			continue
		}
		if !bytes.Equal(data, big(fmt.Sprint(i), 100<<10)) {
			t.Errorf("output %d: got %d bytes that differ from what was stored", i, len(data))
		}
	}
	if _, err := o.Get(ctx, other); err != nil {
		t.Errorf("another tool's output: %v", err)
	}
	names, err := o.Names(ctx, "test/big")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 3 || names[0] != refs[2].Name || names[2] != refs[4].Name {
		t.Errorf("kept names %v, want the last 3 oldest first", names)
	}
}

// A reference to an output since replaced by another run of the same call
// says so rather than returning the newer output.
func TestOutputsReplacedIsGone(t *testing.T) {
	env := pipelinetest.Start(t)
	o := openOutputs(t, env, 10)
	ctx := ctxT(t)
	id := effects.ID{SessionID: "s", IntentID: "m.0"}
	first, err := o.Put(ctx, "test/big", id, big("first", 80<<10), "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	second, err := o.Put(ctx, "test/big", id, big("second", 80<<10), "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Get(ctx, first); !errors.Is(err, effects.ErrOutputGone) {
		t.Errorf("replaced output: %v, want ErrOutputGone", err)
	}
	if data, err := o.Get(ctx, second); err != nil || !bytes.Equal(data, big("second", 80<<10)) {
		t.Errorf("current output: %d bytes, %v", len(data), err)
	}
	// Without a digest (a hand-written reference) the current one is returned.
	if _, err := o.Get(ctx, schemas.OutputRef{Bucket: effects.OutputsBucket, Name: first.Name}); err != nil {
		t.Errorf("reference by name: %v", err)
	}
}

// Workers storing outputs of one tool at once keep the index exact.
func TestOutputsConcurrentPuts(t *testing.T) {
	env := pipelinetest.Start(t)
	o := openOutputs(t, env, 4)
	ctx := ctxT(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				if _, err := o.Put(ctx, "test/big", effects.ID{SessionID: "s", IntentID: fmt.Sprintf("w%d-%d", w, i)}, big("x", 65<<10), "text/plain"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	names, err := o.Names(ctx, "test/big")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 4 {
		t.Fatalf("index holds %d names, want 4: %v", len(names), names)
	}
	for _, n := range names {
		if _, err := o.Get(ctx, schemas.OutputRef{Bucket: effects.OutputsBucket, Name: n}); err != nil {
			t.Errorf("indexed output %s: %v", n, err)
		}
	}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		in      string
		want    schemas.OutputRef
		wantErr bool
	}{
		{"outputs/test/big/s/m.0", schemas.OutputRef{Bucket: "outputs", Name: "test/big/s/m.0"}, false},
		{"test/big/s/m.0", schemas.OutputRef{Bucket: "outputs", Name: "test/big/s/m.0"}, false},
		{`{"bucket":"outputs","name":"a/b","size":3,"digest":"SHA-256=x"}`, schemas.OutputRef{Bucket: "outputs", Name: "a/b", Size: 3, Digest: "SHA-256=x"}, false},
		{`{"name":"a/b"}`, schemas.OutputRef{Bucket: "outputs", Name: "a/b"}, false},
		{`{"bucket":"outputs"}`, schemas.OutputRef{}, true},
		{`{not json`, schemas.OutputRef{}, true},
		{"  ", schemas.OutputRef{}, true},
	}
	for _, tt := range tests {
		got, err := effects.ParseRef(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v, err %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
