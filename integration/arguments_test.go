package integration

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// sampleFormat is the sample current_time tool's default format.
const sampleFormat = "%Y-%m-%d %H:%M:%S %Z"

// Every result of an executed call names the arguments that ran; a city
// fills the time zone from the time zone database; a stated value a
// parameter would take but no rule placed stops the call with a
// missing_arguments answer; one the tool has no parameter for is named
// beside the output.
func TestResultsCarryArgumentsAndUnmappedValues(t *testing.T) {
	env := startEnv(t)
	runStagesInProcess(t, env, "../ops/sample/tools.jsonl")

	text := `Four things. <tool_call name="system/whoami">{}</tool_call>
[TOOL: system/current_time what time is it in Tokyo]
[TOOL: system/current_time what time is it in Atlantis]
[TOOL: system/uptime of the host Hermes]`
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "args", Text: text})
	rs := results(t, env.JS, "args", 30*time.Second, countAnswered(4))
	var receipt schemas.Result
	for _, r := range rs {
		if r.Status == schemas.StatusAccepted {
			receipt = r
		}
	}
	got := byIntent(rs)
	if len(receipt.IntentIDs) != 4 || len(got) != 4 {
		t.Fatalf("receipt %+v, results for %d intents: %+v", receipt, len(got), rs)
	}
	at := func(i int) schemas.Result { return got[receipt.IntentIDs[i]][0] }

	whoami := at(0)
	if whoami.Status != schemas.StatusExecuted || whoami.Arguments == nil || len(whoami.Arguments) != 0 || len(whoami.Unmapped) != 0 {
		t.Errorf("direct call without arguments: %+v, want executed with arguments {}", whoami)
	}
	tokyo := at(1)
	wantTokyo := map[string]any{"timezone": "Asia/Tokyo", "format": sampleFormat}
	if tokyo.Status != schemas.StatusExecuted || !reflect.DeepEqual(tokyo.Arguments, wantTokyo) {
		t.Errorf("Tokyo: %s %v (%s), want executed with %v", tokyo.Status, tokyo.Arguments, tokyo.Message, wantTokyo)
	} else if out, _ := tokyo.Output.Content.(string); !strings.Contains(out, "JST") {
		t.Errorf("Tokyo output %q is not in JST", out)
	}
	atlantis := at(2)
	if atlantis.Status != schemas.StatusMissingArguments || atlantis.Output != nil ||
		!reflect.DeepEqual(atlantis.Unmapped, []schemas.Unmapped{{Text: "Atlantis", Parameter: "timezone"}}) ||
		!strings.Contains(atlantis.Message, `"Atlantis" was not used: timezone`) || !strings.Contains(atlantis.Message, "[TOOL: system/current_time timezone=") {
		t.Errorf("Atlantis: %+v, want missing_arguments naming Atlantis and timezone", atlantis)
	}
	hermes := at(3)
	if hermes.Status != schemas.StatusExecuted || !reflect.DeepEqual(hermes.Unmapped, []schemas.Unmapped{{Text: "Hermes"}}) ||
		!strings.Contains(hermes.Message, `"Hermes"`) || hermes.Arguments == nil {
		t.Errorf("Hermes: %+v, want executed, Hermes unmapped without a parameter", hermes)
	}
}

// An output that names its person's time zone runs the tools in it: the
// clock tool answers in that zone when the request names none, and a zone
// that is none is refused with a result that says so.
func TestOutputTimeZone(t *testing.T) {
	env := startEnv(t)
	runStagesInProcess(t, env, "../ops/sample/tools.jsonl")
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "tz", Text: "[TOOL: system/current_time what time is it]", TimeZone: "Asia/Tokyo"})
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "tzbad", Text: "[TOOL: system/current_time what time is it]", TimeZone: "Mars/Base"})
	var clock schemas.Result
	for _, r := range results(t, env.JS, "tz", 30*time.Second, countAnswered(1)) {
		if r.Status != schemas.StatusAccepted {
			clock = r
		}
	}
	if want := map[string]any{"timezone": "Asia/Tokyo", "format": sampleFormat}; clock.Status != schemas.StatusExecuted || !reflect.DeepEqual(clock.Arguments, want) {
		t.Errorf("clock: %s %v (%s), want executed with %v", clock.Status, clock.Arguments, clock.Message, want)
	} else if out, _ := clock.Output.Content.(string); !strings.Contains(out, "JST") {
		t.Errorf("clock output %q is not in JST", out)
	}
	bad := results(t, env.JS, "tzbad", 30*time.Second, func(rs []schemas.Result) bool { return len(rs) > 0 })
	if len(bad) != 1 || bad[0].Status != schemas.StatusError || bad[0].Error == nil || bad[0].Error.Code != "invalid_timezone" ||
		!strings.Contains(bad[0].Message, "Mars/Base") {
		t.Errorf("an unknown zone: %+v, want one error result with code invalid_timezone", bad)
	}
}

// A secret argument is redacted from the arguments a result shows, and
// appears nowhere in the result.
func TestResultArgumentsRedactSecrets(t *testing.T) {
	env := startEnv(t)
	runStagesInProcess(t, env, secretRegistry(t))
	t.Setenv("TY_IT_SECRET", "env-secret-value-42")
	const token = "tok-args-9f8e7d6c5b"
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "argsec",
		Text: fmt.Sprintf(`<tool_call name="test/secret">{"mode": "ok", "token": %q}</tool_call>`, token)})
	rs := results(t, env.JS, "argsec", 30*time.Second, countAnswered(1))
	for _, r := range rs {
		if r.Status == schemas.StatusAccepted {
			continue
		}
		if r.Status != schemas.StatusExecuted || !reflect.DeepEqual(r.Arguments, map[string]any{"mode": "ok", "token": bind.Redacted}) {
			t.Errorf("result %s arguments %v, want mode ok and the token redacted", r.Status, r.Arguments)
		}
		raw, _ := json.Marshal(r)
		if strings.Contains(string(raw), token) {
			t.Errorf("the token is in the result: %s", raw)
		}
	}
}

// The service (resolve_intent, what the MCP gateway calls) answers as the
// pipeline does, and publish --wait prints the arguments.
func TestArgumentsThroughServiceAndPublish(t *testing.T) {
	_, url := startUp(t, "")
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	ask := func(text string) schemas.Result {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"text": text})
		m, err := nc.Request("toolyard.resolve_intent.svcargs", body, 30*time.Second)
		if err != nil || m.Header.Get(micro.ErrorCodeHeader) != "" {
			t.Fatalf("resolve_intent %q: %v %v", text, err, m.Header)
		}
		var r schemas.Result
		if err := json.Unmarshal(m.Data, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := ask("system/current_time what time is it in Tokyo"); r.Status != schemas.StatusExecuted ||
		r.Arguments["timezone"] != "Asia/Tokyo" {
		t.Errorf("service, Tokyo: %s %v %s", r.Status, r.Arguments, r.Message)
	}
	if r := ask("system/current_time what time is it in Atlantis"); r.Status != schemas.StatusMissingArguments ||
		len(r.Unmapped) != 1 || r.Unmapped[0].Parameter != "timezone" {
		t.Errorf("service, Atlantis: %+v", r)
	}

	out, err := exec.Command(binary, "publish", "--nats", url, "--session", "pubargs", "--wait",
		`<tool_call name="system/current_time">{"timezone": "Europe/Lisbon"}</tool_call>`).CombinedOutput()
	if err != nil {
		t.Fatalf("publish --wait: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"arguments":{"format":"`+strings.ReplaceAll(sampleFormat, " ", " ")+`","timezone":"Europe/Lisbon"}`) {
		t.Errorf("publish --wait output lacks the arguments that ran:\n%s", out)
	}
}
