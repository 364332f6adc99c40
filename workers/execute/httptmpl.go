package execute

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/internal/toolenv"
)

// httpRequest is an http tool's request with its templates filled in.
type httpRequest struct {
	method string
	url    *url.URL
	header http.Header
	body   []byte
}

// buildHTTP fills m's request templates with params. Each value is escaped
// for where it lands: url.PathEscape in a path segment, QueryEscape in the
// query (and a form body), JSON encoding in a JSON body; header values with
// CR, LF or NUL are refused. Placeholders may not appear in the scheme or
// host, so parameters choose what is asked, never whom.
func buildHTTP(m schemas.Manifest, params map[string]any, info *paramInfo) (*httpRequest, error) {
	x := m.Executor
	t := templater{id: m.ID, params: params, info: info, env: x.Env}
	u, err := t.url(x.URL)
	if err != nil {
		return nil, err
	}
	req := &httpRequest{method: x.Method, url: u, header: http.Header{}}
	for name, tmpl := range x.Headers {
		if !validHeaderName(name) {
			return nil, badCall(ErrUnsupported, "tool %s: header name %q is not a valid HTTP header name", m.ID, name)
		}
		v, keep, err := t.text(tmpl, "header "+name)
		if err != nil {
			return nil, err
		}
		if !keep {
			continue
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, badCall(ErrInvalidParameters, "tool %s: header %s would contain a line break or NUL; parameters may not add headers", m.ID, name)
		}
		req.header.Set(name, v)
	}
	if req.method == "" {
		req.method = http.MethodGet
		if x.Body != "" {
			req.method = http.MethodPost
		}
	}
	req.body, err = t.body(x.Body, req)
	if err != nil {
		return nil, err
	}
	return req, nil
}

type templater struct {
	id     string
	params map[string]any
	info   *paramInfo
	// env lists the worker environment variables ({env.NAME}) the
	// templates may use, or fixes them (NAME=value): the executor's env.
	env []string
}

// envPrefix marks a placeholder filled from the worker's environment, for
// secrets such as API keys that must not pass through the agent.
const envPrefix = "env."

// value is a placeholder's parameter; ok is false for an absent optional
// one (an absent required or undeclared one is an error).
func (t templater) value(name string) (any, bool, error) {
	if envName, ok := strings.CutPrefix(name, envPrefix); ok {
		v, err := t.envValue(envName)
		return v, err == nil, err
	}
	v, ok := t.params[name]
	if ok && v != nil {
		return v, true, nil
	}
	return nil, false, absent(t.id, name, t.info)
}

// fill expands a template with esc applied to each value; keep is false
// when an optional parameter it names is absent.
func (t templater) fill(tmpl, where string, esc func(any) string) (string, bool, error) {
	parts, err := schemas.SplitTemplate(tmpl)
	if err != nil {
		return "", false, badCall(ErrUnsupported, "tool %s: %s template %q: %w", t.id, where, tmpl, err)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Name == "" {
			b.WriteString(p.Literal)
			continue
		}
		v, ok, err := t.value(p.Name)
		if err != nil || !ok {
			return "", false, err
		}
		b.WriteString(esc(v))
	}
	return b.String(), true, nil
}

// envValue is {env.NAME}: the executor's env must list NAME (the value
// comes from the worker's environment) or set it (NAME=value).
func (t templater) envValue(name string) (string, error) {
	v, listed, ok := toolenv.Value(name, t.env)
	switch {
	case !listed:
		return "", badCall(ErrUnsupported, "tool %s: {%s%s} names a variable its executor's env does not list", t.id, envPrefix, name)
	case !ok:
		return "", badCall(ErrUnsupported, "tool %s needs the environment variable %s, which this worker does not have", t.id, name)
	}
	return v, nil
}

func (t templater) text(tmpl, where string) (string, bool, error) {
	return t.fill(tmpl, where, argString)
}

// url expands a URL template: the scheme and host literally, placeholders
// in the path path-escaped, in the query query-escaped.
func (t templater) url(tmpl string) (*url.URL, error) {
	scheme, rest, ok := strings.Cut(tmpl, "://")
	scheme = strings.ToLower(scheme)
	if !ok || scheme != "http" && scheme != "https" {
		return nil, badCall(ErrUnsupported, "tool %s: url %q must start with http:// or https://", t.id, tmpl)
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, rest := rest[:end], rest[end:]
	if strings.Contains(strings.ReplaceAll(authority, "{{", ""), "{") || authority == "" {
		return nil, badCall(ErrUnsupported, "tool %s: url %q: the host must be written out; placeholders may only appear in the path and query", t.id, tmpl)
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i] // never sent
	}
	pathT, queryT, hasQuery := strings.Cut(rest, "?")
	path, err := t.path(pathT)
	if err != nil {
		return nil, err
	}
	raw := scheme + "://" + authority + path
	if hasQuery {
		q, err := t.query(queryT, "query")
		if err != nil {
			return nil, err
		}
		if q != "" {
			raw += "?" + q
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, badCall(ErrUnsupported, "tool %s: url %q expands to %q: %w", t.id, tmpl, raw, err)
	}
	return u, nil
}

// path expands the path segment by segment. A segment that is only a
// placeholder for an absent optional parameter disappears; a value of "."
// or ".." is refused, since it would climb the server's path.
func (t templater) path(tmpl string) (string, error) {
	if tmpl == "" {
		return "", nil
	}
	segs := strings.Split(tmpl, "/")
	out := segs[:0]
	for _, seg := range segs {
		v, keep, err := t.fill(seg, "url path", func(v any) string {
			if items, ok := v.([]any); ok {
				esc := make([]string, len(items))
				for i, it := range items {
					esc[i] = url.PathEscape(argString(it))
				}
				return strings.Join(esc, ",")
			}
			return url.PathEscape(argString(v))
		})
		if err != nil {
			return "", err
		}
		if !keep {
			continue
		}
		if (v == "." || v == "..") && v != seg {
			return "", badCall(ErrInvalidParameters, "tool %s: a path parameter may not be %q", t.id, v)
		}
		out = append(out, v)
	}
	return strings.Join(out, "/"), nil
}

// query expands k=v pairs. A pair whose value names an absent optional
// parameter is dropped; a value that is only a placeholder for an array
// repeats the pair per item (tag=a&tag=b).
func (t templater) query(tmpl, where string) (string, error) {
	var out []string
	for _, pair := range strings.Split(tmpl, "&") {
		if pair == "" {
			continue
		}
		k, v, hasV := strings.Cut(pair, "=")
		key, keep, err := t.fill(k, where, func(v any) string { return url.QueryEscape(argString(v)) })
		if err != nil {
			return "", err
		}
		if !keep {
			continue
		}
		if !hasV {
			out = append(out, key)
			continue
		}
		if parts, err := schemas.SplitTemplate(v); err == nil && len(parts) == 1 && parts[0].Name != "" {
			val, ok, err := t.value(parts[0].Name)
			if err != nil {
				return "", err
			}
			if !ok {
				continue
			}
			if items, isList := val.([]any); isList {
				for _, it := range items {
					out = append(out, key+"="+url.QueryEscape(argString(it)))
				}
				continue
			}
		}
		val, keep, err := t.fill(v, where, func(v any) string { return url.QueryEscape(argString(v)) })
		if err != nil {
			return "", err
		}
		if keep {
			out = append(out, key+"="+val)
		}
	}
	return strings.Join(out, "&"), nil
}

// body fills the body template by the request's content type: JSON (the
// default for a template that is valid JSON), a form, or text. With no
// template, POST, PUT and PATCH send the parameters as a JSON object.
func (t templater) body(tmpl string, req *httpRequest) ([]byte, error) {
	ct := req.header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	if tmpl == "" {
		switch req.method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			if ct == "" {
				req.header.Set("Content-Type", "application/json")
			}
			return json.Marshal(t.params)
		}
		return nil, nil
	}
	switch {
	case media == "application/x-www-form-urlencoded":
		q, err := t.query(tmpl, "body")
		return []byte(q), err
	case media == "" || media == "application/json" || strings.HasSuffix(media, "+json"):
		dec := json.NewDecoder(strings.NewReader(tmpl))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil || dec.More() {
			if media != "" {
				return nil, badCall(ErrUnsupported, "tool %s: body template is not JSON although the content type is %s", t.id, media)
			}
			break // text
		}
		filled, keep, err := t.json(doc)
		if err != nil {
			return nil, err
		}
		if !keep {
			filled = nil
		}
		if ct == "" {
			req.header.Set("Content-Type", "application/json")
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(filled); err != nil {
			return nil, badCall(ErrInvalidParameters, "tool %s: body: %w", t.id, err)
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	}
	if ct == "" {
		req.header.Set("Content-Type", "text/plain; charset=utf-8")
	}
	s, _, err := t.fill(tmpl, "body", argString)
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// json fills a JSON template: a string that is only a placeholder becomes
// the parameter's JSON value (a member or element for an absent optional
// parameter is left out); a placeholder inside a longer string is
// interpolated as text.
func (t templater) json(v any) (any, bool, error) {
	switch x := v.(type) {
	case string:
		parts, err := schemas.SplitTemplate(x)
		if err != nil {
			return nil, false, badCall(ErrUnsupported, "tool %s: body string %q: %w", t.id, x, err)
		}
		if len(parts) == 1 && parts[0].Name != "" {
			val, ok, err := t.value(parts[0].Name)
			return val, ok, err
		}
		return t.fill(x, "body", argString)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			nv, keep, err := t.json(e)
			if err != nil {
				return nil, false, err
			}
			if keep {
				out[k] = nv
			}
		}
		return out, true, nil
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			nv, keep, err := t.json(e)
			if err != nil {
				return nil, false, err
			}
			if keep {
				out = append(out, nv)
			}
		}
		return out, true, nil
	}
	return v, true, nil
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+.^`|~", c) >= 0) {
			return false
		}
	}
	return true
}
