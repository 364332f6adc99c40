package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/toolyard/toolyard/schemas"
)

// property is the part of one top-level property schema the slot filler
// needs. Nested schemas are left to the validator.
type property struct {
	name        string
	norm        string   // normalized name, for key matching
	words       []string // lower-case words of the name, for cues
	typ         string   // primary non-null JSON type; "" when the schema does not say
	description string
	// desc is the description in lower case, for the cue tests that read
	// it on every request (made once per manifest, not per request).
	desc string
	// descWords are desc's words split at spaces and punctuation, for
	// describesWord, which the guards ask of every candidate value.
	descWords  map[string]bool
	enum       []any
	def        any
	hasDefault bool
	examples   []any
	items      *property
	freetext   bool
	format     string // JSON Schema's format: "date-time", "date", …
	// nonNegative: the schema's minimum (or exclusive minimum) is 0 or
	// more, so a value written "-5" cannot be minus five.
	nonNegative bool
	required    bool
	// sql marks a text parameter that takes SQL text (sqlProp), set once
	// per manifest.
	sql bool
	// ticker marks a parameter that takes a ticker symbol (tickerProp).
	ticker bool
	// spanUnit is the unit of a numeric parameter for a length of time
	// (spanUnitOf), "" for others: set once per manifest, since the lengths
	// rule and loose numbers ask it of every request.
	spanUnit string
	// date, dateTime, cron, clock and noun are isDateProp, dateTimeProp,
	// cronParam, clockOnly and describedNoun of the property (readings):
	// set once per manifest, since many rules ask them of every property
	// of every request.
	date, dateTime, cron, clock bool
	noun                        string
	// axis is the chart axis the property takes, 'x' or 'y', else 0
	// (axisOf; readings).
	axis byte
	// percentDiv is what a percentage is divided by for the property (1
	// for a percent, 100 for a rate in fractions of one), 0 when it takes
	// none (percentScale; readings).
	percentDiv float64
	// refRole is the git ref the property takes, refNone for none
	// (refRoleOf; readings): the refs rule asks it of every property of
	// every request, and again for each cue.
	refRole refRole
	// descNouns are the description's words that may name what a number
	// counts (descNounsOf; readings), for describesNoun, which the loose
	// numbers ask of every property for each number's neighbours.
	descNouns []string
	// countedNouns are the plural nouns a count parameter counts
	// (countedNounsOf; readings): the count rules read them for every
	// count the request writes.
	countedNouns map[string]bool
	// phone marks a parameter that takes a phone number by its name or
	// description (takesPhone; readings).
	phone bool
	// flagSynonyms are the other ways of saying a flag's name words
	// (flagSynonymsOf; readings), nil for most names: the flags rule tries
	// them for every missing flag of every request.
	flagSynonyms [][]string
	// percentMember is the enum member for percentages (percentMemberOf;
	// readings), "" for none.
	percentMember string
	// place marks a parameter that takes a place or a time zone
	// (takesPlace; readings), scope one that takes a scope such as a
	// namespace or a region (scopeProp; readings).
	place, scope bool
	// lengthText marks a text parameter that takes a length of time
	// (takesLength; readings), compactLengths one whose description or
	// examples write lengths compactly, "10m" (compactStyle): the
	// durations rule asks them of every property of every request.
	lengthText, compactLengths bool
	// listed are the lower-case values the descriptions list for a text
	// parameter (listValues), and the words of each.
	listed      []string
	listedWords [][]string
	// codes are the words in capitals that the parameter's description
	// shows before a number ("input such as HDMI 2" → HDMI): listValues.
	codes []string
	// codeShapes, codeStems, allCodes and valueCues say what a word
	// meant for an enum parameter and none of its members looks like
	// (enumShapes; readings), for enumMisfit, which the unmapped values
	// ask of every word left over.
	codeShapes, codeStems map[string]bool
	allCodes              bool
	valueCues             []string
}

// toolSchema is a manifest's parameter schema, parsed for filling and
// compiled for validation.
type toolSchema struct {
	// own is what the tool says of itself, lower case: its description
	// and examples (ownText).
	own string
	// ownWords are own's words (ownWords), for ownWord, which the
	// leftover words ask of every word: made once per manifest.
	ownWords map[string]bool
	props    []*property // declaration order
	byNorm   map[string]*property
	required []string
	check    *schemas.ParamSchema
	// shapeTakers are, per shape, the properties the shapes rule may fill
	// with a value of it (shapeTakers): set once per manifest, since the
	// rule would otherwise test every word of every request against
	// shapes no parameter of the tool takes.
	shapeTakers [][]*property
	// idInitials are the first letters of the words of the tool's id
	// (initialsOf), for toolInitials: made once per manifest, since the
	// numbered rule asks it of every word in capitals.
	idInitials string
	// horizon is the tool's count of days ahead (horizonOf), read once
	// per manifest for the horizons rule, which every request runs.
	horizon *property
}

func (s *toolSchema) prop(name string) *property {
	for _, p := range s.props {
		if p.name == name {
			return p
		}
	}
	return nil
}

// byLastWord is the one property whose name ends in key's word ("URL:"
// for photo_url), or nil when none or several do.
func (s *toolSchema) byLastWord(key string) *property {
	k := normalize(key)
	var found *property
	for _, p := range s.props {
		if len(p.words) > 1 && p.words[len(p.words)-1] == k {
			if found != nil {
				return nil
			}
			found = p
		}
	}
	return found
}

type rawProperty struct {
	Type        json.RawMessage `json:"type"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	Default     json.RawMessage `json:"default"`
	Examples    []any           `json:"examples"`
	Items       json.RawMessage `json:"items"`
	Freetext    bool            `json:"x-toolyard-freetext"`
	Format      string          `json:"format"`
	Minimum     *float64        `json:"minimum"`
	// ExclusiveMinimum is a number in JSON Schema 2020-12.
	ExclusiveMinimum *float64 `json:"exclusiveMinimum"`
}

func parseSchema(toolID string, raw json.RawMessage) (*toolSchema, error) {
	check, err := schemas.CompileParams(toolID, raw)
	if err != nil {
		return nil, err
	}
	s := &toolSchema{byNorm: map[string]*property{}, check: check, idInitials: initialsOf(toolID)}
	if len(bytes.TrimSpace(raw)) == 0 {
		return s, nil
	}
	var top struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("tool %s: parameters: %w", toolID, err)
	}
	names, bodies, err := orderedObject(top.Properties)
	if err != nil {
		return nil, fmt.Errorf("tool %s: parameters.properties: %w", toolID, err)
	}
	for i, name := range names {
		p, err := parseProperty(name, bodies[i])
		if err != nil {
			return nil, fmt.Errorf("tool %s: parameter %s: %w", toolID, name, err)
		}
		s.props = append(s.props, p)
		// The first of two properties that normalize alike keeps the key;
		// the other stays reachable by its exact name only.
		if _, dup := s.byNorm[p.norm]; !dup {
			s.byNorm[p.norm] = p
		}
	}
	s.required = top.Required
	for _, r := range top.Required {
		if p := s.prop(r); p != nil {
			p.required = true
			continue
		}
		// Required but undescribed: still reported as missing by name.
		p := &property{name: r, norm: normalize(r), words: nameWords(r), required: true}
		p.readings()
		s.props = append(s.props, p)
		if _, dup := s.byNorm[p.norm]; !dup {
			s.byNorm[p.norm] = p
		}
	}
	s.shapeTakers = shapeTakers(s.props)
	return s, nil
}

func parseProperty(name string, body json.RawMessage) (*property, error) {
	p := &property{name: name, norm: normalize(name), words: nameWords(name)}
	var rp rawProperty
	// A boolean schema (true/false) has nothing to read.
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		if err := json.Unmarshal(body, &rp); err != nil {
			return nil, err
		}
	}
	p.typ = primaryType(rp.Type)
	p.description, p.desc = rp.Description, strings.ToLower(rp.Description)
	p.descWords = descriptionWords(p.desc)
	p.enum = rp.Enum
	p.examples = rp.Examples
	p.freetext = rp.Freetext
	p.format = rp.Format
	p.nonNegative = rp.Minimum != nil && *rp.Minimum >= 0 || rp.ExclusiveMinimum != nil && *rp.ExclusiveMinimum >= 0
	p.sql = sqlProp(p)
	p.ticker = tickerProp(p)
	p.spanUnit = spanUnitOf(p)
	if len(rp.Items) > 0 {
		items, err := parseProperty(name, rp.Items)
		if err != nil {
			return nil, err
		}
		p.items = items
	}
	if len(rp.Default) > 0 {
		if err := json.Unmarshal(rp.Default, &p.def); err != nil {
			return nil, err
		}
		p.hasDefault = true
		// Defaults take the same Go shapes as coerced values (int64 for
		// integers), so a call looks the same however a value got there.
		if v, err := coerce(p, p.def); err == nil {
			p.def = v
		}
	}
	// Last: some readings look at the items (a list of columns is an axis).
	p.readings()
	return p, nil
}

// stringList: p takes a list of strings.
func stringList(p *property) bool {
	return p.typ == "array" && p.items != nil && stringProp(p.items)
}

// readings sets what the rules read of a property's name, type, format
// and description alone (date, dateTime, cron, clock, noun, …).
func (p *property) readings() {
	p.date = isDateProp(p)
	p.dateTime = dateTimeProp(p)
	p.cron = cronParam(p)
	p.clock = clockOnly(p)
	p.noun = describedNoun(p)
	p.axis = axisOf(p)
	p.percentDiv, _ = percentScale(p)
	p.refRole = refRoleOf(p) // after p.date, which it reads
	p.descNouns = descNounsOf(p.desc)
	p.countedNouns = countedNounsOf(p)
	p.phone = takesPhone(p)
	p.flagSynonyms = flagSynonymsOf(p.words)
	p.percentMember = percentMemberOf(p)
	p.place = takesPlace(p) // after p.noun, which it reads
	p.scope = scopeProp(p)  // after p.date
	p.compactLengths = compactStyle(p)
	p.lengthText = takesLength(p) // after p.compactLengths
	p.enumShapes()
}

// primaryType is the first non-null type of a "type" keyword (a string or
// an array of strings).
func primaryType(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		for _, t := range many {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// orderedObject splits a JSON object into its keys and values in document
// order: declaration order decides which parameter a bare value fills.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("not an object")
	}
	var names []string
	var bodies []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var body json.RawMessage
		if err := dec.Decode(&body); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		bodies = append(bodies, body)
	}
	return names, bodies, nil
}

// normalize folds a key for matching: lower case, without separators.
func normalize(s string) string {
	if normalized(s) {
		return s // most words of a request: nothing to fold, nothing to copy
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '-' || r == '_' || r == '.' || unicode.IsSpace(r):
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// normalized: s is ASCII with no capital and no separator, its own
// normalize.
func normalized(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.' || c == ' ' || c >= '\t' && c <= '\r' {
			return false
		}
	}
	return true
}

// nameWords splits an identifier into lower-case words at separators and
// camelCase boundaries: "maxResults" and "max_results" → [max results].
func nameWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// schemaCache keeps parsed schemas by tool id, because compiling a JSON
// Schema costs far more than resolving an intent. An entry is reused only
// while the manifest's parameter document is byte-identical, so a registry
// update takes effect on the next call.
var schemaCache = struct {
	sync.RWMutex
	m map[string]cacheEntry
}{m: map[string]cacheEntry{}}

type cacheEntry struct {
	raw    []byte
	name   string
	schema *toolSchema
	// words are the tool's name and id words (toolWords), kept here
	// because they cost more to build than the rest of a resolution.
	words map[string]bool
}

// maxCachedSchemas bounds the cache; a million-tool registry only ever
// resolves a working set of them.
const maxCachedSchemas = 4096

func schemaFor(m schemas.Manifest) (*toolSchema, error) {
	e, err := cached(m)
	if err != nil {
		return nil, err
	}
	return e.schema, nil
}

func cached(m schemas.Manifest) (cacheEntry, error) {
	schemaCache.RLock()
	e, ok := schemaCache.m[m.ID]
	schemaCache.RUnlock()
	own := ownText(m)
	if ok && e.name == m.Name && bytes.Equal(e.raw, m.Parameters) && e.schema.own == own {
		return e, nil
	}
	s, err := parseSchema(m.ID, m.Parameters)
	if err != nil {
		return cacheEntry{}, err
	}
	s.own, s.ownWords = own, ownWords(own)
	s.horizon = horizonOf(s)
	s.listValues(m.Description)
	e = cacheEntry{raw: bytes.Clone(m.Parameters), name: m.Name, schema: s, words: toolWords(m.ID, m.Name)}
	schemaCache.Lock()
	if len(schemaCache.m) >= maxCachedSchemas {
		for k := range schemaCache.m { // evict an arbitrary entry
			delete(schemaCache.m, k)
			break
		}
	}
	schemaCache.m[m.ID] = e
	schemaCache.Unlock()
	return e, nil
}

// ownText is what a tool says of itself, lower case: its description and
// its examples, one per line. An order a request asks for that it writes
// ("which processes use the most cpu") is the tool's own, not a value it
// leaves unused.
func ownText(m schemas.Manifest) string {
	if len(m.Examples) == 0 {
		return strings.ToLower(m.Description)
	}
	return strings.ToLower(m.Description + "\n" + strings.Join(m.Examples, "\n"))
}
