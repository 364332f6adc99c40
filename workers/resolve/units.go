package resolve

import (
	"strings"
	"sync"
	"unicode"

	units "github.com/bcicen/go-units"
)

// Units of measurement: "convert 10 miles to kilometers", "how many grams
// is 3 cups of flour", "68 degrees fahrenheit" fill the parameters that
// take a unit, in the form their descriptions show ("e.g. mi, km" → mi)
// or the member of their enum (["C", "F"] → F).

// unitName is one unit of measurement: its name and its symbol.
type unitName struct {
	name, symbol string
}

// unitIndex finds a unit by what a request or a description writes: a
// name, plural or other spelling in lower case, or a symbol as written
// ("mi", "C": "c" and "f" are no symbols).
type unitIndex struct {
	byName, bySymbol map[string]unitName
}

// unitQuantities are the quantities of go-units read here. Lengths of
// time are the durations' and moments' ("in 10 minutes" says when, not a
// unit), and bits, energy, power and pressure write their units with
// words and codes prose uses for other things ("GB", "W", "bar", "cal").
var unitQuantities = setOf("length", "mass", "volume", "temperature")

// rareUnitPrefixes are the metric prefixes no one measures everyday
// things with; their units' symbols are words or codes of prose ("pm",
// "am", "Mg", "nm"), so only their names are read.
var rareUnitPrefixes = []string{"exa", "peta", "tera", "giga", "mega", "hecto", "deca", "nano", "pico", "femto", "atto"}

// proseSymbols are unit symbols that are also words or abbreviations of
// prose ("in", "St", "Dr", "12 pt" type): the units are read by name only.
var proseSymbols = setOf("in", "st", "dr", "gr", "pt", "fur", "lea", "t")

// handUnits are the units go-units lacks, written by hand: cooking
// measures (cup, tablespoon, teaspoon) and speeds, with the spellings
// requests use for them.
var handUnits = []struct {
	unitName
	spellings []string
}{
	{unitName{"cup", "cup"}, []string{"cups"}},
	{unitName{"tablespoon", "tbsp"}, []string{"tablespoons", "tbsps", "tbs"}},
	{unitName{"teaspoon", "tsp"}, []string{"teaspoons", "tsps"}},
	{unitName{"mile per hour", "mph"}, []string{"miles per hour", "miles an hour"}},
	{unitName{"kilometer per hour", "km/h"}, []string{"kilometers per hour", "kilometres per hour", "kilometers an hour", "kilometres an hour", "kph", "kmh"}},
	{unitName{"meter per second", "m/s"}, []string{"meters per second", "metres per second"}},
	{unitName{"knot", "kn"}, []string{"knots"}},
}

// handSpellings are the spellings of go-units' units it lacks: "lbs" for
// pounds, "kilos" for kilograms.
var handSpellings = map[string]string{"lbs": "pound", "kilo": "kilogram", "kilos": "kilogram"}

// knownUnits is the index, built once.
var knownUnits = sync.OnceValue(buildUnitIndex)

func buildUnitIndex() unitIndex {
	idx := unitIndex{byName: map[string]unitName{}, bySymbol: map[string]unitName{}}
	byLib := map[string]unitName{}
	for _, u := range units.All() {
		if !unitQuantities[u.Quantity] {
			continue
		}
		un := unitName{u.Name, u.Symbol}
		byLib[u.Name] = un
		for _, n := range u.Names() {
			if n != u.Symbol {
				idx.addName(n, un)
			}
		}
		idx.addName(u.PluralName(), un)
		if u.PluralName() == u.Name+"s" {
			for _, n := range u.Names()[1:] {
				if n != u.Symbol {
					idx.addName(n+"s", un) // "metres", "litres"
				}
			}
		}
		if u.Symbol != "" && !proseSymbols[strings.ToLower(u.Symbol)] && !rarePrefixed(u.Name) {
			idx.bySymbol[u.Symbol] = un
		}
	}
	for _, h := range handUnits {
		idx.addName(h.name, h.unitName)
		idx.bySymbol[h.symbol] = h.unitName
		for _, s := range h.spellings {
			idx.addName(s, h.unitName)
		}
	}
	for s, name := range handSpellings {
		idx.addName(s, byLib[name])
	}
	return idx
}

func (idx unitIndex) addName(n string, u unitName) {
	idx.byName[strings.ToLower(n)] = u
}

// rarePrefixed: the unit's name opens with a rare metric prefix.
func rarePrefixed(name string) bool {
	for _, p := range rareUnitPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// find reads a unit from a name in any case or a symbol as written,
// a degree sign before it ("°F").
func (idx unitIndex) find(s string) (unitName, bool) {
	if u, ok := idx.byName[strings.ToLower(s)]; ok {
		return u, true
	}
	u, ok := idx.bySymbol[strings.TrimPrefix(s, "°")]
	return u, ok
}

// unitParamNames name a parameter for a unit.
var unitParamNames = setOf("unit", "units", "uom")

// unitProp: p takes a unit of measurement. An enum qualifies when it is
// named or described for a unit, or all its members are units (["C",
// "F"]); a text parameter when it is named or described for a unit and
// its description shows units or it is one end of a pair (from_unit,
// to_unit), never one for a system of units ("metric or imperial"), nor
// an address's unit.
func (s *toolSchema) unitProp(p *property) bool {
	if p.typ != "string" && p.typ != "" {
		return false
	}
	named := fitsName(p, unitParamNames) || describesWord(p, "unit") || describesWord(p, "units")
	if len(p.enum) > 0 {
		return named || enumOfUnits(p.enum)
	}
	if !named || describesWord(p, "metric") || describesWord(p, "imperial") {
		return false
	}
	sym, name := describedUnits(p)
	return sym || name || s.rolePaired(p)
}

// enumOfUnits: every member is a unit.
func enumOfUnits(enum []any) bool {
	for _, e := range enum {
		m, ok := e.(string)
		if !ok {
			return false
		}
		if _, ok := knownUnits().find(m); !ok {
			return false
		}
	}
	return true
}

// describedUnits says whether p's description or examples show a unit
// by its symbol only ("e.g. mi, km") and whether by its name only ("e.g.
// miles"); a word that is both ("cup") says neither. The example cues go
// first: "e.g." holds a g.
func describedUnits(p *property) (symbol, name bool) {
	text := p.description
	for _, cue := range exampleCues {
		text = strings.ReplaceAll(text, cue, " ")
	}
	for _, e := range p.examples {
		if s, ok := e.(string); ok {
			text += " " + s
		}
	}
	idx := knownUnits()
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '/' && r != '°' }) {
		_, n := idx.byName[strings.ToLower(w)]
		_, s := idx.bySymbol[strings.TrimPrefix(w, "°")]
		symbol = symbol || s && !n
		name = name || n && !s
	}
	return symbol, name
}

// unitMention is a unit a request names among its free words: the unit,
// its first and last tokens ("degrees" included), the unit's own words
// as written, which end of a conversion the words around it say it is,
// and whether it is a symbol of one letter.
type unitMention struct {
	unit       unitName
	first, end int
	written    string
	role       byte
	oneLetter  bool
}

// unitAt reads a unit at token i: a name, plural or symbol of one to
// three words ("fluid ounces", "miles per hour", "fl oz"), after
// "degrees" for a temperature ("degrees fahrenheit", "degrees F").
func (f *filler) unitAt(i int) (unitMention, bool) {
	first := i
	if w := f.toks[i].word; (w == "degrees" || w == "degree") && f.free(i+1) && !endsClause(f.toks[i].raw) {
		i++
	}
	idx := knownUnits()
	for n := 3; n >= 1; n-- {
		words, raws, ok := f.freeWords(i, i+n-1)
		if !ok {
			continue
		}
		written := strings.Join(raws, " ")
		if u, ok := idx.byName[strings.Join(words, " ")]; ok {
			return unitMention{unit: u, first: first, end: i + n - 1, written: written}, true
		}
		if u, ok := idx.bySymbol[strings.TrimPrefix(written, "°")]; ok {
			return unitMention{unit: u, first: first, end: i + n - 1, written: written, oneLetter: len(u.symbol) == 1}, true
		}
	}
	return unitMention{}, false
}

// freeWords are the words and cleaned raw texts of the free tokens a to
// b, within one clause.
func (f *filler) freeWords(a, b int) (words, raws []string, ok bool) {
	for k := a; k <= b; k++ {
		if !f.free(k) || k > a && endsClause(f.toks[k-1].raw) {
			return nil, nil, false
		}
		words = append(words, f.toks[k].word)
		raws = append(raws, f.toks[k].value)
	}
	return words, raws, true
}

// unitEnd says which end of a conversion the words before a unit make it:
// after its amount ("10 miles", "a cup") or from the source; after to,
// into, in or as, or "how many", the target; 0 unsaid.
func (f *filler) unitEnd(first int) byte {
	if first == 0 || endsClause(f.toks[first-1].raw) {
		return 0
	}
	prev := f.toks[first-1]
	if _, n := numberWord(prev.word); n || isNumberToken(prev.raw) || prev.word == "a" || prev.word == "an" {
		return 's'
	}
	switch prev.word {
	case "from":
		return 's'
	case "to", "into", "in", "as", "many":
		return 't'
	}
	return 0
}

// unitMentions are the units the request names, in order, each with the
// end its words say. A one-letter symbol ("m", "F") counts only where the
// words around it say it is a unit: after an amount, "degrees", to or in.
func (f *filler) unitMentions() []unitMention {
	var ms []unitMention
	for i := 0; i < len(f.toks); i++ {
		if !f.free(i) {
			continue
		}
		m, ok := f.unitAt(i)
		if !ok {
			continue
		}
		m.role = f.unitEnd(m.first)
		if m.oneLetter && m.role == 0 && m.first == m.end {
			continue
		}
		ms = append(ms, m)
		i = m.end
	}
	return ms
}

// applyUnits is the rule units: a tool's source and target unit
// parameters take the units of a conversion, the one after its amount
// or from the source, the one after to/into/in or "how many" the target
// ("how many grams is 3 cups of flour" → cup, g); with only one said, the
// other is the other end. A tool's one unit parameter takes the unit
// said with an amount or after to/in ("68 degrees fahrenheit" → F), when
// the request names one unit only.
func (f *filler) applyUnits() {
	var src, dst, only *property
	n := 0
	for _, p := range f.s.props {
		if !f.s.unitProp(p) {
			continue
		}
		n++
		only = p
		switch conversionEnd(p) {
		case 's':
			src = p
		case 't':
			dst = p
		}
	}
	switch {
	case n == 1 && f.missing(only):
		f.applySingleUnit(only, f.unitMentions())
	case src != nil && dst != nil:
		f.applyUnitPair(src, dst, f.unitMentions())
	}
}

// applyUnitPair fills a conversion's two ends from one or two mentions.
func (f *filler) applyUnitPair(src, dst *property, ms []unitMention) {
	if len(ms) == 0 || len(ms) > 2 {
		return // three units: which converts to which is not said here
	}
	if len(ms) == 2 && !pairEnds(&ms[0].role, &ms[1].role) {
		return
	}
	for _, m := range ms {
		p := dst
		if m.role == 's' {
			p = src
		}
		if m.role != 0 && f.missing(p) {
			f.placeUnit(p, m)
		}
	}
}

// applySingleUnit fills a tool's one unit parameter: named for an end,
// from a mention said to be that end; else from any said to be one.
// Two different units say nothing of which one it is.
func (f *filler) applySingleUnit(p *property, ms []unitMention) {
	for _, m := range ms {
		if m.unit != ms[0].unit {
			return // two different units, in any order: which one is not said
		}
	}
	var pick *unitMention
	end := conversionEnd(p)
	for k := range ms {
		if m := &ms[k]; m.role != 0 && (end == 0 || m.role == end) {
			pick = m
			break
		}
	}
	if pick != nil {
		f.placeUnit(p, *pick)
	}
}

// placeUnit fills p with the unit m names: the enum member that names
// the same unit, or, failing one, the words as written (the enum's
// synonyms: "fahrenheit" for imperial); for text, its symbol when the
// description shows symbols, else its name.
func (f *filler) placeUnit(p *property, m unitMention) {
	v := m.unit.name
	if len(p.enum) > 0 {
		v = m.written
		for _, e := range p.enum {
			if s, ok := e.(string); ok {
				if u, ok := knownUnits().find(s); ok && u == m.unit {
					v = s
					break
				}
			}
		}
	} else if sym, _ := describedUnits(p); sym && m.unit.symbol != "" {
		v = m.unit.symbol
	}
	if f.try(p, v) {
		f.useTokens(rangeIdx(m.first, m.end)...)
	}
}
