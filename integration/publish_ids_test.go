package integration

import (
	"strings"
	"testing"
)

// What 'toolyard publish' does with message ids, against one 'up': a
// different output under an id used before is refused in so many words
// (it printed the earlier output's results as if they were its own); the
// same output again shows the earlier results; --message-id ID --wait
// without TEXT only attaches (it published an empty output, which took
// the id from the real one); a --wait that times out says how to attach;
// the receipt is the first line even when markers are broken.
func TestPublishMessageIDs(t *testing.T) {
	_, url := startUp(t, "")
	addSlowTool(t, url, 3)
	publish := func(args ...string) (int, string, string) {
		t.Helper()
		return runSplit(t, "", append([]string{"publish", "--nats", url, "--session", "ids"}, args...)...)
	}
	const kernel, uptime = "[TOOL: kernel version]", "[TOOL: how long has the system been up]"

	t.Run("another output under a used id", func(t *testing.T) {
		if code, out, errs := publish("--message-id", "r1", "--wait", "--timeout", "30s", kernel); code != 0 {
			t.Fatalf("first output: exit %d\n%s%s", code, out, errs)
		}
		const refused = "message id r1 was already used for a different output in session ids; this one was not published"
		for _, args := range [][]string{
			{"--message-id", "r1", "--wait", "--timeout", "30s", uptime},
			{"--message-id", "r1", "--timeout", "30s", uptime},
		} {
			code, out, errs := publish(args...)
			if code != 1 || !strings.Contains(errs, refused) || out != "" {
				t.Errorf("publish %v: exit %d, stdout %q, stderr %q; want exit 1, nothing printed and %q", args, code, out, errs, refused)
			}
		}
		code, out, errs := publish("--message-id", "r1", "--wait", "--timeout", "30s", kernel)
		if code != 0 || strings.Count(out, `"status":"executed"`) != 1 || !strings.Contains(out, "system/kernel_info") ||
			!strings.Contains(errs, "message id r1 was published before and runs once") {
			t.Errorf("the same output again: exit %d\n%s%s\nwant the earlier results", code, out, errs)
		}
	})

	t.Run("attach without text publishes nothing", func(t *testing.T) {
		code, out, errs := publish("--message-id", "r2", "--wait", "--timeout", "2s")
		if code != 2 || out != "" || !strings.Contains(errs, "no receipt for message id r2 of session ids within 2s") ||
			!strings.Contains(errs, "publishes nothing") {
			t.Errorf("attach before anything was published: exit %d, stdout %q, stderr %q", code, out, errs)
		}
		// The id is still free: the real output under it runs.
		code, out, errs = publish("--message-id", "r2", "--wait", "--timeout", "30s", kernel)
		if code != 0 || strings.Count(out, `"status":"executed"`) != 1 || strings.Contains(errs, "published before") {
			t.Errorf("the output published after attaching: exit %d\n%s%s\nwant it run", code, out, errs)
		}
	})

	t.Run("a timed-out wait names the command that attaches", func(t *testing.T) {
		code, out, errs := publish("--message-id", "t1", "--wait", "--timeout", "1s", `<tool_call name="test/slow">{}</tool_call>`)
		if code != 2 || !strings.Contains(errs, "timed out waiting for 1 result(s): t1.0") ||
			!strings.Contains(errs, "'toolyard publish --session ids --message-id t1 --wait' shows its results later") {
			t.Fatalf("publish timing out: exit %d\n%s%s", code, out, errs)
		}
		code, out, errs = publish("--message-id", "t1", "--wait", "--timeout", "30s")
		if code != 0 || strings.Count(out, `"status":"executed"`) != 1 {
			t.Errorf("the command it names: exit %d\n%s%s", code, out, errs)
		}
	})

	t.Run("the receipt comes first", func(t *testing.T) {
		code, out, errs := publish("--message-id", "p1", "--wait", "--timeout", "30s", kernel+" and [TOOL: ] and <tool_call>{}</tool_call>")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 4 || !strings.Contains(lines[0], `"status":"accepted"`) {
			t.Errorf("an output with broken markers: exit %d\n%s%s\nwant the receipt first, then three results", code, out, errs)
		}
	})
}
