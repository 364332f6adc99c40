package bundle

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/toolyard/toolyard/workers/discover"
)

// VectorsFile holds the usage model's learned intents as its sentence
// encoder embedded them (discover.UsageVectors), so that a worker putting
// the version in force embeds none of them: the encoder takes milliseconds
// an intent. The format, little-endian:
//
//	"toolyard usage vectors v1\n"
//	the encoder id, then "\n"
//	uint32 intents, uint32 dimensions
//	per intent: one byte (1: a vector follows, 0: none), then dimensions float32
//
// A bundle without the file (word-vector models, or one whose vectors
// would exceed MaxVectorBytes) is embedded when put in force, as before.
const VectorsFile = "usage_vectors.bin"

// MaxVectorBytes bounds the vectors a bundle stores (about 260,000 intents
// of the sentence encoder's 512 dimensions). Storing is worth it far beyond
// where it stops: a worker downloads 512 MiB in seconds, while embedding
// that many intents takes about 20 ms each, an hour and more on two cores,
// during which searches go on without the new version. The bound keeps a
// version to what a worker holds in memory twice while loading it, and the
// models bucket to --keep-versions times that (workers/models/retention.go).
const MaxVectorBytes = 512 << 20

const vectorsMagic = "toolyard usage vectors v1\n"

// encodeVectors is v in the VectorsFile format; ok is false when v is too
// large to store.
func encodeVectors(v *discover.UsageVectors) (data []byte, ok bool, err error) {
	if strings.Contains(v.Encoder, "\n") || v.Encoder == "" {
		return nil, false, fmt.Errorf("bundle: usage vectors: bad encoder id %q", v.Encoder)
	}
	if size := int64(len(v.Vectors)) * int64(v.Dim) * 4; size > MaxVectorBytes {
		return nil, false, nil
	}
	var b bytes.Buffer
	b.Grow(len(vectorsMagic) + len(v.Encoder) + 9 + len(v.Vectors)*(1+4*v.Dim))
	b.WriteString(vectorsMagic)
	b.WriteString(v.Encoder + "\n")
	_ = binary.Write(&b, binary.LittleEndian, [2]uint32{uint32(len(v.Vectors)), uint32(v.Dim)})
	for i, x := range v.Vectors {
		if x == nil {
			b.WriteByte(0)
			continue
		}
		if len(x) != v.Dim {
			return nil, false, fmt.Errorf("bundle: usage vector %d has %d components, not %d", i, len(x), v.Dim)
		}
		b.WriteByte(1)
		_ = binary.Write(&b, binary.LittleEndian, x)
	}
	return b.Bytes(), true, nil
}

// decodeVectors reads the VectorsFile format.
func decodeVectors(data []byte) (*discover.UsageVectors, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	magic := make([]byte, len(vectorsMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != vectorsMagic {
		return nil, errors.New("not a usage vectors file (v1)")
	}
	enc, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("encoder id: %w", err)
	}
	var head [2]uint32
	if err := binary.Read(r, binary.LittleEndian, &head); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	n, dim := int(head[0]), int(head[1])
	// Each intent takes at least its flag byte: a count beyond the data
	// is corrupt, and must not size an allocation.
	if n > len(data) || dim > len(data)/4 {
		return nil, fmt.Errorf("header says %d vectors of %d dimensions in %d bytes", n, dim, len(data))
	}
	v := &discover.UsageVectors{Encoder: strings.TrimSuffix(enc, "\n"), Dim: dim, Vectors: make([][]float32, n)}
	for i := range n {
		flag, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("vector %d: %w", i, err)
		}
		if flag == 0 {
			continue
		}
		x := make([]float32, dim)
		if err := binary.Read(r, binary.LittleEndian, x); err != nil {
			return nil, fmt.Errorf("vector %d: %w", i, err)
		}
		for _, c := range x {
			if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
				return nil, fmt.Errorf("vector %d has a component %v", i, c)
			}
		}
		v.Vectors[i] = x
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, errors.New("data after the last vector")
	}
	return v, nil
}
