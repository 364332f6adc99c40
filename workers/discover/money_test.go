package discover

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

func TestMoneyMentions(t *testing.T) {
	tests := []struct {
		text  string
		want  []string // as written
		named bool     // some is named by a name or a code
	}{
		{"swap 300 Swiss francs into euros", []string{"Swiss francs", "euros"}, true},
		{"how many yen is 50 pounds", []string{"yen", "pounds"}, true},
		{"rate from USD to EUR", []string{"USD", "EUR"}, true},
		{"pay 120 CAD now", []string{"CAD"}, true},
		{"refund $25 of the order", []string{"$25"}, false},
		{"€45 in dollars", []string{"€45", "dollars"}, true},
		{"C$12.50 please", []string{"C$12.50"}, false},
		// Names that as often say something else alone, codes that are
		// words or names in capitals, a shell's dollar.
		{"5kg in pounds", nil, false},
		{"convert 12 pounds to kilograms", nil, false},
		{"sterling work, thanks", nil, false},
		{"open the CAD drawings", nil, false},
		{"list ALL files", nil, false},
		{"echo $HOME", nil, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		var got []string
		named := false
		for _, m := range moneyMentions(tt.text) {
			got = append(got, tt.text[m.span[0]:m.span[1]])
			named = named || m.named
		}
		if !slices.Equal(got, tt.want) || named != tt.named {
			t.Errorf("moneyMentions(%q) = %q (named %v), want %q (named %v)", tt.text, got, named, tt.want, tt.named)
		}
	}
}

// A currency named in a request stands for the word currency: a currency
// tool answers "50 euros to dollars" above a unit converter whose text
// shares the request's verb, which answered it before; a weight in pounds
// stays the converter's, and a payment with its sign is no conversion.
func TestNamedCurrencyImpliesCurrency(t *testing.T) {
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	tool := func(id, name, desc, params string) schemas.Manifest {
		return schemas.Manifest{ID: id, Name: name, Description: desc, Parameters: json.RawMessage(params)}
	}
	e, err := New([]schemas.Manifest{
		tool("money/exchange", "Exchange", "Convert an amount of money between currencies at today's rate.",
			`{"type":"object","properties":{"amount":{"type":"number"},"from_currency":{"type":"string"},"to_currency":{"type":"string"}}}`),
		tool("units/convert", "Convert units", "Convert a quantity between units of measure: length, weight, volume, temperature.",
			`{"type":"object","properties":{"value":{"type":"number"},"from_unit":{"type":"string"},"to_unit":{"type":"string"}}}`),
		tool("shop/refund", "Refund", "Give a customer their money back for an order.",
			`{"type":"object","properties":{"order":{"type":"string"},"amount":{"type":"number"}}}`),
		tool("notes/add", "Add note", "Save a short text note.", `{"type":"object","properties":{"text":{"type":"string"}}}`),
	}, WithEmbedder(emb), WithMode(ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct{ text, want string }{
		{"convert 70 euros to dollars", "money/exchange"},
		{"how many yen is 20 pounds", "money/exchange"},
		{"what is 500 SEK in NOK", "money/exchange"},
		{"convert 12 pounds to kilograms", "units/convert"},
		{"give back $25 on order 881", "shop/refund"},
	} {
		cs, err := e.Search(context.Background(), c.text, 2, nil)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%q: %v %v", c.text, cs, err)
		}
		if cs[0].ToolID != c.want {
			t.Errorf("%q: %s first (%.2f), want %s", c.text, cs[0].ToolID, cs[0].Confidence, c.want)
		}
	}
}

// Whatever the text, the currencies found lie inside it, in order, apart.
func FuzzMoneyMentions(f *testing.F) {
	for _, s := range []string{"swap 300 Swiss francs into euros", "C$12.50 to USD", "$$$", "€", "50 pounds in yen", "A$1,2,3.", "ÜSD 12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		end := 0
		for _, m := range moneyMentions(text) {
			if m.span[0] < end || m.span[1] <= m.span[0] || m.span[1] > len(text) {
				t.Fatalf("moneyMentions(%q): span %v after %d", text, m.span, end)
			}
			end = m.span[1]
		}
	})
}

// The currency scan runs on every request.
func BenchmarkMoneyMentions(b *testing.B) {
	short := "how much room is left on the backup disk of the build server"
	long := strings.Repeat("please look at the quarterly figures for the Zurich office and "+short+" ", 40)
	for _, c := range []struct{ name, text string }{{"short", short}, {"long", long}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				moneyMentions(c.text)
			}
		})
	}
}
