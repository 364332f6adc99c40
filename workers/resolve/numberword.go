package resolve

import (
	"strconv"
	"strings"
)

// Numbers written as words: requests say "the last three lines" as often
// as "the last 3 lines". The rules that read a number by the noun it
// counts take them (numeral); coercion does not: a value given for a
// parameter (limit=fifty, a direct call's JSON) is written as a number or
// refused. "one" is left out: it is a pronoun as often as a
// number ("the one in /tmp", "which one"), and "the first line" reads as
// one already (rule singular_counts).
var (
	numberUnits = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
		"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
		"seventeen": 17, "eighteen": 18, "nineteen": 19, "dozen": 12, "hundred": 100, "thousand": 1000}
	numberTens = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
	// onesAfterTens are the units a hyphen joins to a ten: "twenty-one".
	onesAfterTens = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
)

// numberWord reads a number written as one word ("seven", "forty",
// "forty-two"); ok is false for anything else.
func numberWord(s string) (int, bool) {
	w := strings.ToLower(s)
	if n, ok := numberUnits[w]; ok {
		return n, true
	}
	if n, ok := numberTens[w]; ok {
		return n, true
	}
	if ten, one, found := strings.Cut(w, "-"); found {
		if t, ok := numberTens[ten]; ok {
			if o, ok := onesAfterTens[one]; ok {
				return t + o, true
			}
		}
	}
	return 0, false
}

// numeral is the number a token writes, in digits ("3" of "3" or "three"),
// and whether it writes one.
func numeral(raw string) (string, bool) {
	v := cleanValue(raw)
	if _, ok := parseNumber(v); ok {
		return v, true
	}
	if n, ok := numberWord(v); ok {
		return strconv.Itoa(n), true
	}
	return "", false
}

// numberWordAt: word (a token's, lower case) writes a number of two or
// more ("ten customers", "ten at most"), which the one number left may be
// as well as digits. "one" is not: it is as often a pronoun ("the one
// from May").
func numberWordAt(word string) bool {
	if word == "" || word[0] < 'a' || word[0] > 'z' {
		return false // digits and most tokens, cheaply
	}
	n, ok := numberWord(word)
	return ok && n >= 2
}

// looseNumeral is the number a token writes, in digits when it is a word,
// else raw cleaned as it stands ("$1,000" for a number parameter to read).
func looseNumeral(t token) string {
	if numberWordAt(t.word) {
		v, _ := numeral(t.word)
		return v
	}
	return t.value
}
