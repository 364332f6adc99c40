package resolve

import (
	"strings"
	"unicode"
)

// refRole is what a git ref parameter stands for in a change: where the
// change comes from, where it goes, or a ref alone.
type refRole int

const (
	refNone   refRole = iota
	refPlain          // ref, branch, tag: "on branch X", "tag X"
	refSource         // head, from_ref, "Branch with the changes"
	refTarget         // base, target, "Branch to merge into"
)

// refNouns are the words that name a git ref, in a parameter's name or
// description.
var refNouns = setOf("branch", "ref", "tag", "commit", "sha")

// refRoleOf says which git ref a text parameter takes, if any: one whose
// name or description names a branch, ref, tag or commit. Its role comes
// from its name (base, target; head, source, from…) or its description
// ("… to merge into"; "… to branch from", "… with the changes"). It
// reads the schema alone: made once per manifest (property.refRole).
func refRoleOf(p *property) refRole {
	if !stringProp(p) || len(p.enum) > 0 || p.date {
		return refNone
	}
	if !fitsName(p, refNouns) && !describesAny(p, refNouns) {
		return refNone
	}
	for _, w := range p.words {
		switch w {
		case "base", "target", "into", "dest", "destination":
			return refTarget
		case "head", "source", "from", "src":
			return refSource
		}
	}
	switch {
	case p.descWords["into"] || p.descWords["target"]:
		return refTarget
	case p.descWords["from"] || strings.Contains(p.desc, "with the changes"):
		return refSource
	}
	return refPlain
}

// refCues are the words that introduce a ref in a request and the role
// they give it: "into develop" is where a change goes, "from fix-typos"
// and "off main" where it comes from, "branch X" and "tag X" a ref.
var refCues = map[string]refRole{
	"into": refTarget, "onto": refTarget, "against": refTarget,
	"from": refSource, "off": refSource,
	"branch": refPlain, "tag": refPlain,
}

// defaultBranches are branch names a plain word can be: "from main",
// "on develop". Any other ref is written with a ref's marks (a slash,
// a dash, a dot or a digit: feature/login, fix-typos, v1.4.2).
var defaultBranches = setOf("main", "master", "develop", "development", "trunk")

// applyRefs is the refs rule: a git ref after its cue ("from
// feature/login", "into develop", "off main", "on branch release/2.3",
// "tag v1.4.2", "a branch called feat/sso") to the parameter for it.
// Branches look like repositories (owner/name) and like paths, so the
// shapes rule would give "feature/login" to a repo parameter, and names
// the one left to the branch: the cue says which is which. It runs
// before shapes, and only for a tool with a ref parameter.
func (f *filler) applyRefs() {
	var refs []*property
	for _, p := range f.s.props {
		if p.refRole != refNone {
			refs = append(refs, p)
		}
	}
	if len(refs) == 0 {
		return
	}
	for i := range f.toks {
		role, ok := refCues[f.toks[i].word]
		if !ok || !f.free(i) || endsClause(f.toks[i].raw) {
			continue
		}
		k := f.refValueAt(i + 1)
		if k < 0 {
			continue
		}
		if p := f.refFor(refs, role, f.toks[i].word); p != nil && f.try(p, f.toks[k].value) {
			f.useTokens(rangeIdx(i, k)...)
			f.useRefLead(i)
		}
	}
	f.applyOnDefaultBranch(refs)
}

// refValueAt finds the ref written at token k, past "called"/"named"
// ("a branch called X") and "of" ("off of main"): its index, or -1.
func (f *filler) refValueAt(k int) int {
	if k < len(f.toks) && (f.toks[k].word == "called" || f.toks[k].word == "named" || f.toks[k].word == "of") {
		k++
	}
	if !f.free(k) || !refShaped(f.toks[k].value) {
		return -1
	}
	return k
}

// refShaped: s is written as a git ref: no spaces, the letters, digits
// and marks refs are made of, and a mark or a digit unless it is a
// default branch's name ("main"): "from scratch" is no ref.
func refShaped(s string) bool {
	if s == "" || strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") || strings.Contains(s, "://") || strings.Contains(s, "@") {
		return false
	}
	marked := false
	for _, r := range s {
		switch {
		case r == '/' || r == '-' || r == '_' || r == '.' || unicode.IsDigit(r):
			marked = true
		case !unicode.IsLetter(r):
			return false
		}
	}
	return marked && strings.ContainsFunc(s, unicode.IsLetter) || defaultBranches[strings.ToLower(s)]
}

// refFor picks the missing ref parameter a cue gives a ref to: a cue of
// direction the one parameter of that role, else the one ref parameter
// that is not the other end ("from tag v1.4.2" to a lone ref); "branch X"
// and "tag X" the parameter named for the noun, else the one that is not
// where the change goes ("a pull request for branch X" → head).
func (f *filler) refFor(refs []*property, role refRole, cue string) *property {
	var cands []*property
	for _, p := range refs {
		if !f.missing(p) {
			continue
		}
		if role == refPlain && len(p.words) > 0 && p.words[len(p.words)-1] == cue {
			return p
		}
		if r := p.refRole; r == role || role == refPlain && r != refTarget {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 && role != refPlain {
		for _, p := range refs {
			if f.missing(p) && p.refRole == refPlain {
				cands = append(cands, p)
			}
		}
	}
	if len(cands) != 1 {
		return nil
	}
	return cands[0]
}

// useRefLead marks "on" before "branch X" as used with it: the
// preposition belongs to the ref, and no place.
func (f *filler) useRefLead(i int) {
	if i > 0 && f.free(i-1) && f.toks[i-1].word == "on" {
		f.useTokens(i - 1)
	}
}

// applyOnDefaultBranch reads "on main", "on develop": a default branch's
// name after "on" is where a run or a change happens, for the one plain
// ref parameter missing. Only such names: "on acme/web" is a repository.
func (f *filler) applyOnDefaultBranch(refs []*property) {
	for i := 0; i+1 < len(f.toks); i++ {
		if f.toks[i].word != "on" || !f.free(i) || !f.free(i+1) || !defaultBranches[f.toks[i+1].word] {
			continue
		}
		if p := f.refFor(refs, refPlain, ""); p != nil && f.try(p, f.toks[i+1].word) {
			f.useTokens(i, i+1)
		}
	}
}
