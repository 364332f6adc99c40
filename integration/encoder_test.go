package integration

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// `toolyard up --encoder use-lite` runs hybrid discovery with the sentence
// encoder: an intent is answered, and the encoder's tool vectors land in
// the shared vector cache beside the word vectors, so other workers do not
// encode the same tools again.
func TestUpWithSentenceEncoder(t *testing.T) {
	up, url := startUp(t, "", "--encoder", "use-lite")
	if !regexp.MustCompile(`encoder="?use-lite:`).MatchString(up.Output.String()) {
		t.Fatalf("up does not say it runs the encoder:\n%s", up.Output.String())
	}
	out, err := exec.Command(binary, "publish", "--nats", url, "--session", "enc", "--wait", "--timeout", "30s",
		"Checking. [TOOL: how long has this machine been running]").CombinedOutput()
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	// Executed when the confidence clears the activation threshold, offered
	// first among alternatives otherwise: either way, found first.
	var top string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes())
		if err != nil {
			t.Fatalf("publish printed a line that is not a result: %v\n%s", err, sc.Text())
		}
		switch {
		case r.Status == schemas.StatusExecuted:
			top = r.ToolID
		case len(r.Matches) > 0:
			top = r.Matches[0].ToolID
		}
	}
	if top != "system/uptime" {
		t.Fatalf("want system/uptime found first, got:\n%s", out)
	}

	js := connectJS(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, embed.VectorBucket)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	encoded := 0
	for k := range keys.Keys() {
		if strings.HasPrefix(k, "use-lite") {
			encoded++
		}
	}
	if encoded == 0 {
		t.Fatalf("no use-lite vectors in the %s bucket", embed.VectorBucket)
	}
}

// An encoder that does not exist stops the start with a message naming
// the ones that do.
func TestUpRefusesUnknownEncoder(t *testing.T) {
	cmd := exec.Command(binary, "up", "--data", useData(t, t.TempDir()), "--listen", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "--http", "", "--encoder", "minilm")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("up --encoder minilm started:\n%s", out)
	}
	if !strings.Contains(string(out), `unknown sentence encoder "minilm" (known: none, use-lite)`) {
		t.Fatalf("unclear error:\n%s", out)
	}
}
