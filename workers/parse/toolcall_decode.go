package parse

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// A direct call comes in one of three forms (see the package doc):
//
//	<tool_call name="disk_usage">{"path": "/tmp"}</tool_call>
//	<tool_call>{"name": "disk_usage", "arguments": {"path": "/tmp"}}</tool_call>
//	<tool_call><meta_tool>execute</meta_tool>…<item_id>disk_usage</item_id>
//	    <parameters>{"path": "/tmp"}</parameters></tool_call>
//
// JSON inside the element is taken raw, not as XML character data: agents
// write {"q": "a<b && c"} without escaping, and strict XML would refuse it.

// maxParamDepth bounds the nesting of child-element parameters.
const maxParamDepth = 32

// decodeCall decodes the element elem, whose start tag is elem[:tagEnd] and
// whose end tag starts at closeStart (tagEnd == closeStart == len(elem) for a
// self-closing element).
func decodeCall(elem string, tagEnd, closeStart int) (schemas.ToolCall, error) {
	var c schemas.ToolCall
	name, hasName, err := startTagName(elem[:tagEnd])
	if err != nil {
		return c, err
	}
	inner := strings.TrimSpace(elem[tagEnd:closeStart])
	switch {
	case inner == "":
		c.Parameters = map[string]any{}
		c.ToolID = name
	case inner[0] == '{' && hasName:
		if c.Parameters, err = jsonObject(inner); err != nil {
			return c, fmt.Errorf("its parameters are not a JSON object: %w", err)
		}
		c.ToolID = name
	case inner[0] == '{':
		if err := decodeJSONCall(inner, &c); err != nil {
			return c, err
		}
	case inner[0] == '<':
		if err := decodeElements(elem[:tagEnd], elem[tagEnd:closeStart], &c); err != nil {
			return c, err
		}
		if hasName {
			if c.ToolID != "" && c.ToolID != name {
				return c, fmt.Errorf("name=%q and <item_id>%s</item_id> name different tools", name, c.ToolID)
			}
			c.ToolID = name
		}
	default:
		return c, fmt.Errorf("its content must be a JSON object of parameters or child elements, not %q", clip(inner, 20))
	}
	return c, complete(&c)
}

// startTagName reads the start tag's attributes: only name (the tool id) is
// allowed, besides namespace declarations.
func startTagName(tag string) (name string, ok bool, err error) {
	src := tag
	if !strings.HasSuffix(tag, "/>") {
		src += "</tool_call>"
	}
	dec := newXMLDecoder(src)
	tok, err := dec.Token()
	if err != nil {
		return "", false, fmt.Errorf("its start tag is not valid XML: %w", err)
	}
	start, isStart := tok.(xml.StartElement)
	if !isStart {
		return "", false, errors.New("its start tag is not valid XML")
	}
	for _, a := range start.Attr {
		switch {
		case a.Name.Space == "xmlns" || a.Name.Local == "xmlns":
		case a.Name.Local == "name":
			name, ok = strings.TrimSpace(a.Value), true
		default:
			return "", false, fmt.Errorf("attribute %q is unknown (the tool id goes in name=\"…\")", a.Name.Local)
		}
	}
	return name, ok, nil
}

// decodeJSONCall reads the JSON form {"name": …, "arguments": {…}}; the
// arguments may also be called "parameters", or be a string holding the
// JSON object (as OpenAI-style function calls have them).
func decodeJSONCall(inner string, c *schemas.ToolCall) error {
	obj, err := jsonObject(inner)
	if err != nil {
		return fmt.Errorf("its content is not a JSON object: %w", err)
	}
	if _, ok := obj["name"]; !ok {
		return errNoTool
	}
	c.Parameters = map[string]any{}
	for k, v := range obj {
		switch k {
		case "name":
			s, ok := v.(string)
			if !ok {
				return errors.New(`its "name" must be a string (the tool id)`)
			}
			c.ToolID = strings.TrimSpace(s)
		case "arguments", "parameters":
			if s, ok := v.(string); ok {
				if v, err = jsonObject(s); err != nil {
					return fmt.Errorf("its %q string is not a JSON object: %w", k, err)
				}
			}
			m, ok := v.(map[string]any)
			if !ok && v != nil {
				return fmt.Errorf("its %q must be a JSON object", k)
			}
			if m != nil {
				c.Parameters = m
			}
		default:
			return fmt.Errorf(`without name="…" its JSON must be {"name": "TOOL_ID", "arguments": {…}}; key %q is unknown`, k)
		}
	}
	if c.ToolID == "" {
		return errNoTool
	}
	return nil
}

var errNoTool = errors.New(`it names no tool: write name="TOOL_ID" on the element or a "name" key in its JSON`)

// decodeElements reads the element form. A <parameters> holding JSON is cut
// out first and decoded as JSON, so that the XML decoder never sees it.
func decodeElements(tag, inner string, c *schemas.ToolCall) error {
	inner, rawParams, hasRaw := cutJSONParameters(inner)
	dec := newXMLDecoder(tag + inner + "</tool_call>")
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("it is not valid XML: %w", err)
	}
	seen := map[string]bool{}
	var confidence string
	for {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("it is not valid XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if hasRaw {
				if c.Parameters, err = jsonObject(rawParams); err != nil {
					return fmt.Errorf("its <parameters> are not a JSON object: %w", err)
				}
			}
			if c.Parameters == nil {
				c.Parameters = map[string]any{}
			}
			if confidence != "" {
				return parseConfidence(confidence, c)
			}
			return nil
		case xml.CharData:
			if s := strings.TrimSpace(string(t)); s != "" {
				return fmt.Errorf("text %q sits outside any element", clip(s, 20))
			}
		case xml.StartElement:
			name := t.Name.Local
			if seen[name] {
				return fmt.Errorf("<%s> appears twice", name)
			}
			seen[name] = true
			if name == "parameters" {
				if hasRaw {
					if err := dec.Skip(); err != nil {
						return fmt.Errorf("it is not valid XML: %w", err)
					}
					continue
				}
				v, err := readValue(dec, 1)
				if err != nil {
					return fmt.Errorf("<parameters>: %w", err)
				}
				switch v := v.(type) {
				case map[string]any:
					c.Parameters = v
				case string:
					if v != "" {
						return errors.New("<parameters> must hold a JSON object or one element per parameter")
					}
				}
				continue
			}
			var field *string
			switch name {
			case "meta_tool":
				field = &c.MetaTool
			case "item_type":
				field = &c.ItemType
			case "action":
				field = &c.Action
			case "item_id":
				field = &c.ToolID
			case "confidence":
				field = &confidence
			default:
				return fmt.Errorf("element <%s> is unknown (expected meta_tool, item_type, action, item_id, parameters or confidence)", name)
			}
			v, err := readValue(dec, 1)
			if err != nil {
				return fmt.Errorf("<%s>: %w", name, err)
			}
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("<%s> must hold text, not elements", name)
			}
			*field = s
		}
	}
}

// readValue reads the rest of the element just started: its trimmed text,
// or, when it has child elements, a map of them (a repeated child becomes an
// array). XML has no types, so leaf values are strings: the executor knows
// the tool's schema and can convert them.
func readValue(dec *xml.Decoder, depth int) (any, error) {
	var text strings.Builder
	var m map[string]any
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			text.Write(t)
		case xml.StartElement:
			if depth >= maxParamDepth {
				return nil, fmt.Errorf("nested deeper than %d elements", maxParamDepth)
			}
			v, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if m == nil {
				m = map[string]any{}
			}
			k := t.Name.Local
			switch prev := m[k].(type) {
			case nil:
				m[k] = v
			case []any:
				m[k] = append(prev, v)
			default:
				m[k] = []any{prev, v}
			}
		case xml.EndElement:
			s := strings.TrimSpace(text.String())
			if m == nil {
				return s, nil
			}
			if s != "" {
				return nil, fmt.Errorf("text %q is mixed with elements", clip(s, 20))
			}
			return m, nil
		}
	}
}

// cutJSONParameters finds a <parameters> element whose content is JSON and
// replaces it by an empty one, returning the JSON.
func cutJSONParameters(inner string) (rest, raw string, ok bool) {
	i := strings.Index(inner, "<parameters")
	if i < 0 {
		return inner, "", false
	}
	gt := strings.IndexByte(inner[i:], '>')
	if gt < 0 || inner[i+gt-1] == '/' {
		return inner, "", false
	}
	if after := inner[i+len("<parameters"):]; after[0] != '>' && !isXMLSpace(after[0]) {
		return inner, "", false
	}
	body := i + gt + 1
	j := strings.Index(inner[body:], "</parameters>")
	if j < 0 {
		return inner, "", false
	}
	raw = strings.TrimSpace(inner[body : body+j])
	if raw == "" || raw[0] != '{' && raw[0] != '[' {
		return inner, "", false
	}
	return inner[:i] + "<parameters/>" + inner[body+j+len("</parameters>"):], raw, true
}

// complete applies the defaults and checks what execution needs.
func complete(c *schemas.ToolCall) error {
	c.MetaTool = strings.ToLower(strings.TrimSpace(c.MetaTool))
	c.ItemType = strings.TrimSpace(c.ItemType)
	c.Action = strings.TrimSpace(c.Action)
	c.ToolID = strings.TrimSpace(c.ToolID)
	if c.MetaTool == "" {
		c.MetaTool = schemas.MetaExecute
	}
	switch c.MetaTool {
	case schemas.MetaSearch, schemas.MetaLoad, schemas.MetaExecute, schemas.MetaHelp:
	default:
		return fmt.Errorf("meta_tool %q is not one of search, load, execute, help", clip(c.MetaTool, 20))
	}
	if c.ItemType == "" {
		c.ItemType = "tool"
	}
	if c.MetaTool == schemas.MetaExecute {
		if c.ToolID == "" {
			return errors.New(`execute needs a tool id: write name="TOOL_ID" or <item_id>TOOL_ID</item_id>`)
		}
		if c.Action == "" {
			c.Action = "run"
		}
	}
	if len(c.ToolID) > 256 {
		return fmt.Errorf("the tool id is %d bytes long, over 256", len(c.ToolID))
	}
	if strings.ContainsFunc(c.ToolID, func(r rune) bool { return r < 0x20 }) {
		return fmt.Errorf("the tool id %q holds control characters", clip(c.ToolID, 20))
	}
	return nil
}

func parseConfidence(s string, c *schemas.ToolCall) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return fmt.Errorf("<confidence> %q is not a number between 0 and 1", clip(s, 20))
	}
	c.Confidence = f
	return nil
}
