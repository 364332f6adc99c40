package vecindex

// Hit is one search result.
type Hit struct {
	ID string
	// Score is the cosine similarity of the query and the stored vector.
	Score float32
}

// Index is what every index in this package implements. Search returns at
// most k hits, best first; equal scores are ordered by id so that results
// are deterministic. A nil Filter allows every id.
type Index interface {
	// Put adds the vector under id, or replaces the one stored there.
	Put(id string, vec []float32) error
	// Remove deletes id and reports whether it was present.
	Remove(id string) bool
	// Len is the number of ids stored.
	Len() int
	// Dim is the vector dimension the index was made for.
	Dim() int
	Search(query []float32, k int, f Filter) ([]Hit, error)
}

var (
	_ Index = (*Exact)(nil)
	_ Index = (*HNSW)(nil)
	_ Index = (*Auto)(nil)
)
