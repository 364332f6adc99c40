package integration

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// An operator finds a bad agent output in the DLQ, reads it, replays it
// (it is bad again, so it comes back as a new entry, and the old one is
// gone) and purges the DLQ.
func TestDLQCommands(t *testing.T) {
	_, url := startUp(t, "")
	run := func(stdin string, args ...string) (string, error) {
		c := exec.Command(binary, append(args, "--nats", url)...)
		c.Stdin = strings.NewReader(stdin)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// Valid JSON, not a valid agent output: no text.
	if err := nc.Publish("agent.output.dlqs", []byte(`{"session_id": "dlqs", "message_id": "bad-1"}`)); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		ID      uint64 `json:"id"`
		Stage   string `json:"stage"`
		Subject string `json:"subject"`
		Reason  string `json:"reason"`
	}
	entries := func() []entry {
		t.Helper()
		out, err := run("", "dlq", "list", "--json")
		if err != nil {
			t.Fatalf("dlq list: %v\n%s", err, out)
		}
		var es []entry
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var e entry
			if l != "" && json.Unmarshal([]byte(l), &e) == nil && e.ID > 0 {
				es = append(es, e)
			}
		}
		return es
	}
	var es []entry
	for deadline := time.Now().Add(15 * time.Second); len(es) == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		es = entries()
	}
	if len(es) != 1 || es[0].Stage != "parse" || es[0].Subject != "agent.output.dlqs" || es[0].Reason == "" {
		t.Fatalf("dead letters: %+v", es)
	}
	id := fmt.Sprint(es[0].ID)
	if out, err := run("", "dlq", "show", id); err != nil || !strings.Contains(out, `"message_id": "bad-1"`) {
		t.Errorf("dlq show: %v\n%s", err, out)
	}
	if out, err := run("", "dlq", "replay", id); err != nil || !strings.Contains(out, "1 replayed") {
		t.Fatalf("dlq replay: %v\n%s", err, out)
	}
	if out, err := run("", "dlq", "show", id); err == nil {
		t.Errorf("a replayed entry is still there:\n%s", out)
	}
	var again []entry
	for deadline := time.Now().Add(15 * time.Second); len(again) == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		again = entries()
	}
	if len(again) != 1 || again[0].ID == es[0].ID {
		t.Fatalf("after the replay the bad output should be dead-lettered anew: %+v", again)
	}
	if out, err := run("n\n", "dlq", "purge"); err == nil || !strings.Contains(out, "nothing removed") {
		t.Errorf("declined purge: %v\n%s", err, out)
	}
	if out, err := run("", "dlq", "purge", "--yes"); err != nil || !strings.Contains(out, "1 removed") {
		t.Errorf("purge: %v\n%s", err, out)
	}
	if es := entries(); len(es) != 0 {
		t.Errorf("left after purge: %+v", es)
	}
}

// A misspelt --stage is an error naming the stages, for every dlq command
// that takes one, never an empty list or a purge of nothing that looks
// like success; a real stage with no entries is fine.
func TestDLQUnknownStageIsRefused(t *testing.T) {
	_, url := startUp(t, "")
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"list misspelt", []string{"dlq", "list", "--stage", "exectue"}, true},
		{"replay misspelt", []string{"dlq", "replay", "--all", "--stage", "exectue"}, true},
		{"purge misspelt", []string{"dlq", "purge", "--stage", "exectue", "--yes"}, true},
		{"purge by wildcard", []string{"dlq", "purge", "--stage", ">", "--yes"}, true},
		{"list a stage", []string{"dlq", "list", "--stage", "execute"}, false},
		{"purge a stage", []string{"dlq", "purge", "--stage", "parse", "--yes"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(binary, append(tc.args, "--nats", url)...).CombinedOutput()
			if tc.wantErr {
				if err == nil || !strings.Contains(string(out), "is not a stage (stages: parse, discover") {
					t.Errorf("%v: want an error naming the stages, got %v:\n%s", tc.args, err, out)
				}
				return
			}
			if err != nil {
				t.Errorf("%v: %v\n%s", tc.args, err, out)
			}
		})
	}
}

// dlq show keeps a message that is not valid UTF-8 byte for byte (base64):
// decoding it as text would replace the bad bytes, the very thing the
// operator needs to see.
func TestDLQShowKeepsInvalidUTF8(t *testing.T) {
	_, url := startUp(t, "")
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	bad := []byte("{\"v\":1,\"session_id\":\"u8\",\"message_id\":\"m1\",\"text\":\"caf\xe9 \xff\"}")
	if err := nc.Publish("agent.output.u8", bad); err != nil {
		t.Fatal(err)
	}
	var id string
	for deadline := time.Now().Add(15 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, err := exec.Command(binary, "dlq", "list", "--json", "--stage", "parse", "--nats", url).Output()
		if err != nil {
			t.Fatalf("dlq list: %v", err)
		}
		var e struct {
			ID uint64 `json:"id"`
		}
		if line := strings.TrimSpace(string(out)); line != "" && json.Unmarshal([]byte(strings.Split(line, "\n")[0]), &e) == nil && e.ID > 0 {
			id = fmt.Sprint(e.ID)
		}
	}
	if id == "" {
		t.Fatal("the invalid output was not dead-lettered")
	}
	out, err := exec.Command(binary, "dlq", "show", id, "--nats", url).Output()
	if err != nil {
		t.Fatalf("dlq show: %v\n%s", err, out)
	}
	var shown struct {
		Base64 string `json:"message_base64"`
	}
	if err := json.Unmarshal(out, &shown); err != nil {
		t.Fatal(err)
	}
	if got, err := base64.StdEncoding.DecodeString(shown.Base64); err != nil || string(got) != string(bad) {
		t.Errorf("dlq show does not give the message byte for byte: %q (%v)\n%s", got, err, out)
	}
}
