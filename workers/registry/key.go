package registry

import (
	"fmt"
	"strings"
)

// Key is the KV key of a tool id. KV keys allow only letters, digits and
// - _ / = . and no empty subject tokens, while tool ids are free text
// ("requestFirst Aid Assistance"), so every other byte — and '=' and '.'
// themselves — is written as =XX.
func Key(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c == '-' || c == '_' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "=%02X", c)
	}
	return b.String()
}

// IDOfKey reverses Key.
func IDOfKey(key string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if key[i] != '=' {
			b.WriteByte(key[i])
			continue
		}
		if i+2 >= len(key) {
			return "", fmt.Errorf("registry key %q: truncated escape at %d", key, i)
		}
		var c byte
		if _, err := fmt.Sscanf(key[i+1:i+3], "%02X", &c); err != nil {
			return "", fmt.Errorf("registry key %q: bad escape at %d: %w", key, i, err)
		}
		b.WriteByte(c)
		i += 2
	}
	return b.String(), nil
}
