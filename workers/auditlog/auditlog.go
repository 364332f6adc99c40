// Package auditlog moves audit records in and out of the AUDIT stream:
// imports of audit history (idempotent, whatever time passes between two
// imports of the same file) and exports over a time range, read with an
// ordered consumer in bounded memory.
package auditlog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// ImportStage is the stage token of imported records' subjects:
// audit.import.<session>.
const ImportStage = "import"

// importsBucket remembers which records were imported, by content hash.
// The stream's duplicate window (minutes) would forget a file imported
// again next week; the bucket does not.
const importsBucket = "audit_imports"

// Importer appends audit records to the AUDIT stream once each.
type Importer struct {
	js   jetstream.JetStream
	seen jetstream.KeyValue
}

// NewImporter opens the bucket of imported record ids.
func NewImporter(ctx context.Context, js jetstream.JetStream) (*Importer, error) {
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: importsBucket, Description: "Content hashes of imported audit records: a re-import adds nothing", Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", importsBucket, err)
	}
	return &Importer{js: js, seen: kv}, nil
}

// ID is a record's identity: the sha256 of its canonical JSON.
func ID(r schemas.AuditRecord) (string, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Import appends r unless a record with the same content was imported
// before; it says whether it added it. The id is claimed in the bucket only
// after the stream has the record, and the publish carries it as
// Nats-Msg-Id, so an import cut short and run again neither loses nor
// doubles a record.
func (im *Importer) Import(ctx context.Context, r schemas.AuditRecord) (bool, error) {
	if !schemas.ValidSessionID(r.SessionID) {
		return false, fmt.Errorf("session id %q is not a single subject token (letters, digits, - and _)", r.SessionID)
	}
	id, err := ID(r)
	if err != nil {
		return false, err
	}
	if _, err := im.seen.Get(ctx, id); err == nil {
		return false, nil
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, fmt.Errorf("check imported ids: %w", err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	ack, err := im.js.Publish(ctx, schemas.AuditSubject(ImportStage, r.SessionID), data, jetstream.WithMsgID("import:"+id))
	if err != nil {
		return false, fmt.Errorf("append to %s: %w", pipeline.StreamAudit, err)
	}
	if _, err := im.seen.Create(ctx, id, []byte(fmt.Sprint(ack.Sequence))); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		return false, fmt.Errorf("record imported id: %w", err)
	}
	return !ack.Duplicate, nil
}

// Filter selects records to export.
type Filter struct {
	Since, Until time.Time // zero: unbounded
	// Session is a glob (path.Match) over session ids, "" for all.
	Session string
	// Stage is one stage ("" for all; "import" for imported history).
	Stage string
}

// Export calls fn with every record of the AUDIT stream that matches f,
// in stream order, and stops at the last record stored when it started
// (records arriving meanwhile are for the next export). It reads with an
// ordered consumer from f.Since: memory stays bounded however many records
// there are.
func Export(ctx context.Context, js jetstream.JetStream, f Filter, fn func(schemas.AuditRecord) error) error {
	if f.Session != "" {
		if _, err := path.Match(f.Session, ""); err != nil {
			return fmt.Errorf("--session %q: %w", f.Session, err)
		}
	}
	stage := "*"
	if f.Stage != "" {
		if !schemas.ValidSessionID(f.Stage) {
			return fmt.Errorf("--stage %q is not a stage name", f.Stage)
		}
		stage = f.Stage
	}
	return pipeline.ReadStream(ctx, js, pipeline.StreamAudit, schemas.AuditPrefix+stage+".>", f.Since, func(m jetstream.Msg, meta *jetstream.MsgMetadata) error {
		var r schemas.AuditRecord
		if err := json.Unmarshal(m.Data(), &r); err != nil {
			return fmt.Errorf("%s sequence %d: %w", pipeline.StreamAudit, meta.Sequence.Stream, err)
		}
		if !f.matches(r) {
			return nil
		}
		return fn(r)
	})
}

// matches filters on the record's own time: an imported record is stored
// long after it happened, so the stream's time only bounds where reading
// starts (a record is never stored before it happened).
func (f Filter) matches(r schemas.AuditRecord) bool {
	if !f.Since.IsZero() && r.Timestamp.Before(f.Since) || !f.Until.IsZero() && r.Timestamp.After(f.Until) {
		return false
	}
	if f.Session == "" {
		return true
	}
	ok, _ := path.Match(f.Session, r.SessionID)
	return ok
}
