// Package prefetch measures the predictor and prefetch of workers/predict
// offline: simulated agents stream their intents token by token, a
// discovery engine embeds through a delayed remote embedder
// (DelayedOllamaServer), and each intent's candidates are timed from its
// closing "]" with and without the prefetch (`toolyard eval prefetch`).
package prefetch
