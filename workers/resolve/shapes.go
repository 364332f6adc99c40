package resolve

import "strings"

// isHostLike: a dotted host name ("example.net", "db.internal"): labels of
// letters, digits and hyphens, the last of two or more letters. A number
// ("3.5") or a one-letter ending ("e.g") is none.
func isHostLike(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	if len(last) < 2 {
		return false
	}
	for _, r := range last {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// isRepoLike: an owner/name pair ("acme/widgets"): one slash between two
// names of letters, digits and . _ -.
func isRepoLike(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	return ok && repoPart(owner) && repoPart(name)
}

func repoPart(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-", r)) {
			return false
		}
	}
	return true
}

// isChannelLike: a chat channel ("#team-core").
func isChannelLike(s string) bool {
	return len(s) > 1 && s[0] == '#' && repoPart(s[1:])
}

// isPhoneLike: a phone number written as one word: groups of digits
// parted by hyphens, the last of four digits and those between of three
// or four ("555-0142", "555-123-4567", "1-800-555-0199", "(020)-7946-0958"),
// or a + and 8 to 15 digits ("+447700900123"). A date ("2026-11-28",
// "28-11-2026"), a range ("10-12") or a plain number is none.
func isPhoneLike(s string) bool {
	if len(s) < 8 || !(s[0] >= '0' && s[0] <= '9' || s[0] == '+' || s[0] == '(') {
		return false // most words, cheaply
	}
	if rest, ok := strings.CutPrefix(s, "+"); ok && !strings.Contains(rest, "-") {
		return len(rest) >= 8 && len(rest) <= 15 && allDigits(rest)
	}
	intl := strings.HasPrefix(s, "+") // "+44-20-7946-0958": an area code of two
	groups := strings.Split(strings.TrimPrefix(s, "+"), "-")
	if len(groups) < 2 {
		return false
	}
	if g := groups[0]; strings.HasPrefix(g, "(") && strings.HasSuffix(g, ")") {
		groups[0] = g[1 : len(g)-1]
	}
	digits := 0
	for i, g := range groups {
		n := len(g)
		switch {
		case !allDigits(g):
			return false
		case i == len(groups)-1 && n != 4:
			return false
		case i == 0 && len(groups) > 2 && (n < 1 || n > 4):
			return false
		case (i > 0 || len(groups) == 2) && (n < 3 && !(intl && n == 2 && i > 0) || n > 4):
			return false
		}
		digits += n
	}
	return digits >= 7 && digits <= 15
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// phoneNames are the words of parameter names that take a phone number;
// a parameter whose description says "phone" takes one too ("to": "Phone
// number or contact name").
var phoneNames = setOf("phone", "phones", "mobile", "cell", "tel", "telephone", "msisdn")
