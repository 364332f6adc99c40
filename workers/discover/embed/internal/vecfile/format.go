// Package vecfile is the on-disk form of the local embedder's word vectors,
// shared by the converter that writes it and the embedder that reads it, so
// the two can never disagree about the layout or the n-gram hashing.
//
// Layout, little-endian, no padding:
//
//	header      magic "TYVEC\x00\x00\x01", then the Header fields as u32/f32
//	source      Header.SourceLen bytes: where the vectors came from
//	common      Common × Dims f32: unit principal components to remove
//	whiten      Dims × Dims f32 when Whiten is 1: the whitening matrix for
//	            SIF weight SIFA after removing WhitenCC common components
//	ranks       Words u32: each word's frequency rank in the source (0 = most frequent)
//	scales      Words f32: per-word quantization scale
//	vectors     Words × Dims i8: word vector ≈ scale × int8
//	offsets     Words+1 u32: word i is blob[offsets[i]:offsets[i+1]]
//	blob        the words, lowercased UTF-8, concatenated
//	bscales     Buckets f32, bvectors Buckets × Dims i8: hashed character n-grams
//	crc         u32 CRC-32C of every byte before it
//
// Words are stored in rank order, so the first N words are the N most
// frequent ones the file kept.
package vecfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// Magic opens every file; its last byte is the format version.
const Magic = "TYVEC\x00\x00\x02"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header holds the fixed-size fields after the magic.
type Header struct {
	Dims        uint32
	Words       uint32
	SourceVocab uint32 // words in the source, the Zipf normalizer's range
	Buckets     uint32 // n-gram buckets; a power of two, or 0 for none
	NgramMin    uint32
	NgramMax    uint32
	Common      uint32 // principal components shipped
	SIFA        float32
	ZipfQ       float32
	Whiten      uint32 // 1 when the file has a whitening matrix
	WhitenCC    uint32 // common components removed before whitening
	SourceLen   uint32
}

const headerSize = 12 * 4

// File is a decoded file. Vectors and BVectors alias the bytes it was
// parsed from, so loading costs no copy of the bulk of the data.
type File struct {
	Header
	Source   string
	Common   []float32
	White    []float32
	Ranks    []uint32
	Scales   []float32
	Vectors  []byte // int8 values
	Offsets  []uint32
	Blob     string
	BScales  []float32
	BVectors []byte // int8 values
	CRC      uint32
}

// Word returns word i.
func (f *File) Word(i int) string { return f.Blob[f.Offsets[i]:f.Offsets[i+1]] }

// ErrFormat marks bytes that are not a valid vector file.
var ErrFormat = errors.New("not a valid vector file")

// Parse decodes b, checking its size and checksum.
func Parse(b []byte) (*File, error) {
	if len(b) < len(Magic)+headerSize+4 || string(b[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%w: bad magic or too short (%d bytes)", ErrFormat, len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, want %08x (truncated or corrupt)", ErrFormat, got, sum)
	}
	r := reader{b: body, off: len(Magic)}
	f := &File{CRC: sum}
	h := &f.Header
	for _, p := range []*uint32{&h.Dims, &h.Words, &h.SourceVocab, &h.Buckets, &h.NgramMin, &h.NgramMax, &h.Common} {
		*p = r.u32()
	}
	h.SIFA, h.ZipfQ = r.f32(), r.f32()
	h.Whiten, h.WhitenCC, h.SourceLen = r.u32(), r.u32(), r.u32()
	if err := h.check(); err != nil {
		return nil, err
	}
	n, d := int(h.Words), int(h.Dims)
	f.Source = string(r.take(int(h.SourceLen)))
	f.Common = r.f32s(int(h.Common) * d)
	f.White = r.f32s(int(h.Whiten) * d * d)
	f.Ranks = r.u32s(n)
	f.Scales = r.f32s(n)
	f.Vectors = r.take(n * d)
	f.Offsets = r.u32s(n + 1)
	if r.err == nil && (f.Offsets[0] != 0 || !nondecreasing(f.Offsets)) {
		return nil, fmt.Errorf("%w: word offsets out of order", ErrFormat)
	}
	if r.err == nil {
		f.Blob = string(r.take(int(f.Offsets[n])))
	}
	f.BScales = r.f32s(int(h.Buckets))
	f.BVectors = r.take(int(h.Buckets) * d)
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrFormat, len(body)-r.off)
	}
	return f, nil
}

func (h *Header) check() error {
	switch {
	case h.Dims == 0 || h.Dims > 4096:
		return fmt.Errorf("%w: dims %d", ErrFormat, h.Dims)
	case h.Words == 0 || h.Words > 1<<24:
		return fmt.Errorf("%w: %d words", ErrFormat, h.Words)
	case h.Buckets&(h.Buckets-1) != 0 || h.Buckets > 1<<24:
		return fmt.Errorf("%w: %d n-gram buckets is not a power of two", ErrFormat, h.Buckets)
	case h.Buckets > 0 && (h.NgramMin < 1 || h.NgramMax < h.NgramMin || h.NgramMax > 16):
		return fmt.Errorf("%w: n-gram sizes %d-%d", ErrFormat, h.NgramMin, h.NgramMax)
	case h.Common > h.Dims:
		return fmt.Errorf("%w: %d common components for %d dims", ErrFormat, h.Common, h.Dims)
	case h.Whiten > 1 || h.WhitenCC > h.Common:
		return fmt.Errorf("%w: whitening flag %d after %d of %d common components", ErrFormat, h.Whiten, h.WhitenCC, h.Common)
	case h.SourceLen > 1<<10:
		return fmt.Errorf("%w: source name of %d bytes", ErrFormat, h.SourceLen)
	}
	return nil
}

func nondecreasing(s []uint32) bool {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			return false
		}
	}
	return true
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = fmt.Errorf("%w: section of %d bytes at offset %d overruns the %d-byte file", ErrFormat, n, r.off, len(r.b)+4)
		return nil
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

func (r *reader) u32s(n int) []uint32 {
	b := r.take(4 * n)
	if b == nil {
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func (r *reader) f32s(n int) []float32 {
	u := r.u32s(n)
	out := make([]float32, len(u))
	for i, v := range u {
		out[i] = math.Float32frombits(v)
	}
	return out
}

// Write encodes f, computing the offsets, blob and checksum from Words.
func Write(w io.Writer, f *File, words []string) error {
	h := f.Header
	h.Words = uint32(len(words))
	h.Common = uint32(len(f.Common) / max(int(h.Dims), 1))
	h.Whiten = 0
	if len(f.White) > 0 {
		h.Whiten = 1
	}
	h.SourceLen = uint32(len(f.Source))
	if err := h.check(); err != nil {
		return err
	}
	n, d := len(words), int(h.Dims)
	switch {
	case len(f.Ranks) != n || len(f.Scales) != n || len(f.Vectors) != n*d:
		return fmt.Errorf("%d words but %d ranks, %d scales, %d vector bytes", n, len(f.Ranks), len(f.Scales), len(f.Vectors))
	case len(f.White) != int(h.Whiten)*d*d:
		return fmt.Errorf("whitening matrix of %d values for %d dims", len(f.White), d)
	case len(f.BScales) != int(h.Buckets) || len(f.BVectors) != int(h.Buckets)*d:
		return fmt.Errorf("%d buckets but %d scales, %d vector bytes", h.Buckets, len(f.BScales), len(f.BVectors))
	}
	var buf []byte
	buf = append(buf, Magic...)
	for _, v := range []uint32{h.Dims, h.Words, h.SourceVocab, h.Buckets, h.NgramMin, h.NgramMax, h.Common,
		math.Float32bits(h.SIFA), math.Float32bits(h.ZipfQ), h.Whiten, h.WhitenCC, h.SourceLen} {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	buf = append(buf, f.Source...)
	buf = appendF32s(buf, f.Common)
	buf = appendF32s(buf, f.White)
	for _, v := range f.Ranks {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	buf = appendF32s(buf, f.Scales)
	buf = append(buf, f.Vectors...)
	off := uint32(0)
	buf = binary.LittleEndian.AppendUint32(buf, 0)
	for _, w := range words {
		off += uint32(len(w))
		buf = binary.LittleEndian.AppendUint32(buf, off)
	}
	for _, w := range words {
		buf = append(buf, w...)
	}
	buf = appendF32s(buf, f.BScales)
	buf = append(buf, f.BVectors...)
	buf = binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli))
	_, err := w.Write(buf)
	return err
}

func appendF32s(b []byte, s []float32) []byte {
	for _, v := range s {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// Quantize stores v as int8 values with one scale, v ≈ scale × q.
func Quantize(dst []byte, v []float32) (scale float32) {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	if m == 0 {
		clear(dst[:len(v)])
		return 0
	}
	scale = m / 127
	for i, x := range v {
		dst[i] = byte(int8(math.Round(float64(x / scale))))
	}
	return scale
}
