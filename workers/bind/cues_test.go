package bind

import (
	"slices"
	"testing"
)

func TestSecretCues(t *testing.T) {
	secret := func(name string) bool { return name == "token" || name == "password" }
	cases := []struct {
		name, text string
		want       []string
	}{
		{"none", "show disk usage for /tmp", nil},
		{"not a secret name", "count lines path=/etc/passwd", nil},
		{"key=value", "log in with user=ann token=abc123XYZ", []string{"abc123XYZ"}},
		{"colon and spaces", "password: hunter22 please", []string{"hunter22"}},
		{"double quoted", `token="two words"`, []string{"two words"}},
		{"single quoted", `token='two words'`, []string{"two words"}},
		{"trailing bracket and dot", "[TOOL: unlock token=abc123XYZ].", []string{"abc123XYZ].", "abc123XYZ"}},
		{"name case", "TOKEN=abc123XYZ", []string{"abc123XYZ"}},
		{"several", "token=first1 and password=second2", []string{"first1", "second2"}},
		{"JSON-ish direct call text", `{"token": "abc123XYZ"}`, nil}, // a direct call: the parser's schemas know it
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SecretCues(c.text, secret); !slices.Equal(got, c.want) {
				t.Errorf("SecretCues(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
	got := SecretCuesJSON([]byte(`{"intent":{"text":"unlock token=abc123XYZ","context_before":"my password=hunter22"}}`), secret)
	slices.Sort(got)
	if want := []string{"abc123XYZ", "hunter22"}; !slices.Equal(got, want) {
		t.Errorf("SecretCuesJSON = %q, want %q", got, want)
	}
}
