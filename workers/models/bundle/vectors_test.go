package bundle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"
)

// A sentence encoder's vectors of the learned intents travel with the
// bundle, an intent without one included; a bundle without them reads as
// before.
func TestVectorsRoundTrip(t *testing.T) {
	b := sample()
	b.Usage.Intents = append(b.Usage.Intents, discover.LearnedIntent{Tool: "db/sql", Text: "the"})
	b.Usage.Vectors = &discover.UsageVectors{Encoder: "use-lite:test", Dim: 3, Vectors: [][]float32{{0.6, 0.8, 0}, nil}}
	dir := filepath.Join(t.TempDir(), "model")
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Manifest.Files[VectorsFile]; !ok {
		t.Fatalf("the manifest lists no %s: %v", VectorsFile, b.Manifest.Files)
	}
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Usage.Vectors, b.Usage.Vectors) {
		t.Errorf("read %+v, wrote %+v", got.Usage.Vectors, b.Usage.Vectors)
	}

	plain := sample()
	dir = filepath.Join(t.TempDir(), "plain")
	if err := plain.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, VectorsFile)); !os.IsNotExist(err) {
		t.Errorf("a bundle without vectors wrote %s (%v)", VectorsFile, err)
	}
	if got, err := ReadDir(dir); err != nil || got.Usage.Vectors != nil {
		t.Errorf("read back %v, %v", got.Usage.Vectors, err)
	}
}

// Vectors beyond MaxVectorBytes are left out: the version is embedded when
// put in force instead.
func TestVectorsTooLargeAreLeftOut(t *testing.T) {
	const dim = 512
	n := MaxVectorBytes/(dim*4) + 1
	v := &discover.UsageVectors{Encoder: "use-lite:test", Dim: dim, Vectors: make([][]float32, n)}
	if _, ok, err := encodeVectors(v); ok || err != nil {
		t.Errorf("%d vectors of %d dimensions: stored %v, %v", n, dim, ok, err)
	}
}

func TestDecodeVectorsRefusesBadData(t *testing.T) {
	good, ok, err := encodeVectors(&discover.UsageVectors{Encoder: "e", Dim: 2, Vectors: [][]float32{{1, 0}, nil, {0, 1}}})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := decodeVectors(good); err != nil {
		t.Fatalf("good data refused: %v", err)
	}
	nan := append([]byte(nil), good...)
	copy(nan[len(nan)-4:], []byte{0, 0, 0xc0, 0x7f}) // a NaN component
	huge := append([]byte(nil), good[:len(vectorsMagic)+2]...)
	huge = append(huge, 0xff, 0xff, 0xff, 0x7f, 2, 0, 0, 0)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not the format", []byte("hello"), "not a usage vectors file"},
		{"truncated", good[:len(good)-3], "vector 2"},
		{"trailing bytes", append(append([]byte(nil), good...), 0), "data after"},
		{"a NaN", nan, "component NaN"},
		{"a count beyond the data", huge, "header says"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := decodeVectors(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
