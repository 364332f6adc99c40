package discover

import (
	"strings"
)

// A path, a URL, an e-mail address or a dotted name (a host) in a request
// is a value (query.go), so its words describe nothing; yet it does say
// something about the tool:
// "list /tmp" wants a tool that takes a path. Left out altogether, such a
// request read as one word ("list"), and its coverage as that of a
// one-word request: files/list_directory answered it at 0.81, "multiple
// matches", with the runner-up at 0.09. Each kind of value the request
// states is now one more item of its coverage, which a tool covers when
// one of its parameters is named for that kind (path, file, directory …;
// url, link …; email, to, recipient …; host, domain, server).
//
// valueKindWeight is the item's weight, as a share of the rarest word's
// idf: half of it. Chosen on the collections the calibration is fitted
// on (training/eval/testdata; 2026-11-27): 0.25 and 0.5 gave the same
// figures, a whole idf cost the sample set's hit@1 (0.963 → 0.951). The
// held-out sets, checked afterwards at 0.5 with the calibration of the
// time: sample registry hit@1 0.889 → 0.901, activated 55.6 % → 60.5 %
// (0.938 → 0.942 right), ECE 0.102 → 0.099; ops ECE 0.083 → 0.073;
// office 0.160 → 0.145; the others and both benchmarks unchanged.
const valueKindWeight = 0.5

// valueKind is a kind of value that a parameter's name says it takes; a
// request's kinds are a set of them.
type valueKind uint8

const (
	kindPath valueKind = 1 << iota
	kindURL
	kindEmail
	kindHost
	// kindPlace: a city or a country the places tables know (places.go).
	kindPlace
	// kindCurrency: a currency by its name, code or sign (money.go).
	kindCurrency
	// kindLanguage: a language by its name, where a language goes
	// (languages.go).
	kindLanguage
	kindsEnd
)

// kindOf is the kind of a value's text, 0 for others (quotes, key=value).
func kindOf(v string) valueKind {
	v = strings.TrimSpace(v)
	switch {
	case strings.Contains(v, "://"):
		return kindURL
	case strings.Contains(v, "@") && !strings.ContainsAny(v, "/\"'“"):
		return kindEmail
	case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		len(v) > 2 && v[1] == ':' && v[2] == '\\':
		return kindPath
	case strings.Contains(v, ".") && !strings.ContainsAny(v, " \"'“"):
		// A dotted name: a host (example.org) or a file name (notes.txt),
		// which cannot be told apart; counted for the tools taking a
		// host. Counting it for those taking a path too did worse on the
		// calibration's collections (sample left out 86.4 % activated,
		// ECE 0.056, against 87.7 %, 0.047).
		return kindHost
	}
	return 0
}

// kindWords are the words (as the exact analyser writes them) of parameter
// names that take each kind. The resolver's shapes (workers/resolve,
// words.go) name more: "target", "from", "address", "site" take a path, an
// address or a URL there, where the value already has the look; here, with
// no value to look at, such words would credit a translator's
// target_language with every path.
var kindWords = map[string]valueKind{
	"path": kindPath, "paths": kindPath, "file": kindPath, "files": kindPath, "filename": kindPath, "filepath": kindPath,
	"dir": kindPath, "directory": kindPath, "folder": kindPath, "source": kindPath, "destination": kindPath | kindPlace,
	"url": kindURL, "urls": kindURL, "uri": kindURL, "link": kindURL, "href": kindURL, "endpoint": kindURL, "website": kindURL,
	"host": kindHost, "hostname": kindHost, "domain": kindHost, "server": kindHost,
	"email": kindEmail, "emails": kindEmail, "to": kindEmail, "recipient": kindEmail, "recipients": kindEmail, "cc": kindEmail, "bcc": kindEmail,
	"location": kindPlace, "locations": kindPlace, "city": kindPlace, "cities": kindPlace, "place": kindPlace, "country": kindPlace,
	"region": kindPlace, "timezone": kindPlace, "tz": kindPlace, "origin": kindPlace, "near": kindPlace,
	"currency": kindCurrency, "currencies": kindCurrency,
	"language": kindLanguage, "languages": kindLanguage, "lang": kindLanguage, "locale": kindLanguage,
}

// impliedWords are the words a value of a kind stands for, searched as
// words of the request: "convert 50 euros to dollars" is a request about
// currency, which a currency tool's text says ("between currencies") and
// no word of the request does; searched as written, a unit converter
// ("Convert a quantity…") ranked first and "how many yen is 50 pounds"
// ran it at 0.89. Only currencies named by a name or a code imply the
// word: an amount with its sign ("$25 of payment") is money a refund or an
// invoice takes as well, and implying currency favoured tools that say it
// over those that do not (measured on the calibration's collections and
// the held-out sets, 2026-11-27: hit@1 up for 16 requests, MetaTool 13 of
// them, down for none; with signs too, one held-out request went to the
// wrong tool). An e-mail address implies email: "let ann@example.org know
// I'm late" ranked the tool search and a chat tool above the mail tool
// (hit@1 up for 2 more requests, none down). Places imply nothing: a
// place's tool says weather, time or directions, which the request's own
// words say; nor do languages (languages.go), for the same reason: a
// language's tool says translate or pronounce. Implying the word language
// put the right tool first for 1 more of the sample set's requests but
// activated 4 fewer MetaTool requests, at lower precision (2026-11-28).
var impliedWords = map[valueKind]string{kindCurrency: "currency", kindEmail: "email"}

// paramKinds are the kinds of value parameters take, by their names (the
// top-level ones: paramText has read them).
func (e *Engine) paramKinds(names []string) valueKind {
	var k valueKind
	for _, name := range names {
		for _, w := range terms(e.exact, name) {
			k |= kindWords[w]
		}
	}
	return k
}

// valueCoverages adds the kinds of value the request states to the
// coverage signals: each is an item of weight valueKindWeight·maxIDF that
// a tool covers when it takes that kind, and that is known when a pooled
// tool does. total is the weight of the describing words (describingWeights).
func (e *Engine) valueCoverages(q parsedQuery, order []*pooled, total float64) {
	if q.kinds == 0 || total <= 0 {
		return
	}
	item := valueKindWeight * e.stats.maxIDF()
	var w, known float64
	covered := make([]float64, len(order))
	for k := valueKind(1); k < kindsEnd; k <<= 1 {
		if q.kinds&k == 0 {
			continue
		}
		w += item
		any := false
		for j, p := range order {
			if p.en.kinds&k != 0 {
				covered[j] += item
				any = true
			}
		}
		if any {
			known += item
		}
	}
	for j, p := range order {
		p.coverage = (p.coverage*total + covered[j]) / (total + w)
		p.soft = (p.soft*total + covered[j]) / (total + w)
		p.known = (p.known*total + known) / (total + w)
		p.softKnown = (p.softKnown*total + known) / (total + w)
	}
}
