package uselite

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path"
)

// graphModel is the part of a TensorFlow.js model.json this package reads:
// the weights manifest (names, shapes, types, and the shard files holding
// them back to back).
type graphModel struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name  string `json:"name"`
			Shape []int  `json:"shape"`
			DType string `json:"dtype"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

type tensor struct {
	shape []int
	data  []float32
}

// readWeights returns the float32 weights of the model.json in dir, by
// name, reading files with read.
func readWeights(read func(name string) ([]byte, error), dir string) (map[string]tensor, error) {
	raw, err := read(path.Join(dir, "model.json"))
	if err != nil {
		return nil, fmt.Errorf("uselite: %w", err)
	}
	var gm graphModel
	if err := json.Unmarshal(raw, &gm); err != nil {
		return nil, fmt.Errorf("uselite: %s/model.json: %w", dir, err)
	}
	out := map[string]tensor{}
	for _, group := range gm.WeightsManifest {
		var blob []byte
		for _, p := range group.Paths {
			b, err := read(path.Join(dir, p))
			if err != nil {
				return nil, fmt.Errorf("uselite: weight shard: %w", err)
			}
			blob = append(blob, b...)
		}
		off := 0
		for _, w := range group.Weights {
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(blob) {
				return nil, fmt.Errorf("uselite: weight %s needs %d bytes at %d, shards hold %d", w.Name, 4*n, off, len(blob))
			}
			if w.DType == "float32" {
				data := make([]float32, n)
				for i := range data {
					data[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[off+4*i:]))
				}
				out[w.Name] = tensor{shape: w.Shape, data: data}
			}
			off += 4 * n // int32 constants are folded into the code below
		}
	}
	return out, nil
}
