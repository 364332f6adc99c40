package integration

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// An operator's change to a stream survives a restart of up, which warns
// about the difference; `streams apply` is the explicit way back.
func TestStreamSettingsSurviveRestart(t *testing.T) {
	data := useData(t, t.TempDir())
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	// A store the built-in sizes fit whatever the free disk: streams apply
	// puts them back.
	args := []string{"up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "", "--max-store", "64GiB"}
	up := startProcess(t, args...)
	up.WaitOutput(t, "Stop with Ctrl-C", 30*time.Second)

	ctx := context.Background()
	// withJS runs f on a connection of its own, closed after it: the server
	// restarts in between.
	withJS := func(f func(js jetstream.JetStream)) {
		t.Helper()
		nc, err := natsConnect(url)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := jetstream.New(nc)
		f(js)
	}
	auditAge := func() (age time.Duration) {
		t.Helper()
		withJS(func(js jetstream.JetStream) {
			s, err := js.Stream(ctx, pipeline.StreamAudit)
			if err != nil {
				t.Fatal(err)
			}
			age = s.CachedInfo().Config.MaxAge
		})
		return age
	}
	// An earlier version's join stage read every result with this consumer.
	oldJoin := func() {
		t.Helper()
		withJS(func(js jetstream.JetStream) {
			if _, err := js.CreateConsumer(ctx, pipeline.StreamResult, jetstream.ConsumerConfig{Durable: "join", FilterSubject: "result.>", AckPolicy: jetstream.AckExplicitPolicy}); err != nil {
				t.Fatal(err)
			}
		})
	}
	oldJoinGone := func() (gone bool) {
		t.Helper()
		withJS(func(js jetstream.JetStream) {
			_, err := js.Consumer(ctx, pipeline.StreamResult, "join")
			gone = errors.Is(err, jetstream.ErrConsumerNotFound)
		})
		return gone
	}
	withJS(func(js jetstream.JetStream) {
		s, err := js.Stream(ctx, pipeline.StreamAudit)
		if err != nil {
			t.Fatal(err)
		}
		cfg := s.CachedInfo().Config
		cfg.MaxAge = 90 * 24 * time.Hour // the operator keeps audit for a quarter
		if _, err := js.UpdateStream(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	})
	oldJoin()

	up.Kill(syscall.SIGTERM)
	again := startProcess(t, args...)
	again.WaitOutput(t, "Stop with Ctrl-C", 30*time.Second)
	if got := auditAge(); got != 90*24*time.Hour {
		t.Fatalf("the restart reset AUDIT max_age to %s", got)
	}
	if !strings.Contains(again.Output.String(), "toolyard streams apply") || !strings.Contains(again.Output.String(), "AUDIT max_age") {
		t.Errorf("up should warn about the difference and say how to apply:\n%s", again.Output.String())
	}
	if !oldJoinGone() || !strings.Contains(again.Output.String(), "deleted a consumer this version no longer reads") {
		t.Errorf("up should delete the retired RESULT join consumer and say so:\n%s", again.Output.String())
	}
	oldJoin() // as a cluster run by workers alone would still have it
	out, err := exec.Command(binary, "streams", "diff", "--nats", url).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "AUDIT max_age: 2160h0m0s on the server, 720h0m0s here") {
		t.Errorf("streams diff: %v\n%s", err, out)
	}
	// --exit-code makes the difference a status a deploy check acts on.
	if err := exec.Command(binary, "streams", "diff", "--exit-code", "--nats", url).Run(); exitStatus(err) != 1 {
		t.Errorf("streams diff --exit-code with a difference: %v, want exit status 1", err)
	}
	out, err = exec.Command(binary, "streams", "apply", "--yes", "--nats", url).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "1 settings applied") || !strings.Contains(string(out), "deleted the consumer join on RESULT") {
		t.Fatalf("streams apply: %v\n%s", err, out)
	}
	if out, err := exec.Command(binary, "streams", "diff", "--exit-code", "--nats", url).CombinedOutput(); err != nil || !strings.Contains(string(out), "match") {
		t.Errorf("streams diff --exit-code once they match: %v\n%s", err, out)
	}
	if !oldJoinGone() {
		t.Error("streams apply left the retired RESULT join consumer")
	}
	if got := auditAge(); got != 30*24*time.Hour {
		t.Errorf("after streams apply AUDIT max_age is %s", got)
	}
}
