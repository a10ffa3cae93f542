package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestHTMLIsSelfContained(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.jsonl", events("a probe probe probe probe b"))
	// Text that must be escaped wherever it lands: a tool name and a path with markup.
	writeFile(t, dir, "<b>.jsonl", events("x </script><img> </script><img> </script><img> y"))
	writeFile(t, dir, "broken.jsonl", "{\"type\":\"call\"}\n")
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, r, Meta{Version: "v", Config: "--preset default"}, nil); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<link", "src=", "@import", "url(", "<script src", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page refers to something outside itself: %q", bad)
		}
	}
	if strings.Contains(page, "<img>") || strings.Contains(page, "<b>.jsonl") || strings.Count(page, "</script>") != 2 {
		t.Errorf("markup from the data reached the page unescaped")
	}
	for _, want := range []string{`<article class="session" id="s0"`, `<article class="session" id="s1"`, "broken.jsonl:1:", `id="data"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// chromium returns the path of Debian's Chromium, or skips the test (fails it under CI=true).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (required when CI=true): apt-get install chromium")
	}
	t.Skip("chromium not found: skipping the rendering test (apt-get install chromium to run it)")
	return ""
}

// headless runs Chromium on a page with one extra flag and returns its standard output.
func headless(ctx context.Context, bin, page, flag string) ([]byte, error) {
	profile, err := os.MkdirTemp("", "loopguard-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--window-size=1400,2000", flag, "file://"+page)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %v\n%s", cmd.Args, err, lastLines(stderr.String(), 10))
	}
	return stdout.Bytes(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// The HTML report of the whole shared set, rendered by headless Chromium: the DOM after the
// page's script ran holds one timeline per session with loops, with a mark per call, a band
// per loop and a triangle per notice, and the screenshot shows the charts.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := chromium(t)
	r, dir := sharedReport(t)
	labels, err := ReadLabels(filepath.Join(dir, "labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	res, score := ScoreLabels(r, labels)
	page := filepath.Join(t.TempDir(), "report.html")
	var b bytes.Buffer
	if err := WriteHTML(&b, r, Meta{Version: "test", Config: "--preset default", Labels: "labels.jsonl"}, &Scored{res, score}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 1<<20 {
		t.Errorf("the report of %d files is %d bytes; keep it under 1 MiB", len(r.Files), b.Len())
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	shot := filepath.Join(filepath.Dir(page), "report.png")
	var dom []byte
	var domErr, shotErr error
	var wg sync.WaitGroup
	wg.Go(func() { dom, domErr = headless(ctx, bin, page, "--dump-dom") })
	wg.Go(func() { _, shotErr = headless(ctx, bin, page, "--screenshot="+shot) })
	wg.Wait()
	if err := errors.Join(domErr, shotErr); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("LOOPGUARD_KEEP_REPORT") != "" {
		os.WriteFile(os.Getenv("LOOPGUARD_KEEP_REPORT")+".html", b.Bytes(), 0o644)
		if png, err := os.ReadFile(shot); err == nil {
			os.WriteFile(os.Getenv("LOOPGUARD_KEEP_REPORT")+".png", png, 0o644)
		}
	}

	checkDOM(t, r, string(dom))
	checkScreenshot(t, shot)
}

var articleID = regexp.MustCompile(`^<article class="session" id="s(\d+)"`)

func checkDOM(t *testing.T, r *Report, dom string) {
	t.Helper()
	var withLoops []int
	for i, f := range r.Files {
		if f.Scanned() && len(f.Loops) > 0 {
			withLoops = append(withLoops, i)
		}
	}
	if len(withLoops) == 0 {
		t.Fatal("no session with loops in the shared set")
	}
	if !strings.Contains(dom, fmt.Sprintf(`data-drawn="%d"`, len(withLoops))) {
		t.Errorf("the page's script did not finish drawing %d timelines", len(withLoops))
	}
	if n := strings.Count(dom, `<svg class="timeline"`); n != len(withLoops) {
		t.Errorf("%d timelines drawn, want one per session with loops: %d", n, len(withLoops))
	}
	parts := strings.Split(dom, "<article ")
	seen := 0
	for _, part := range parts[1:] {
		m := articleID.FindStringSubmatch("<article " + part)
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		f := r.Files[i]
		seen++
		calls, wasteful := 0, 0
		for _, a := range f.Agents {
			calls += a.Calls()
		}
		for _, l := range f.Loops {
			if l.Wasted > 0 {
				wasteful++
			}
		}
		counts := []struct {
			what      string
			got, want int
		}{
			{"timelines", strings.Count(part, `<svg class="timeline"`), 1},
			{"call marks", strings.Count(part, `<rect class="mark s`), calls},
			{"loop bands", strings.Count(part, `<rect class="band"`), len(f.Loops)},
			{"wasted parts", strings.Count(part, `<rect class="waste"`), wasteful},
			{"notices", strings.Count(part, `<path class="notice`), len(f.Notices)},
			{"rows of the loop table", strings.Count(part, `<span class="dot"`), len(f.Loops)},
		}
		for _, c := range counts {
			if c.got != c.want {
				t.Errorf("%s: %d %s drawn, want %d", f.Path, c.got, c.what, c.want)
			}
		}
	}
	if seen != len(withLoops) {
		t.Errorf("%d session articles, want %d", seen, len(withLoops))
	}
	if n := strings.Count(dom, `<g class="bar">`); n < 5 {
		t.Errorf("only %d chart bars", n)
	}
}

// checkScreenshot decodes the PNG and looks for what the top of the page draws: enough
// pixels off the background, and the orange of the wasted-calls chart.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	bounds := img.Bounds()
	if bounds.Dx() < 1000 || bounds.Dy() < 1000 {
		t.Fatalf("screenshot is %v", bounds)
	}
	bg := img.At(bounds.Min.X+2, bounds.Min.Y+2)
	br, bgG, bb, _ := bg.RGBA()
	off, orange, total := 0, 0, 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			total++
			r, g, b, _ := img.At(x, y).RGBA()
			if diff(r, br)+diff(g, bgG)+diff(b, bb) > 3*0x1000 {
				off++
			}
			if near(r>>8, 0xd5) && near(g>>8, 0x5e) && near(b>>8, 0x00) {
				orange++
			}
		}
	}
	t.Logf("screenshot %v: %.1f%% of pixels off the background, %d orange", bounds.Size(), 100*float64(off)/float64(total), orange)
	if float64(off) < 0.03*float64(total) { // text, bars and pills: about 9% of the top of the page
		t.Errorf("the screenshot is nearly blank: %d of %d sampled pixels differ from the background", off, total)
	}
	if orange < 500 {
		t.Errorf("the wasted-calls chart is not visible: %d orange pixels sampled", orange)
	}
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func near(a, b uint32) bool { return diff(a, b) <= 12 }
