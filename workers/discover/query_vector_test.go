package discover

import "testing"

// Searching with vectors alone and the local word vectors, only the
// describing words are embedded; in hybrid mode, or with an embedder that
// has no word table, the whole text is.
func TestVectorText(t *testing.T) {
	local, err := New(fixtureTools(), WithEmbedder(needVectors(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	fake := newHybrid(t, &fakeEmbedder{})
	const text = `Could you please help me send an e-mail to bob@example.com about "the budget"?`
	cases := []struct {
		name string
		e    *Engine
		mode Mode
		want string
	}{
		// Stop words, politeness, the address and the quoted value go.
		{"local vector", local, ModeVector, "help send e mail"},
		{"local hybrid", local, ModeHybrid, text},
		{"fake vector", fake, ModeVector, text},
		// Nothing but a value: judged by what there is, as parse does.
		{"values only", local, ModeVector, "budget"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := text
			if c.name == "values only" {
				in = `"the budget"`
			}
			if got := c.e.vectorText(c.e.parse(in), in, c.mode); got != c.want {
				t.Errorf("vectorText(%q, %s) = %q, want %q", in, c.mode, got, c.want)
			}
		})
	}
}
