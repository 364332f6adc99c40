package discover

import (
	"math"
	"slices"
	"strings"
)

// stats are the registry-wide term statistics the confidence heuristic
// needs, kept in step with the index on every Put and Remove. bleve keeps
// its own, but per field and not cheaply readable per term.
type stats struct {
	docs int
	// df is how many tools contain a term in any text field.
	df map[string]int
	// inField is how many tools contain a term in each text field; a
	// query skips the (term, field) pairs no tool has.
	inField map[string]map[string]int
	// names maps a tool's exact name form to the tools that carry it.
	names map[string][]string
	// commands maps a command word to the tools whose descriptions say
	// they run it (command.go).
	commands map[string][]string
	// maxNameWords is the longest name form, bounding the query spans to look up.
	maxNameWords int
	// termIDs number the terms and termDF holds df by number, so tool
	// coverage (soft.go), which reads the idf of every word of every
	// pooled tool, indexes a slice instead of hashing a string. Numbers
	// are never reused; the table is bounded by the vocabulary.
	termIDs map[string]int32
	termDF  []int32
}

// nameWordsLimit is the longest name recognised as a mention. Real names
// are a few words; a tool with a sentence for a name must not make every
// query look up runs of that length.
const nameWordsLimit = 8

func newStats() *stats {
	return &stats{df: map[string]int{}, inField: map[string]map[string]int{}, names: map[string][]string{}, commands: map[string][]string{}, termIDs: map[string]int32{}}
}

func (s *stats) add(e *entry) {
	s.docs++
	e.termNums = make([]int32, len(e.terms))
	for i, t := range e.terms {
		s.df[t]++
		id := s.termID(t)
		s.termDF[id]++
		e.termNums[i] = id
	}
	slices.Sort(e.termNums)
	e.wordTermIDs = make([]int32, len(e.wordTerms))
	for i, t := range e.wordTerms {
		e.wordTermIDs[i] = -1
		if t != "" {
			e.wordTermIDs[i] = s.termID(t)
		}
	}
	for i, ts := range e.fieldTerms {
		f := indexedFields[i]
		m := s.inField[f]
		if m == nil {
			m = map[string]int{}
			s.inField[f] = m
		}
		for _, t := range ts {
			m[t]++
		}
	}
	for _, n := range e.names {
		w := strings.Count(n, " ") + 1
		if w > nameWordsLimit {
			continue
		}
		s.names[n] = append(s.names[n], e.cand.ToolID)
		s.maxNameWords = max(s.maxNameWords, w)
	}
	for _, c := range e.commands {
		s.commands[c] = append(s.commands[c], e.cand.ToolID)
	}
}

func (s *stats) remove(e *entry) {
	s.docs--
	for _, t := range e.terms {
		s.termDF[s.termIDs[t]]--
	}
	for _, t := range e.terms {
		if s.df[t]--; s.df[t] <= 0 {
			delete(s.df, t)
		}
	}
	for i, ts := range e.fieldTerms {
		m := s.inField[indexedFields[i]]
		for _, t := range ts {
			if m[t]--; m[t] <= 0 {
				delete(m, t)
			}
		}
	}
	for _, n := range e.names {
		dropTool(s.names, n, e.cand.ToolID)
	}
	for _, c := range e.commands {
		dropTool(s.commands, c, e.cand.ToolID)
	}
	// maxNameWords may now overstate the longest name; that only costs a
	// few extra map lookups per query, so it is not recomputed.
}

// dropTool removes tool id from the tools listed under key, and the key
// with its last tool.
func dropTool(m map[string][]string, key, id string) {
	ids := slices.DeleteFunc(m[key], func(t string) bool { return t == id })
	if len(ids) == 0 {
		delete(m, key)
	} else {
		m[key] = ids
	}
}

// idf is the BM25 inverse document frequency of a term; 0 for a term no
// tool contains, since such a term says nothing about which tool is meant.
func (s *stats) idf(t string) float64 {
	df := s.df[t]
	if df == 0 {
		return 0
	}
	return bm25IDF(s.docs, df)
}

// maxIDF is the idf of a term found in a single tool: the most specific a
// term can be in this registry.
func (s *stats) maxIDF() float64 { return bm25IDF(s.docs, 1) }

func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// termNums are the numbers of terms, -1 for a term no tool has had
// (which no tool has): what entry.hasTerm looks up.
func (s *stats) termNums(terms []string) []int32 {
	out := make([]int32, len(terms))
	for i, t := range terms {
		out[i] = -1
		if id, ok := s.termIDs[t]; ok {
			out[i] = id
		}
	}
	return out
}

// termID returns t's number, numbering it if new.
func (s *stats) termID(t string) int32 {
	id, ok := s.termIDs[t]
	if !ok {
		id = int32(len(s.termDF))
		s.termIDs[t] = id
		s.termDF = append(s.termDF, 0)
	}
	return id
}

// idfOf is idf for a numbered term.
func (s *stats) idfOf(id int32) float64 {
	df := s.termDF[id]
	if df <= 0 {
		return 0
	}
	return bm25IDF(s.docs, int(df))
}
