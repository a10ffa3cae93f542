package peers

import (
	"bytes"
	"fmt"
	"github.com/loopguard/loopguard/internal/testenv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

func TestAllHasEachPeerOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if r.Name == "" || r.Fire == nil {
			t.Errorf("incomplete rule %+v", r)
		}
		if seen[r.Name] {
			t.Errorf("rule %s listed twice", r.Name)
		}
		seen[r.Name] = true
	}
	for _, want := range []string{"gemini-cli", "openhands-v0", "openhands-sdk", "roo-code", "cline", "goose", "opencode", "openclaw", "crewai"} {
		if !seen[want] {
			t.Errorf("rule %s missing", want)
		}
	}
}

func TestNoRuleFiresOnAnEmptyAgent(t *testing.T) {
	for _, r := range All() {
		if got := r.Fire(nil); len(got) != 0 {
			t.Errorf("%s fires on no events: %v", r.Name, got)
		}
	}
}

// TestRulesOnRealTranscripts runs every rule over the shared development set (read in place
// from ../shared, never copied) and checks what every rule promises on real data: indices in
// order and in range, and no panic.
func TestRulesOnRealTranscripts(t *testing.T) {
	dir := testenv.SharedTrajectories(t, "manifest.jsonl")
	// The labelled transcripts (they hold the loops) and every 8th of the others (every format
	// is among them): all 166 take minutes under the race detector, for no more coverage.
	labels, err := os.ReadFile(filepath.Join(dir, "labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	n := 0
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gz") {
			return err
		}
		n++
		if n%8 == 0 || bytes.Contains(labels, []byte(`"`+filepath.Base(strings.TrimSuffix(p, ".gz"))+`"`)) ||
			bytes.Contains(labels, []byte("/"+filepath.Base(strings.TrimSuffix(p, ".gz"))+`"`)) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fired := map[string]int{}
	for _, p := range paths {
		tr, err := transcript.Read(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, a := range tr.Agents {
			for _, r := range All() {
				got := r.Fire(a.Events)
				checkIndices(t, a.Events, got)
				fired[r.Name] += len(got)
			}
		}
	}
	// Every rule that keys on what these formats carry speaks somewhere in these real runs,
	// labelled loops among them; a rule silent on all of them would be broken.
	for _, name := range []string{"gemini-cli", "openhands-v0", "openhands-sdk", "roo-code", "cline", "goose", "openclaw", "crewai"} {
		if fired[name] == 0 {
			t.Errorf("%s never fires on %d real transcripts", name, len(paths))
		}
	}
	t.Logf("firings on %d transcripts: %v", len(paths), fired)
}

// FuzzRules feeds every rule arbitrary event lists: no rule may panic, and the indices must
// be in order and in range. Each line of the input is one event: its first byte chooses the
// type, the rest is tool, arguments and result (or text) separated by tabs.
func FuzzRules(f *testing.F) {
	f.Add([]byte("cread\t{\"p\":1}\tok\ncread\t{\"p\":1}\tok\ncread\t{\"p\":1}\tok\ncread\t{\"p\":1}\tok\ncread\t{\"p\":1}\tok"))
	f.Add([]byte("tsame text again and again and again and again and again and again\nfx\t\tunknown tool: x\nu\nfx\t\tunknown tool: x"))
	f.Add([]byte("cbrowser_action\t{\"action\":\"scroll_down\"}\t\ncexecute_command\t{\"task_progress\":\"1\",\"command\":\"ls\"}\t\ncprocess\t{\"action\":\"poll\"}\trunning"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var events []loopguard.Event
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			parts := strings.SplitN(string(line[1:]), "\t", 3)
			for len(parts) < 3 {
				parts = append(parts, "")
			}
			switch line[0] % 4 {
			case 0:
				events = append(events, loopguard.Event{Type: loopguard.EventText, Source: "model", Text: string(line[1:])})
			case 1:
				events = append(events, loopguard.Event{Type: loopguard.EventUser})
			default:
				events = append(events, loopguard.Event{Type: loopguard.EventCall, Tool: parts[0], Args: []byte(parts[1]),
					Result: parts[2], HasResult: true, Failed: line[0]%4 == 3})
			}
		}
		for _, r := range All() {
			checkIndices(t, events, r.Fire(events))
		}
	})
}

func ExampleRooCode() {
	read := loopguard.Call("main", "read_file", []byte(`{"path":"main.go"}`)).WithResult("package main", false)
	events := []loopguard.Event{read, read, read, read, read}
	// Roo Code allows three identical calls in a row and blocks the fourth.
	fmt.Println(RooCode(events))
	// CrewAI refuses the second and every later one.
	fmt.Println(CrewAI(events))
	// Output:
	// [3]
	// [1 2 3 4]
}
