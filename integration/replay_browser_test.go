package integration

import (
	"context"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromium is the headless browser of the screenshot tests: skipped where
// none is installed, except in CI (.ci/run installs it with make deps).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	evaltest.Unavailable(t, "chromium (apt-get install chromium, or make deps)", exec.ErrNotFound)
	return ""
}

func headless(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + t.TempDir()}
	out, err := exec.CommandContext(ctx, browser, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return out
}

// The report page as a browser draws it: the plots are in the rendered
// page, and the screenshot holds both sides' colours in quantity (lines,
// bars and points), not only axes and text.
func TestReplayReportRendersInBrowser(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	tools := replayTools(t, dir, filepath.Join(dir, "ran.txt"))
	audit, _ := replayAudit(t, dir)
	base := writeConfig(t, dir, "base.json", `{}`)
	cand := writeConfig(t, dir, "cand.json", `{"activate-threshold": 0.9, "discovery": "keyword"}`)
	report := filepath.Join(dir, "report")
	runReplay(t, "--audit", audit, "--tools", tools, "--baseline", base, "--candidate", cand, "--report", report)
	url := "file://" + filepath.Join(report, "index.html")

	dom := string(headless(t, browser, "--dump-dom", url))
	if n := strings.Count(dom, "<svg"); n != 6 {
		t.Fatalf("the rendered page has %d SVG plots, want 6", n)
	}
	shot := filepath.Join(dir, "report.png")
	headless(t, browser, "--window-size=1280,4000", "--screenshot="+shot, url)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	var ink, baseline, candidate int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl := rgb(img, x, y)
			if r < 240 || g < 240 || bl < 240 {
				ink++
			}
			// The sides' colours (plots.go): #d95f02 and #1b6ac9.
			if near(r, g, bl, 0xd9, 0x5f, 0x02) {
				baseline++
			}
			if near(r, g, bl, 0x1b, 0x6a, 0xc9) {
				candidate++
			}
		}
	}
	t.Logf("screenshot %dx%d: %d inked pixels, %d baseline-coloured, %d candidate-coloured", b.Dx(), b.Dy(), ink, baseline, candidate)
	if ink < b.Dx()*b.Dy()/50 {
		t.Errorf("the page is nearly blank: %d inked pixels", ink)
	}
	if baseline < 500 || candidate < 500 {
		t.Errorf("the plots are not drawn: %d baseline- and %d candidate-coloured pixels", baseline, candidate)
	}
}

func rgb(img image.Image, x, y int) (r, g, b int) {
	R, G, B, _ := img.At(x, y).RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

func near(r, g, b, R, G, B int) bool {
	d := func(a, c int) int {
		if a > c {
			return a - c
		}
		return c - a
	}
	return d(r, R) < 24 && d(g, G) < 24 && d(b, B) < 24
}
