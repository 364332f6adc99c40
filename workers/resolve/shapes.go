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
