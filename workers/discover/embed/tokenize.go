package embed

import (
	"unicode"
	"unicode/utf8"
)

// Tool text is prose mixed with identifiers (getTeamStats,
// google_maps_scraper, disk-usage, HTTPServer, mp3). The embedder reads it
// in runs of letters and digits, tries each run whole (so YouTube and
// LinkedIn keep their own vectors), then splits what it does not know at
// case changes, then at letter/digit changes, then into sub-words (see
// oov.go). These helpers find the runs and the case boundaries without
// allocating.

// nextRun returns the bounds of the first run of letters and digits in s at
// or after i, or start = -1 when there is none.
func nextRun(s string, i int) (start, end int) {
	start = -1
	for i < len(s) {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if isAlnum(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			return start, i
		}
		i += n
	}
	if start < 0 {
		return -1, len(s)
	}
	return start, len(s)
}

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// appendLower appends s lowercased.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += n
	}
	return dst
}

// caseSplit appends the end offset of each camelCase part of run: a part
// ends before an upper-case letter that follows a lower-case letter or a
// digit (getTeam|Stats, base64|Encode), or that starts a word after an
// acronym (HTTP|Server).
func caseSplit(run string, ends []int) []int {
	var prev rune
	prevAt := -1
	for i := 0; i < len(run); {
		r, n := utf8.DecodeRuneInString(run[i:])
		if prevAt >= 0 {
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
				ends = append(ends, i)
			case unicode.IsLower(r) && unicode.IsUpper(prev) && prevAt > 0 && upperBefore(run, prevAt):
				ends = append(ends, prevAt)
			}
		}
		prev, prevAt = r, i
		i += n
	}
	return append(ends, len(run))
}

// upperBefore reports whether the rune before offset i of s is upper case.
func upperBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsUpper(r)
}
