package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unique"

	"github.com/toolyard/toolyard/schemas"
)

// Index fields. The text fields are searched; id and server are exact-match
// fields for scope filtering only.
const (
	fieldName        = "name"
	fieldKeywords    = "keywords"
	fieldExamples    = "examples"
	fieldDescription = "description"
	fieldParams      = "params"
	fieldID          = "id"
	fieldServer      = "server"
)

// indexedFields are the analysed text fields, whatever their boosts.
var indexedFields = [...]string{fieldName, fieldKeywords, fieldExamples, fieldDescription, fieldParams}

// maxSchemaDepth bounds how deep nested parameter objects are read; deeper
// properties are rarely what a user names, and a cyclic-looking schema must
// not cost unbounded time.
const maxSchemaDepth = 4

// entry is what the engine keeps of one tool besides the index: enough to
// answer with a Candidate, rebuild the index, and compute confidence.
type entry struct {
	cand schemas.Candidate
	// sum fingerprints the manifest (registryversion.go).
	sum uint64
	doc indexDoc
	// terms are the tool's distinct analysed terms over every text field.
	terms []string
	// fieldTerms are the distinct analysed terms of each text field, in
	// the order of indexedFields (an array: a map per tool costs more
	// than the terms).
	fieldTerms [len(indexedFields)][]string
	// tfs are the frequencies of fieldTerms' terms, all fields in one
	// slice (see fieldTF), and fieldLen each field's length in terms, as
	// bleve counts them: what the keyword postings score with.
	tfs      []uint8
	fieldLen [len(indexedFields)]uint32
	// tfSaturated says a frequency reached the cap of tfs: the postings'
	// BM25 is then not bleve's for this tool, which bleve scores itself.
	tfSaturated bool
	// names are the tool's name and id as exact word sequences joined by
	// spaces ("disk usage", "system disk usage"), for spotting a mention.
	names []string
	// commands are the command words its description says it runs
	// (command.go).
	commands []string
	// phrases are the tool's keywords as exact word sequences joined by
	// single spaces, for phrase_match (phrase.go).
	phrases []string
	// words are the distinct lower-cased content words of the name,
	// keywords, examples and description, unstemmed, for soft matching with
	// word vectors (soft.go); wordIDs are their rows in the engine's word
	// table, set when the engine has word vectors.
	words   []string
	wordIDs []int32
	// wordTerms are the analysed term of each of words ("" when none), for
	// the idf weight and exact match of tool coverage (soft.go); wordVec
	// the row of each word in the engine's word table, -1 without one.
	wordTerms []string
	wordVec   []int32
	// wordTermIDs number wordTerms in the engine's stats (-1 for ""),
	// set when the entry is counted there.
	wordTermIDs []int32
	// termNums are terms' numbers in the engine's stats, sorted: the
	// coverages test every describing term of a query against every
	// pooled tool, and comparing numbers is several times cheaper than
	// comparing strings. Set when the entry is counted there.
	termNums []int32
	// kinds are the kinds of value the tool's parameters take (valuekinds.go).
	kinds valueKind
	// actions are the kinds of effect the tool names (action.go).
	actions actionKind
	// leadAction is the kind of the verb its description opens with.
	leadAction actionKind
	// typ and permissions are what filters test.
	typ         string
	permissions []string
}

func (e *Engine) newEntry(m schemas.Manifest) (*entry, error) {
	if strings.TrimSpace(m.ID) == "" {
		return nil, errors.New("tool id is empty")
	}
	names, top, docs, err := paramText(m.Parameters)
	if err != nil {
		return nil, fmt.Errorf("tool %s: parameters: %w", m.ID, err)
	}
	name := m.Name
	if name == "" {
		name = m.ID
	}
	server := m.ServerName()
	local := m.ID[strings.LastIndexByte(m.ID, '/')+1:]

	// The id's last segment is indexed with the name when it says
	// something else ("Disk usage" vs "du_sh"), so either finds the tool.
	nameForm, localForm := e.exactForm(name), e.exactForm(local)
	nameValues := []string{name}
	if localForm != nameForm {
		nameValues = append(nameValues, local)
	}
	keywords := slices.Clone(m.Keywords)
	kwText := keywords
	if server != "" {
		kwText = append(slices.Clone(keywords), server)
	}
	params := slices.Concat(names, docs)
	doc := indexDoc{
		Name: nameValues, Keywords: kwText, Examples: m.Examples,
		Description: m.Description, Params: params, ID: m.ID, Server: server,
	}

	var all []string
	var fieldTerms [len(indexedFields)][]string
	var fieldLen [len(indexedFields)]uint32
	var tfs []uint8
	for f, values := range [len(indexedFields)][]string{nameValues, kwText, m.Examples, {m.Description}, params} {
		var ts []string
		for _, v := range values {
			ts = append(ts, terms(e.text, v)...)
		}
		if len(ts) > 0 {
			all = append(all, ts...)
			fieldLen[f] = uint32(len(ts))
			var counts []uint8
			fieldTerms[f], counts = compactCounted(ts)
			tfs = append(tfs, counts...)
		}
	}
	var words []string
	for _, values := range [][]string{nameValues, kwText, m.Examples, {m.Description}} {
		for _, v := range values {
			words = append(words, e.surfaceWords(v)...)
		}
	}
	words = compact(words)
	wordTerms := make([]string, len(words))
	for i, w := range words {
		if ts := terms(e.text, w); len(ts) > 0 {
			wordTerms[i] = unique.Make(ts[0]).Value()
		}
	}
	var forms []string
	for _, f := range []string{nameForm, e.exactForm(m.ID), localForm} {
		if f != "" && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	var phrases []string
	for _, kw := range keywords {
		if f := e.exactForm(kw); f != "" && !slices.Contains(forms, f) && !slices.Contains(phrases, f) {
			phrases = append(phrases, f)
		}
	}
	typ := m.Type
	if typ == "" {
		typ = "tool"
	}
	return &entry{
		cand: schemas.Candidate{
			ToolID: m.ID, Name: name, Description: m.Description,
			Keywords: keywords, Server: server, MatchType: schemas.MatchKeyword,
		},
		sum:         manifestSum(m),
		doc:         doc,
		terms:       compact(all),
		fieldTerms:  fieldTerms,
		tfs:         slices.Clip(tfs),
		tfSaturated: slices.Contains(tfs, math.MaxUint8),
		fieldLen:    fieldLen,
		names:       forms,
		phrases:     interned(phrases),
		words:       words,
		wordTerms:   wordTerms,
		kinds:       e.paramKinds(top),
		actions:     toolActions(forms, phrases, m.Description),
		leadAction:  leadAction(m.Description),
		commands:    interned(describedCommands(m.Description)),
		typ:         typ,
		permissions: slices.Clone(m.Permissions),
	}, nil
}

// exactForm is s as the space-joined words a query would contain when it
// names s: "getTeamStats" → "get team stat", "disk_usage" → "disk usage".
func (e *Engine) exactForm(s string) string {
	return strings.Join(terms(e.exact, s), " ")
}

func uniqueSorted(ts []string) []string {
	sort.Strings(ts)
	return slices.Compact(ts)
}

// compact is uniqueSorted for what an entry keeps: every string interned
// (a registry repeats the same few thousand words across all its tools, so
// each word is stored once, not once per tool), in a slice of exactly its
// length (the input, repeats included, is often several times longer).
// At a million tools this is gigabytes.
func compact(ts []string) []string {
	return interned(uniqueSorted(ts))
}

// interned copies ts, every string interned, into a slice of exactly its length.
func interned(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = unique.Make(t).Value()
	}
	return out
}

// compactCounted is compact with how often each term occurs in ts,
// capped at 255.
func compactCounted(ts []string) ([]string, []uint8) {
	sort.Strings(ts)
	var distinct []string
	var counts []uint8
	for i, t := range ts {
		if i > 0 && t == ts[i-1] {
			if c := &counts[len(counts)-1]; *c < math.MaxUint8 {
				*c++
			}
			continue
		}
		distinct = append(distinct, t)
		counts = append(counts, 1)
	}
	return interned(distinct), counts
}

// fieldTF are the frequencies of fieldTerms[f], in the same order.
func (en *entry) fieldTF(f int) []uint8 {
	off := 0
	for g := range f {
		off += len(en.fieldTerms[g])
	}
	return en.tfs[off : off+len(en.fieldTerms[f])]
}

// indexDoc is what bleve indexes of a tool. A struct rather than a map:
// it is kept for every tool (re-indexing on compaction reads it), and a
// map of interfaces costs several times its contents.
type indexDoc struct {
	Name        []string `json:"name"`
	Keywords    []string `json:"keywords"`
	Examples    []string `json:"examples"`
	Description string   `json:"description"`
	Params      []string `json:"params"`
	ID          string   `json:"id"`
	Server      string   `json:"server"`
}

// schemaNode is the part of a JSON Schema that says what a parameter means.
type schemaNode struct {
	Title       string                     `json:"title"`
	Description string                     `json:"description"`
	Properties  map[string]json.RawMessage `json:"properties"`
	Items       json.RawMessage            `json:"items"`
	Enum        []json.RawMessage          `json:"enum"`
}

// paramText reads a parameters JSON Schema: the property names (nested
// ones too; top are the top-level ones), and their titles, descriptions and
// string enum values. Output is in sorted property order so indexing is
// deterministic.
func paramText(raw json.RawMessage) (names, top, docs []string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil, nil, nil
	}
	var root schemaNode
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, nil, nil, fmt.Errorf("not a JSON Schema object: %w", err)
	}
	var walk func(n schemaNode, depth int)
	walk = func(n schemaNode, depth int) {
		if depth > maxSchemaDepth {
			return
		}
		keys := make([]string, 0, len(n.Properties))
		for k := range n.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			names = append(names, k)
			if depth == 0 {
				top = append(top, k)
			}
			var child schemaNode
			// A property schema may be a boolean or otherwise odd; it still
			// has a name worth indexing, so skip only its insides.
			if json.Unmarshal(n.Properties[k], &child) != nil {
				continue
			}
			docs = appendNonEmpty(docs, child.Title, child.Description)
			for _, v := range child.Enum {
				var s string
				if json.Unmarshal(v, &s) == nil {
					docs = appendNonEmpty(docs, s)
				}
			}
			walk(child, depth+1)
		}
		var items schemaNode
		if len(n.Items) > 0 && n.Items[0] == '{' && json.Unmarshal(n.Items, &items) == nil {
			docs = appendNonEmpty(docs, items.Description)
			walk(items, depth+1)
		}
	}
	walk(root, 0)
	return names, top, docs, nil
}

func appendNonEmpty(dst []string, ss ...string) []string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			dst = append(dst, s)
		}
	}
	return dst
}

// hasTerm says the tool has the term numbered id (-1: a term no tool has).
func (e *entry) hasTerm(id int32) bool {
	_, ok := slices.BinarySearch(e.termNums, id)
	return id >= 0 && ok
}
