package resolve

import "regexp"

// applyShellCounts reads a count written as a command's option right after
// a word of the tool's name, as in a shell: "head -5 notes.txt", "tail
// -n20 app.log", "tail -n 20 app.log". The count goes to the one missing
// integer parameter whose schema allows no negative value: there "-5" can
// only be the option, never minus five (read as a number, it failed the
// schema and the call with it). "-n 20" with a space is the same option;
// the number rules would read the 20 alone, and the "-n" is used here so
// that it is not reported as unplaced.
func (f *filler) applyShellCounts() {
	target := f.soleMissingWhere(func(p *property) bool { return p.typ == "integer" && p.nonNegative && len(p.enum) == 0 })
	if target == nil {
		return
	}
	for i := 1; i < len(f.toks); i++ {
		if !f.free(i) || !f.tool[f.toks[i-1].word] {
			continue
		}
		digits, letter := shellOption(f.toks[i].raw)
		used := []int{i}
		if digits == "" && letter && i+1 < len(f.toks) && f.free(i+1) && allDigits(f.toks[i+1].raw) {
			digits = f.toks[i+1].raw // "-n 20"
			used = append(used, i+1)
		}
		if digits != "" && f.try(target, digits) {
			f.useTokens(used...)
			return
		}
	}
}

// shellOption reads a command option: "-5" and "-n5" give their digits,
// "-n" alone says an option letter waits for its number.
func shellOption(raw string) (digits string, letter bool) {
	m := shellOptionForm.FindStringSubmatch(raw)
	if m == nil {
		return "", false
	}
	return m[2], m[1] != "" && m[2] == ""
}

// shellOptionForm is a dash, an option letter or none, and digits or none.
var shellOptionForm = regexp.MustCompile(`^-([A-Za-z]?)([0-9]*)$`)
