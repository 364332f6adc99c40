package kiwi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/kiwi"
)

const meta = "__version__ = \"1.0.0\"\n__tool_type__ = \"python\"\n__executor_id__ = \"python_runtime\"\n"

// params parses a tool whose docstring is doc and returns its parameter
// schema without the script_path parameter.
func params(t *testing.T, doc string) (map[string]any, error) {
	t.Helper()
	tool, err := kiwi.Parse("t", "/tools/t.py", []byte("\"\"\""+doc+"\"\"\"\n"+meta))
	if err != nil {
		return nil, err
	}
	p := tool.Parameters
	delete(p["properties"].(map[string]any), kiwi.ScriptParam)
	return roundTrip(t, p), nil
}

func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func js(t *testing.T, s string) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("bad want %s: %v", s, err)
	}
	return out
}

func TestConfigSchemaForms(t *testing.T) {
	tests := []struct {
		name, doc, want, wantErr string
	}{
		{"google style", `Do it.

Config Schema:
    path (str): The file.
    count (int, optional): How many.
`, `{"type":"object","properties":{"path":{"type":"string","description":"The file."},"count":{"type":"integer","description":"How many."}},"required":["path"]}`, ""},
		{"header with other sections around", `Do it.

Args:
    ignored (str): not the config.

Config Schema:
    path (str): The file.

Returns:
    Nothing.
`, `{"type":"object","properties":{"path":{"type":"string","description":"The file."}},"required":["path"]}`, ""},
		{"continuation lines and defaults in text", `Do it.

Config Schema:
    limit (int): How many results,
        at most. Defaults to 25.
    level (str): Verbosity (default: info).
`, `{"type":"object","properties":{"limit":{"type":"integer","default":25,"description":"How many results, at most. Defaults to 25."},"level":{"type":"string","default":"info","description":"Verbosity (default: info)."}}}`, ""},
		{"bullets, dashes and no types", `Do it.

Config Schema:
    - name: Who to greet
    * ` + "`shout`" + ` (bool, default false) — Use capitals
    + times (integer) - How often
`, `{"type":"object","properties":{"name":{"type":"string","description":"Who to greet"},"shout":{"type":"boolean","default":false,"description":"Use capitals"},"times":{"type":"integer","description":"How often"}},"required":["name","times"]}`, ""},
		{"typing forms", `Do it.

Config Schema:
    a (list[int]): ints
    b (Optional[str]): maybe
    c (str | None): maybe too
    d (int | str): either
    e (Literal["x", "y"]): choice
    f (dict[str, float]): weights
    g (list of strings): names
    h (url): where
    i (typing.List[bool]): flags
    j (str, required, one of a|b, default a): mode
`, `{"type":"object","properties":{
  "a":{"type":"array","items":{"type":"integer"},"description":"ints"},
  "b":{"type":"string","description":"maybe"},
  "c":{"type":"string","description":"maybe too"},
  "d":{"type":["integer","string"],"description":"either"},
  "e":{"enum":["x","y"],"description":"choice"},
  "f":{"type":"object","additionalProperties":{"type":"number"},"description":"weights"},
  "g":{"type":"array","items":{"type":"string"},"description":"names"},
  "h":{"type":"string","format":"uri","description":"where"},
  "i":{"type":"array","items":{"type":"boolean"},"description":"flags"},
  "j":{"type":"string","enum":["a","b"],"default":"a","description":"mode"}},
  "required":["a","d","e","f","g","h","i"]}`, ""},
		{"json properties map", `Do it.

Config Schema:
    {"q": {"type": "string", "required": true}, "n": {"type": "integer", "default": 3}}
`, `{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer","default":3}},"required":["q"]}`, ""},
		{"fenced whole schema", "Do it.\n\nConfig Schema:\n    ```json\n    {\"properties\": {\"q\": {\"type\": \"string\"}}, \"required\": [\"q\"]}\n    ```\n",
			`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`, ""},
		{"numpydoc heading", "Do it.\n\nConfig Schema\n-------------\nq (str): query\n", `{"type":"object","properties":{"q":{"type":"string","description":"query"}},"required":["q"]}`, ""},
		{"no section", "Just a description.", `{"type":"object","properties":{}}`, ""},

		{"unknown type", "Do it.\n\nConfig Schema:\n    q (strnig): query\n", "", `unknown type "strnig"`},
		{"bad default", "Do it.\n\nConfig Schema:\n    n (int, default lots): n\n", "", `default "lots" is not an integer`},
		{"default outside enum", "Do it.\n\nConfig Schema:\n    m (str, one of a|b, default c): m\n", "", `default "c" is not one of`},
		{"unreadable line", "Do it.\n\nConfig Schema:\n    this is not a parameter line\n", "", "cannot read"},
		{"duplicate", "Do it.\n\nConfig Schema:\n    q (str): a\n    q (str): b\n", "", `"q" is described twice`},
		{"empty section", "Do it.\n\nConfig Schema:\n\nReturns:\n    x\n", "", "empty"},
		{"bad json", "Do it.\n\nConfig Schema:\n    {\"q\": }\n", "", "not valid"},
		{"unclosed fence", "Do it.\n\nConfig Schema:\n    ```\n    {}\n", "", "never closed"},
		{"json not an object schema", "Do it.\n\nConfig Schema:\n    {\"type\": \"string\"}\n", "", "must describe an object"},
		{"reserved name", "Do it.\n\nConfig Schema:\n    script_path (str): mine\n", "", "reserved"},
		{"extra modifier", "Do it.\n\nConfig Schema:\n    q (str, int): q\n", "", `cannot read "int"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := params(t, tc.doc)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := js(t, tc.want); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				t.Fatalf("got  %s\nwant %s", g, tc.want)
			}
		})
	}
}

func TestParseMetadata(t *testing.T) {
	doc := "\"\"\"A tool.\"\"\"\n"
	tests := []struct {
		name, src, wantErr string
		check              func(kiwi.Tool) bool
	}{
		{"all forms of literals", doc + `__version__ = '1.2.3'
__tool_type__ = r"api"
__executor_id__ = ("http"
    "_runtime")  # a comment
__category__: str = """net"""
__permissions__ = ["fs.read", 'net',]
`, "", func(tl kiwi.Tool) bool {
			return tl.Version == "1.2.3" && tl.ToolType == "api" && tl.ExecutorID == "http_runtime" && tl.Category == "net" &&
				reflect.DeepEqual(tl.Permissions, []string{"fs.read", "net"})
		}},
		{"last assignment wins; indented ones do not count", doc + meta + `__version__ = "2.0.0"
if True:
    __version__ = "9.9.9"
def f():
    __tool_type__ = "wizard"
`, "", func(tl kiwi.Tool) bool { return tl.Version == "2.0.0" && tl.ToolType == "python" }},
		{"escapes in the docstring", "\"\"\"Say \\\"hi\\\" \\u00e9t\\xe9\\nnow.\"\"\"\n" + meta, "", func(tl kiwi.Tool) bool { return tl.Description == "Say \"hi\" été now." }},
		{"raw docstring keeps backslashes", "r'''Match \\d+ digits.'''\n" + meta, "", func(tl kiwi.Tool) bool { return tl.Description == `Match \d+ digits.` }},
		{"missing everything", doc, "__version__ is missing; __tool_type__ is missing; __executor_id__ is missing", nil},
		{"not a string", doc + "__version__ = 1\n__tool_type__ = \"python\"\n__executor_id__ = \"x\"\n", "__version__ (line 2) must be a string, got 1", nil},
		{"f-string", doc + "__version__ = f\"{1}.0.0\"\n__tool_type__ = \"python\"\n__executor_id__ = \"x\"\n", "f-string", nil},
		{"call", doc + "__version__ = str(1)\n__tool_type__ = \"python\"\n__executor_id__ = \"x\"\n", "not a literal", nil},
		{"bad semver", doc + strings.Replace(meta, "1.0.0", "v1.0.0", 1), "not a semantic version", nil},
		{"leading zero", doc + strings.Replace(meta, "1.0.0", "1.02.0", 1), "not a semantic version", nil},
		{"no docstring", meta, "no module docstring", nil},
		{"docstring after code is not one", meta + "x = compute()\nprint(x)\n\"\"\"late\"\"\"\n", "no module docstring", nil},
		{"bytes docstring", "b\"\"\"bytes\"\"\"\n" + meta, "no module docstring", nil},
		{"executor is itself", doc + strings.Replace(meta, "python_runtime", "t", 1), "names the tool itself", nil},
		{"unterminated string", "\"\"\"never closed\n" + meta, "unterminated string", nil},
		{"unbalanced bracket", doc + meta + "x = [1, 2\n", "unclosed bracket", nil},
		{"permissions not a list", doc + meta + "__permissions__ = \"net\"\n", "__permissions__ (line 5) must be a list of strings", nil},
		{"not utf-8", doc + meta + "x = '\xff'\n", "not UTF-8", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := kiwi.Parse("t", "/tools/t.py", []byte(tc.src))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(tl) {
				t.Fatalf("parsed %+v", tl)
			}
		})
	}
}

func TestSignature(t *testing.T) {
	src := []byte("\"\"\"A tool.\"\"\"\n" + meta)
	at := time.Date(2026, 1, 30, 12, 0, 0, 0, time.UTC)
	signed := kiwi.Sign(src, at)
	shebang := kiwi.Sign(append([]byte("#!/usr/bin/env python3\n"), src...), at)
	tests := []struct {
		name    string
		src     []byte
		wantErr string
		signed  bool
	}{
		{"unsigned", src, "", false},
		{"signed", signed, "", true},
		{"signed again replaces the line", kiwi.Sign(signed, at.Add(time.Hour)), "", true},
		{"after a shebang", shebang, "", true},
		{"tampered body", append(append([]byte{}, signed...), "x = 1\n"...), "bad signature", false},
		{"tampered hash", flipHash(signed), "bad signature", false},
		{"hash not hex", []byte(kiwi.SignaturePrefix + "2026-01-30T12:00:00Z:xyz\n" + string(src)), "not 64 lower-case hex", false},
		{"bad timestamp", []byte(kiwi.SignaturePrefix + "yesterday:" + strings.Repeat("a", 64) + "\n" + string(src)), "not an RFC 3339 time", false},
		{"other kiwi line", []byte("# kiwi-mcp:something\n" + string(src)), "malformed signature line", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := kiwi.Parse("t", "/t.py", tc.src)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (tl.Signature != nil) != tc.signed {
				t.Fatalf("signature %+v, want signed=%v", tl.Signature, tc.signed)
			}
		})
	}
	if !strings.HasPrefix(string(shebang), "#!/usr/bin/env python3\n"+kiwi.SignaturePrefix) {
		t.Fatalf("the shebang must stay first:\n%s", shebang)
	}
}

// flipHash changes the last digit of the signature's hash.
func flipHash(signed []byte) []byte {
	out := append([]byte{}, signed...)
	i := strings.IndexByte(string(out), '\n') - 1
	if out[i] == '0' {
		out[i] = '1'
	} else {
		out[i] = '0'
	}
	return out
}
