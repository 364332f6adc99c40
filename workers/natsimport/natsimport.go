package natsimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/schemas"
)

// Endpoint metadata keys read by Manifests.
const (
	MetaDescription = "description"
	MetaSchema      = "schema"
	MetaKeywords    = "keywords"
	MetaExamples    = "examples"
	MetaPermissions = "permissions"
	MetaTimeout     = "timeout"
)

// ErrNoService: no instance of the service answered.
var ErrNoService = errors.New("no instance of the service answered")

// Discover asks every instance of service for its Info and returns the
// answers that arrive within settle of the first one (or an error when none
// arrives before ctx ends).
func Discover(ctx context.Context, nc *nats.Conn, service string, settle time.Duration) ([]micro.Info, error) {
	subject, err := micro.ControlSubject(micro.InfoVerb, service, "")
	if err != nil {
		return nil, fmt.Errorf("service %q: %w", service, err)
	}
	if strings.ContainsAny(service, " .*>\t\r\n") {
		return nil, fmt.Errorf("service name %q is not a single subject token", service)
	}
	inbox := nc.NewRespInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest(subject, inbox, nil); err != nil {
		return nil, fmt.Errorf("ask %s: %w", subject, err)
	}
	var infos []micro.Info
	deadline := time.Time{}
	for {
		wait := ctx
		var cancel context.CancelFunc = func() {}
		if !deadline.IsZero() {
			wait, cancel = context.WithDeadline(ctx, deadline)
		}
		msg, err := sub.NextMsgWithContext(wait)
		cancel()
		if err != nil {
			if len(infos) > 0 {
				return infos, nil
			}
			return nil, fmt.Errorf("%w: nothing on %s (is service %q running on this NATS server?): %v", ErrNoService, subject, service, err)
		}
		if msg.Header.Get("Status") == "503" {
			return nil, fmt.Errorf("%w: no responders on %s (is service %q running on this NATS server?)", ErrNoService, subject, service)
		}
		var info micro.Info
		if err := json.Unmarshal(msg.Data, &info); err != nil {
			return nil, fmt.Errorf("%s: an instance answered with something that is not a service info: %w", subject, err)
		}
		infos = append(infos, info)
		if deadline.IsZero() {
			deadline = time.Now().Add(settle)
		}
	}
}

// Skipped is an endpoint that could not become a tool.
type Skipped struct {
	Endpoint string
	Reason   string
}

// Manifests turns service infos into manifests named name/<endpoint>. When
// instances disagree (a rolling upgrade), the newest version's endpoints
// win. A manifest that does not validate (bad schema metadata) is an
// error naming the endpoint, so nothing half-described is imported.
func Manifests(name string, infos []micro.Info) ([]schemas.Manifest, []Skipped, error) {
	if len(infos) == 0 {
		return nil, nil, ErrNoService
	}
	infos = slices.Clone(infos)
	slices.SortStableFunc(infos, func(a, b micro.Info) int { return compareVersions(b.Version, a.Version) })
	if name == "" {
		name = infos[0].Name
	}
	for _, part := range strings.Split(name, "/") {
		if !validToken(part) {
			return nil, nil, fmt.Errorf("tool namespace %q: want letters, digits, - and _, optionally in /-separated parts (set another with --name)", name)
		}
	}
	var ms []schemas.Manifest
	var skipped []Skipped
	seen := map[string]bool{}
	for _, info := range infos {
		for _, ep := range info.Endpoints {
			if seen[ep.Name] {
				continue
			}
			seen[ep.Name] = true
			if !validToken(ep.Name) {
				skipped = append(skipped, Skipped{ep.Name, "the endpoint name is not letters, digits, - and _"})
				continue
			}
			if !validSubject(ep.Subject) {
				skipped = append(skipped, Skipped{ep.Name, fmt.Sprintf("subject %q is not a valid subject", ep.Subject)})
				continue
			}
			if strings.ContainsAny(ep.Subject, "*>") {
				skipped = append(skipped, Skipped{ep.Name, fmt.Sprintf("subject %s has a wildcard; a tool needs a fixed subject", ep.Subject)})
				continue
			}
			m, err := manifest(name, info, ep)
			if err != nil {
				return nil, nil, fmt.Errorf("endpoint %s of service %s: %w", ep.Name, info.Name, err)
			}
			ms = append(ms, m)
		}
	}
	slices.SortFunc(ms, func(a, b schemas.Manifest) int { return strings.Compare(a.ID, b.ID) })
	return ms, skipped, nil
}

func manifest(name string, info micro.Info, ep micro.EndpointInfo) (schemas.Manifest, error) {
	md := ep.Metadata
	desc := strings.TrimSpace(md[MetaDescription])
	if desc == "" {
		desc = strings.TrimSpace(info.Description)
		if desc == "" {
			desc = "Endpoint " + ep.Name + " of the " + info.Name + " service"
		} else {
			desc += " (endpoint " + ep.Name + ")"
		}
	}
	doc := map[string]any{
		"id": name + "/" + ep.Name, "name": ep.Name, "description": desc, "type": "tool", "server": name,
		"executor": map[string]any{"kind": schemas.ExecNATS, "subject": ep.Subject},
	}
	if info.Version != "" {
		doc["version"] = info.Version
	}
	if s := strings.TrimSpace(md[MetaSchema]); s != "" {
		if !json.Valid([]byte(s)) {
			return schemas.Manifest{}, fmt.Errorf("metadata %q is not JSON", MetaSchema)
		}
		doc["parameters"] = json.RawMessage(s)
	}
	if l := list(md[MetaKeywords]); len(l) > 0 {
		doc["keywords"] = l
	}
	if l := list(md[MetaPermissions]); len(l) > 0 {
		doc["permissions"] = l
	}
	if s := strings.TrimSpace(md[MetaExamples]); s != "" {
		var ex []string
		if err := json.Unmarshal([]byte(s), &ex); err != nil {
			return schemas.Manifest{}, fmt.Errorf("metadata %q must be a JSON array of strings: %w", MetaExamples, err)
		}
		doc["examples"] = ex
	}
	if s := strings.TrimSpace(md[MetaTimeout]); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return schemas.Manifest{}, fmt.Errorf("metadata %q = %q is not a positive Go duration (\"5s\")", MetaTimeout, s)
		}
		doc["executor"].(map[string]any)["timeout"] = s
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return schemas.Manifest{}, err
	}
	return schemas.ValidateManifest(data)
}

func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// compareVersions orders dotted numeric versions ("1.10.0" > "1.9.2");
// parts that are not numbers compare as text.
func compareVersions(a, b string) int {
	pa := strings.Split(strings.TrimPrefix(a, "v"), ".")
	pb := strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y string
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		nx, ex := strconv.Atoi(x)
		ny, ey := strconv.Atoi(y)
		switch {
		case ex == nil && ey == nil && nx != ny:
			if nx < ny {
				return -1
			}
			return 1
		case (ex != nil || ey != nil) && x != y:
			return strings.Compare(x, y)
		}
	}
	return 0
}

// validToken: what micro allows in service and endpoint names.
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// validSubject: printable UTF-8 tokens separated by single dots.
func validSubject(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, tok := range strings.Split(s, ".") {
		if tok == "" || strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
			return false
		}
	}
	return true
}
