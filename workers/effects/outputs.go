package effects

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Buckets of large outputs.
const (
	OutputsBucket = "outputs"
	// OutputsIndexBucket holds, per tool, the names of its kept outputs.
	OutputsIndexBucket = "outputs_index"
	// DefaultKeepOutputs is how many outputs of one tool are kept.
	DefaultKeepOutputs = 10
)

// ErrOutputGone: the output a reference names was deleted (a tool keeps
// only its last few) or replaced by a newer run of the same call.
var ErrOutputGone = errors.New("output no longer stored")

// Outputs keeps tool outputs too large to carry in a result. Safe for
// concurrent use.
type Outputs struct {
	obj  jetstream.ObjectStore
	idx  jetstream.KeyValue
	keep int
	cfg  config
}

// OutputsOption configures Outputs.
type OutputsOption func(*outputsConfig)

type outputsConfig struct {
	keep int
	opts []Option
}

// KeepOutputs sets how many outputs per tool are kept (10); older ones are
// deleted as new ones arrive.
func KeepOutputs(n int) OutputsOption {
	return func(c *outputsConfig) {
		if n > 0 {
			c.keep = n
		}
	}
}

// OutputsWith applies shared options: WithTTL (how long an output is kept
// at most, 24h), WithReplicas, WithMemoryStorage, WithLogger.
func OutputsWith(opts ...Option) OutputsOption {
	return func(c *outputsConfig) { c.opts = append(c.opts, opts...) }
}

// OpenOutputs opens the outputs object store and its index, creating them
// if needed.
func OpenOutputs(ctx context.Context, js jetstream.JetStream, opts ...OutputsOption) (*Outputs, error) {
	oc := outputsConfig{keep: DefaultKeepOutputs}
	for _, o := range opts {
		o(&oc)
	}
	cfg := newConfig(oc.opts)
	cfg.replicas = replicas(ctx, js, cfg.replicas)
	obj, err := pipeline.ObjectStore(ctx, js, jetstream.ObjectStoreConfig{
		Bucket: OutputsBucket, Description: "Toolyard tool outputs too large for a result",
		TTL: cfg.ttl, Replicas: cfg.replicas, Storage: cfg.storage, Compression: true,
	})
	if err != nil {
		return nil, err
	}
	idx, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: OutputsIndexBucket, Description: "Toolyard: names of the kept outputs of each tool, oldest first",
		History: 1, TTL: cfg.ttl, Replicas: cfg.replicas, Storage: cfg.storage,
	})
	if err != nil {
		return nil, err
	}
	return &Outputs{obj: obj, idx: idx, keep: oc.keep, cfg: cfg}, nil
}

// ObjectName is where the output of a call is kept.
func ObjectName(toolID string, id ID) string {
	return toolID + "/" + id.SessionID + "/" + id.IntentID
}

// Put stores a call's whole output and returns its reference. The tool's
// oldest outputs beyond the kept number are deleted.
func (o *Outputs) Put(ctx context.Context, toolID string, id ID, data []byte, contentType string) (schemas.OutputRef, error) {
	name := ObjectName(toolID, id)
	info, err := o.obj.Put(ctx, jetstream.ObjectMeta{Name: name, Metadata: map[string]string{
		"tool_id": toolID, "session_id": id.SessionID, "intent_id": id.IntentID, "content_type": contentType,
	}}, bytes.NewReader(data))
	if err != nil {
		return schemas.OutputRef{}, fmt.Errorf("store output of %s: %w", name, err)
	}
	ref := schemas.OutputRef{Bucket: OutputsBucket, Name: name, Size: int64(info.Size), Digest: info.Digest, ContentType: contentType}
	evicted, err := o.index(ctx, toolID, name)
	if err != nil {
		// The output is stored; it is only not counted yet. The bucket's
		// TTL removes it in the end.
		o.cfg.log.Warn("output index not updated; older outputs of the tool are kept for now", "tool", toolID, "error", err)
	}
	for _, old := range evicted {
		if err := o.obj.Delete(ctx, old); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			o.cfg.log.Warn("old output not deleted", "name", old, "error", err)
		}
	}
	return ref, nil
}

// index appends name to the tool's list and returns the names that fell
// off its end. A compare-and-set loop: workers storing outputs of the same
// tool at once each get their turn.
func (o *Outputs) index(ctx context.Context, toolID, name string) ([]string, error) {
	key := "t." + base64.RawURLEncoding.EncodeToString([]byte(toolID))
	for range 20 {
		var names []string
		var rev uint64
		e, err := o.idx.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return nil, err
		default:
			rev = e.Revision()
			if err := json.Unmarshal(e.Value(), &names); err != nil {
				names = nil // unreadable: start over; its objects age out
			}
		}
		names = slices.DeleteFunc(names, func(n string) bool { return n == name })
		names = append(names, name)
		var evicted []string
		if over := len(names) - o.keep; over > 0 {
			evicted = slices.Clone(names[:over])
			names = names[over:]
		}
		data, _ := json.Marshal(names)
		if rev == 0 {
			_, err = o.idx.Create(ctx, key, data)
		} else {
			_, err = o.idx.Update(ctx, key, data, rev)
		}
		if err == nil {
			return evicted, nil
		}
		if !isConflict(err) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("index of tool %s: too many concurrent updates", toolID)
}

// Get fetches the output a reference names. ErrOutputGone if it was
// deleted, or replaced by another run of the same call.
func (o *Outputs) Get(ctx context.Context, ref schemas.OutputRef) ([]byte, error) {
	data, err := o.obj.GetBytes(ctx, ref.Name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w: %s/%s (only the last outputs of each tool are kept)", ErrOutputGone, ref.Bucket, ref.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("fetch output %s/%s: %w", ref.Bucket, ref.Name, err)
	}
	if ref.Digest != "" && digest(data) != ref.Digest {
		return nil, fmt.Errorf("%w: %s/%s holds a newer output than the one referenced", ErrOutputGone, ref.Bucket, ref.Name)
	}
	return data, nil
}

// Names lists the kept outputs of a tool, oldest first.
func (o *Outputs) Names(ctx context.Context, toolID string) ([]string, error) {
	e, err := o.idx.Get(ctx, "t."+base64.RawURLEncoding.EncodeToString([]byte(toolID)))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	err = json.Unmarshal(e.Value(), &names)
	return names, err
}

// digest is an object's digest as the object store writes it.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "SHA-256=" + base64.URLEncoding.EncodeToString(sum[:])
}

// ParseRef reads a reference written as BUCKET/NAME, or a bare NAME in
// the outputs bucket when it does not start with a bucket's name.
func ParseRef(s string) (schemas.OutputRef, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return schemas.OutputRef{}, errors.New("empty output reference")
	}
	if strings.HasPrefix(s, "{") {
		var r schemas.OutputRef
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			return schemas.OutputRef{}, fmt.Errorf("output reference %q: %w", s, err)
		}
		if r.Name == "" {
			return schemas.OutputRef{}, fmt.Errorf("output reference %q has no name", s)
		}
		if r.Bucket == "" {
			r.Bucket = OutputsBucket
		}
		return r, nil
	}
	if name, ok := strings.CutPrefix(s, OutputsBucket+"/"); ok && name != "" {
		return schemas.OutputRef{Bucket: OutputsBucket, Name: name}, nil
	}
	return schemas.OutputRef{Bucket: OutputsBucket, Name: s}, nil
}

// LookupOutputs opens the outputs object store and its index for reading,
// without creating them: ErrOutputGone if no output was ever stored.
func LookupOutputs(ctx context.Context, js jetstream.JetStream) (*Outputs, error) {
	obj, err := js.ObjectStore(ctx, OutputsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("%w: there is no %s object store on this server yet", ErrOutputGone, OutputsBucket)
	}
	if err != nil {
		return nil, fmt.Errorf("open object store %s: %w", OutputsBucket, err)
	}
	idx, err := js.KeyValue(ctx, OutputsIndexBucket)
	if err != nil {
		return nil, fmt.Errorf("open KV bucket %s: %w", OutputsIndexBucket, err)
	}
	return &Outputs{obj: obj, idx: idx, keep: DefaultKeepOutputs, cfg: newConfig(nil)}, nil
}
