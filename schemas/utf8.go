package schemas

import (
	"fmt"
	"unicode/utf8"
)

// CheckJSONUTF8 returns an error when a JSON message is not valid UTF-8:
// a byte sequence that is not UTF-8, or a \u escape of half a surrogate
// pair. encoding/json decodes both to U+FFFD without a word, so an output
// checked only after decoding would run with text its agent never wrote;
// this runs on the raw message, before decoding.
func CheckJSONUTF8(data []byte) error {
	if !utf8.Valid(data) {
		return fmt.Errorf("the message is not valid UTF-8 (bad byte at offset %d); send UTF-8 text", firstInvalidByte(data))
	}
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		i++ // the escaped character: an escaped backslash is skipped whole
		if i >= len(data) || data[i] != 'u' {
			continue
		}
		r, ok := hex4(data, i+1)
		if !ok {
			continue // not JSON; the decoder says so
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return fmt.Errorf("the message holds \\u%04X at offset %d, the second half of a UTF-16 surrogate pair without its first; send UTF-8 text", r, i-1)
		case r >= 0xD800 && r <= 0xDBFF:
			lo, ok := -1, false
			if i+6 < len(data) && data[i+5] == '\\' && data[i+6] == 'u' {
				lo, ok = hex4(data, i+7)
			}
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return fmt.Errorf("the message holds \\u%04X at offset %d, the first half of a UTF-16 surrogate pair without its second; send UTF-8 text", r, i-1)
			}
			i += 10 // past both escapes
		default:
			i += 4
		}
	}
	return nil
}

func firstInvalidByte(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// hex4 reads the four hex digits at data[i:].
func hex4(data []byte, i int) (int, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	n := 0
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}
