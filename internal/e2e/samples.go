package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// UpdateSamplesEnv, when set to 1, makes CheckHookSample rewrite the saved
// hook stdin samples.
const UpdateSamplesEnv = "E2E_UPDATE_HOOK_SAMPLES"

// Scrubber replaces absolute temp paths in hook stdin with placeholders.
type Scrubber struct {
	pairs [][2]string // (from, to), longest from first
}

// NewScrubber returns a Scrubber for the agent's directories: Work becomes
// <CWD>, Home <HOME>, and their common temp root <TMP>. Claude Code's
// project directory names (the path with '/' and '.' turned into '-') are
// scrubbed too.
func (a *Agent) NewScrubber(extra map[string]string) *Scrubber {
	m := map[string]string{
		a.Work:                    "<CWD>",
		a.Home:                    "<HOME>",
		filepath.Dir(a.Work):      "<TMP>",
		claudeProjectName(a.Work): "-<CWD>",
	}
	for k, v := range extra {
		m[k] = v
	}
	s := &Scrubber{}
	for k, v := range m {
		if k != "" && k != "/" {
			s.pairs = append(s.pairs, [2]string{k, v})
		}
	}
	sort.Slice(s.pairs, func(i, j int) bool {
		if len(s.pairs[i][0]) != len(s.pairs[j][0]) {
			return len(s.pairs[i][0]) > len(s.pairs[j][0])
		}
		return s.pairs[i][0] < s.pairs[j][0]
	})
	return s
}

func claudeProjectName(dir string) string {
	return strings.NewReplacer("/", "-", ".", "-").Replace(dir)
}

// Scrub applies the replacements.
func (s *Scrubber) Scrub(b []byte) []byte {
	for _, p := range s.pairs {
		b = bytes.ReplaceAll(b, []byte(p[0]), []byte(p[1]))
	}
	return b
}

// CheckHookSample keeps testdata/hook-stdin/<cli>/<event>.json: a real stdin
// document the CLI gave a hook, scrubbed. When the file is missing, or
// E2E_UPDATE_HOOK_SAMPLES=1, it is (re)written; otherwise the test fails if
// the live document's key structure (keys of every object, recursively)
// differs from the saved one, which flags a CLI upgrade that changed the
// hook input.
func CheckHookSample(t testing.TB, cli, event string, raw []byte, s *Scrubber) {
	t.Helper()
	scrubbed := s.Scrub(raw)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, bytes.TrimSpace(scrubbed), "", "  "); err != nil {
		t.Errorf("hook stdin for %s/%s is not JSON: %v\n%s", cli, event, err, raw)
		return
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", "hook-stdin", cli, event+".json")
	old, err := os.ReadFile(path)
	if err != nil || os.Getenv(UpdateSamplesEnv) == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var oldV, newV any
	if err := json.Unmarshal(old, &oldV); err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	json.Unmarshal(pretty.Bytes(), &newV)
	if o, n := keyShape(oldV), keyShape(newV); !reflect.DeepEqual(o, n) {
		t.Errorf("%s: the CLI's hook stdin changed shape\nsaved: %v\nlive:  %v\nlive document:\n%s\n(re-run with %s=1 to update the sample)",
			path, o, n, pretty.String(), UpdateSamplesEnv)
	}
}

// keyShape lists "path.key" for every object key in v (arrays collapse to
// their elements), sorted.
func keyShape(v any) []string {
	set := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				p := prefix + "." + k
				set[p] = true
				walk(p, x)
			}
		case []any:
			for _, x := range v {
				walk(prefix+"[]", x)
			}
		}
	}
	walk("", v)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
