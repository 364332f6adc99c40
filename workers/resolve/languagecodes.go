package resolve

import (
	"strings"

	langs "github.com/toolyard/toolyard/workers/internal/languages"
)

// wantsLanguageCode: p asks for a language as its code ("Result language
// (ISO 639-1)", "two-letter language code", lang_code), not also as a
// name ("ISO 639-1 or name"): a name written there would not be read.
func wantsLanguageCode(p *property) bool {
	if strings.Contains(p.desc, "name") {
		return false
	}
	return fitsName(p, setOf("code")) || strings.Contains(p.desc, "iso 639") ||
		strings.Contains(p.desc, "language code") || strings.Contains(p.desc, "two-letter") || strings.Contains(p.desc, "2-letter")
}

// languageValue is the language named at token i as p takes it: its ISO
// 639-1 code where p asks for a code and the language has one, else as
// written.
func (f *filler) languageValue(p *property, i int) string {
	if code := langs.Codes()[f.toks[i].word]; code != "" && wantsLanguageCode(p) {
		return code
	}
	return f.spanValue(i, i)
}
