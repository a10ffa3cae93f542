package transcript

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Codex CLI's screen, as people paste it into issues: commands with their output (shortened
// ones unknown), looks summed up under "Explored", patches, MCP calls, the user's lines and the
// model's words (validation rounds r89a U1, r104a U6).
func TestCodexTextPaste(t *testing.T) {
	const paste = `╭──────────────────────────────────────╮
│ >_ OpenAI Codex (v0.106.0)           │
╰──────────────────────────────────────╯

› push the branch and check
  that it is clean

• I'll push first.

• Ran git push origin feat/x
  └ Everything up-to-date

• Ran git status -sb
  └ ## feat/x...origin/feat/x

• Explored
  └ Read package.json
    Search useState in src

• Ran cat > a.sh <<'EOF'
  │ echo hi
  │ … +3 lines
  └ (no output)

• Ran npm test
  └ > app@1.0.0 test
    FAIL src/a.test.ts
    … +12 lines

• Edited src/a.ts (+1 -1)
    10 -  return x
    10 +  return y

• Called github.get_pr({"number": 7})
  └ {"state": "open"}

──────────────────────────────────────

• Ran npm run dev
`
	tr, err := ReadFrom("codex.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCodexText || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want codex-text with one", tr.Format, len(tr.Agents))
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		r := "?"
		if c.HasResult {
			r = c.Result
		}
		got = append(got, c.Tool+" "+string(c.Args)+" => "+r)
	}
	want := []string{
		`exec_command {"cmd":"git push origin feat/x"} => Everything up-to-date`,
		`exec_command {"cmd":"git status -sb"} => ## feat/x...origin/feat/x`,
		`Read package.json => ?`,
		`Search useState in src => ?`,
		`exec_command {"cmd":"cat > a.sh <<'EOF'\necho hi\n… +3 lines"} => `,
		`exec_command {"cmd":"npm test"} => ?`, // shortened on screen
		"apply_patch Edited src/a.ts (+1 -1)\n10 -  return x\n10 +  return y => ?",
		`github.get_pr {"number": 7} => {"state": "open"}`,
		`exec_command {"cmd":"npm run dev"} => ?`, // still running
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var users, texts []string
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventUser:
			users = append(users, e.Text)
		case e.Type == loopguard.EventText:
			texts = append(texts, e.Text)
		}
	}
	if !slices.Equal(users, []string{"push the branch and check\nthat it is clean"}) || !slices.Equal(texts, []string{"I'll push first."}) {
		t.Errorf("user %q, model %q", users, texts)
	}
}

// The same git status, asked again and again with nothing between, is told (openai/codex#7049).
func TestCodexTextPasteOfALoopIsTold(t *testing.T) {
	var b strings.Builder
	for range 6 {
		b.WriteString("• Ran git status -sb\n  └ ## feat/x...origin/feat/x\n\n")
	}
	tr, err := ReadFrom("codex.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	calls, notices := defaultNotices(t, tr.Agents[0])
	if calls != 6 || len(notices) == 0 || notices[0] != "call 3: stuck exec_command × 3" {
		t.Errorf("%d calls, notices %q; want 6 calls and the first notice at the third status", calls, notices)
	}
}

// Codex wraps long looks at the screen's width, draws a block while it runs and again once done,
// and draws its composer with a placeholder and a status line under it: the looks are read
// whole, a Read of several files is a call a file, the block once, and the composer is no user
// turn (validation round r105a U2, U3).
func TestCodexTextWrapsRedrawsAndComposer(t *testing.T) {
	const paste = `› read the channels

• Explored
  └ Read loop_mod.rs, telegram.rs,
registry.rs
    Search impl BaseChannel|send_message|
           send_typing in telegram.rs

• Working (1m 58s • esc to interrupt)


› Improve documentation in @filename

  gpt-5.4 default · /opt/nanobot-rust


• Explored
  └ Read loop_mod.rs, telegram.rs, registry.rs
    Search impl BaseChannel|
send_message|send_typing in telegram.rs
    List crates

─ Worked for 1m 36s ──────────

• Ran git status
  └ clean
`
	tr, err := ReadFrom("codex.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	got := screenEvents(tr.Agents[0].Events, false)
	want := []string{"user: read the channels", "Read loop_mod.rs", "Read telegram.rs", "Read registry.rs",
		"Search impl BaseChannel|send_message|send_typing in telegram.rs", "List crates", `exec_command {"cmd":"git status"}`}
	if !slices.Equal(got, want) {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A paste that holds the conversation three times, each after Codex's banner, and the start of
// a fourth, is read once; "❯ " opens the user's lines in builds of 2026; a wait on a background
// command is a call, not the model's words said again; the model's words that open with
// "Added" are no patch (validation round r105b U1, U2, U3, U8).
func TestCodexTextCopiesPromptsWaitsAndWords(t *testing.T) {
	const banner = "╭──────────────────────────────╮\n│ >_ OpenAI Codex (v0.111.0)   │\n╰──────────────────────────────╯\n\n"
	const session = "❯ what is this project?\n\n• Ran rg --files\n  └ main.py\n\n• Waited for background terminal\n\n• Waited for background terminal\n\n" +
		"• Added duplicate-ID detection to the validator:\n  it now fails on a repeated id.\n\n• Edited main.py (+2 -1)\n    1 +import sys\n\n"
	paste := "  └ main.py\n\n" + session[strings.Index(session, "• Waited"):] + // the end of a copy the paste began in
		banner + session + banner + session + banner + "❯ what is this project?\n\n• Ran rg --files\n  └ main.py\n"
	tr, err := ReadFrom("codex.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	got := screenEvents(tr.Agents[0].Events, true)
	want := []string{"user: what is this project?", `exec_command {"cmd":"rg --files"}`, `write_stdin {"chars":""}`, `write_stdin {"chars":""}`,
		"model: Added duplicate-ID detection to the validator:\nit now fails on a repeated id.", "apply_patch Edited main.py (+2 -1)\n1 +import sys"}
	if !slices.Equal(got, want) {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// screenEvents renders a screen reader's calls (tool and arguments), the user's lines and, with
// words, the model's, one a line.
func screenEvents(events []loopguard.Event, words bool) []string {
	var out []string
	for _, e := range events {
		switch {
		case e.Type == loopguard.EventCall:
			out = append(out, e.Tool+" "+string(e.Args))
		case e.Type == loopguard.EventUser:
			out = append(out, "user: "+e.Text)
		case e.Type == loopguard.EventText && words:
			out = append(out, "model: "+e.Text)
		}
	}
	return out
}

// Codex draws a command of several lines under a bare "• Ran", where a command's output goes:
// the command is those lines, a heredoc's ending at its tag, and what follows the tag is its
// output (validation round r255f).
func TestCodexTextCommandDrawnUnderABareRan(t *testing.T) {
	const paste = `› fix the quotes

• Ran
  └ python3 - <<'PY'
    from pathlib import Path

    Path('a.rs').write_text('x')
    PY



• Ran
  └ python3 - <<'PY'
    new = "
    PY

      File "<stdin>", line 1
        new = "
              ^
    SyntaxError: unterminated string literal (detected at line 1)


• Ran
  └ cat <<-"EOF" > notes.md
    # Notes
    EOF

    … +9 lines

• Ran
  └ make a
    b

• Ran git status
  └ clean
`
	tr, err := ReadFrom("codex.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	type call struct{ cmd, result string }
	var got []call
	for _, e := range tr.Agents[0].Calls() {
		var args struct{ Cmd string }
		if err := json.Unmarshal(e.Args, &args); err != nil {
			t.Fatal(err)
		}
		r := "unknown"
		if e.HasResult {
			r = e.Result
		}
		got = append(got, call{args.Cmd, r})
	}
	want := []call{
		{"python3 - <<'PY'\nfrom pathlib import Path\n\nPath('a.rs').write_text('x')\nPY", "unknown"},
		{"python3 - <<'PY'\nnew = \"\nPY", "  File \"<stdin>\", line 1\n    new = \"\n          ^\nSyntaxError: unterminated string literal (detected at line 1)"},
		{"cat <<-\"EOF\" > notes.md\n# Notes\nEOF", "unknown"}, // its output cut short
		{"make a\nb", "unknown"},
		{"git status", "clean"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%q\nwant:\n%q", got, want)
	}
}

func TestHeredocTag(t *testing.T) {
	for line, want := range map[string]string{
		"python3 - <<'PY'":     "PY",
		`cat <<-"EOF" > a.md`:  "EOF",
		"cat << EOF > a.md":    "EOF",
		`bash <<\END`:          "END",
		"grep x <<< \"$text\"": "",
		"ls -la":               "",
	} {
		if got := heredocTag(line); got != want {
			t.Errorf("heredocTag(%q) = %q, want %q", line, got, want)
		}
	}
}
