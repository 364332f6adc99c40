package resolve

import "strings"

// enumSynonyms are other names people give common enum members.
var enumSynonyms = map[string][]string{
	"ascending":  {"asc", "increasing", "lowest first", "smallest first", "oldest first"},
	"descending": {"desc", "decreasing", "highest first", "largest first", "newest first"},
	"celsius":    {"c", "centigrade", "°c"},
	"fahrenheit": {"f", "°f"},
	"metric":     {"si", "metres", "meters", "kilometers", "kilometres", "celsius"},
	"imperial":   {"miles", "feet", "fahrenheit"},
	"true":       {"yes", "on", "enabled"},
	"false":      {"no", "off", "disabled"},
	"male":       {"man", "men", "boy", "m"},
	"female":     {"woman", "women", "girl", "f"},
	"small":      {"s", "little"},
	"medium":     {"m", "mid", "middle"},
	"large":      {"l", "big"},
	"high":       {"hi", "urgent"},
	"low":        {"lo"},
	"daily":      {"day", "every day", "per day"},
	"weekly":     {"week", "every week", "per week"},
	"monthly":    {"month", "every month", "per month"},
	"yearly":     {"year", "annual", "annually", "every year", "per year"},
}

// enumSynonym finds the one enum member s names other than by its exact
// spelling: the same words with other separators or case ("open valve"
// for open_valve), the plural or singular, a known synonym ("asc" for
// ascending), or an unambiguous prefix of three letters or more ("desc").
// Several members matching is no match.
func enumSynonym(enum []any, s string) (any, bool) {
	n := normalize(s)
	if n == "" {
		return nil, false
	}
	var tests = []func(member string) bool{
		func(m string) bool { return normalize(m) == n },
		func(m string) bool {
			nm := normalize(m)
			return nm+"s" == n || n+"s" == nm || nm+"es" == n || n+"es" == nm
		},
		func(m string) bool {
			for _, syn := range enumSynonyms[strings.ToLower(m)] {
				if normalize(syn) == n {
					return true
				}
			}
			return false
		},
		func(m string) bool { return len(n) >= 3 && strings.HasPrefix(normalize(m), n) },
	}
	for _, test := range tests {
		var found any
		count := 0
		for _, e := range enum {
			m, ok := e.(string)
			if ok && test(m) {
				found = e
				count++
			}
		}
		if count == 1 {
			return found, true
		}
		if count > 1 {
			return nil, false
		}
	}
	return nil, false
}
