package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// A command failing alike four times with nothing changed since its first run is told at the
// fourth, whatever calls come between, unless they waited (a poll) or the loop was already
// told; with changes between it is the across-edits rule's, told in its own words.
func TestFailingAgainWithNothingChangedIsToldAtTheFourth(t *testing.T) {
	// Alike, not the same: the runner shuffles the order it loads the test modules in.
	orders := []string{"", "test_db test_api test_cli", "test_api test_cli test_db", "test_cli test_db test_api", "test_db test_cli test_api"}
	failure := func(i int) string {
		return fmt.Sprintf("loading modules: %s\nTraceback (most recent call last):\n  File \"/w/run_tests.py\", line 12, in <module>\n    check(parse(\"cfg.yaml\"))\n"+
			"  File \"/w/app/config.py\", line 48, in parse\n    raise ConfigError(\"missing key: database.url\")\n"+
			"app.config.ConfigError: missing key: database.url\nran for %d.%02ds, pid %d", orders[i], i, 17*i%100, 4000+i)
	}
	between := map[string]func(i int) Event{
		"a read": func(i int) Event {
			return Call("a", "Bash", []byte(fmt.Sprintf(`{"command":"sed -n '%d,%dp' app/config.py"}`, 10*i, 10*i+9))).
				WithResult(fmt.Sprintf("def parse(path):\n    data = load(path)  # part %d\n    return data", i), false)
		},
		"a wait": func(i int) Event {
			return Call("a", "Bash", []byte(`{"command":"sleep 20"}`)).WithResult("", false)
		},
		"an edit": func(i int) Event {
			return Call("a", "Edit", []byte(fmt.Sprintf(`{"file_path":"/w/app/config.py","old_string":"v%d","new_string":"v%d"}`, i, i+1))).
				WithResult("The file /w/app/config.py has been updated.", false)
		},
	}
	tests := []struct {
		name     string
		between  string
		toldAt   int    // the run told, 0 for none by the fourth
		wantText string // what the notice says
	}{
		{"reads between the runs", "a read", 4, "nothing was changed between the runs"},
		{"waits between the runs: a poll", "a wait", 0, ""},
		{"edits between the runs: the changes are not reaching the cause", "an edit", 4, "none of the changes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			told, text := 0, ""
			for i := 1; i <= 4 && told == 0; i++ {
				for _, n := range e.Observe(Call("a", "Bash", []byte(`{"command":"python run_tests.py"}`)).WithResult(failure(i), true)) {
					if n.Kind == KindErrors {
						told, text = i, n.Text
					}
				}
				if i < 4 {
					e.Observe(between[tt.between](i))
				}
			}
			if told != tt.toldAt || !strings.Contains(text, tt.wantText) {
				t.Errorf("told at run %d (%q), want %d saying %q", told, text, tt.toldAt, tt.wantText)
			}
		})
	}
}

// A loop told once is not told again by this rule: a command run three times in a row, failing
// the same way, is stuck and told so; its fourth run after a look elsewhere is the same loop.
func TestFailingAgainWithNothingChangedIsNotToldTwice(t *testing.T) {
	e, _ := New(defaultProgress(nil))
	var notices []string
	observe := func(ev Event) {
		for _, n := range e.Observe(ev) {
			notices = append(notices, string(n.Kind))
		}
	}
	failure := func(order string) string {
		return "loading modules: " + order + "\nTraceback (most recent call last):\n  File \"/w/run_tests.py\", line 12, in <module>\n" +
			"    check(parse(\"cfg.yaml\"))\n  File \"/w/app/config.py\", line 48, in parse\n" +
			"    raise ConfigError(\"missing key: database.url\")\napp.config.ConfigError: missing key: database.url"
	}
	run := Call("a", "Bash", []byte(`{"command":"python run_tests.py"}`))
	for i := 0; i < 3; i++ {
		observe(run.WithResult(failure("test_db test_api test_cli"), true))
	}
	for i := 0; i < 4; i++ { // looks elsewhere, past the quiet calls after a notice
		observe(Call("a", "Bash", []byte(fmt.Sprintf(`{"command":"sed -n '%d,%dp' cfg.yaml"}`, 5*i+1, 5*i+5))).WithResult(fmt.Sprintf("name: app%d\nheader: x", i), false))
	}
	observe(run.WithResult(failure("test_cli test_db test_api"), true))
	if len(notices) != 1 || notices[0] != string(KindStuck) {
		t.Errorf("notices %q, want the one stuck notice at the third run", notices)
	}
}

// The across-edits notice says how many changes were made between the runs, every one of them,
// not how many gaps between runs held one (validation round r193b: four edits told as three).
func TestFailingAcrossEditsCountsEveryChange(t *testing.T) {
	for _, tt := range []struct {
		name        string
		editsPerGap int
		want        string
	}{
		{"one edit between the runs", 1, "(3 of them)"},
		{"two edits between the runs", 2, "(6 of them)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			var text string
			edit := 0
			for run := range 4 {
				if run > 0 {
					for range tt.editsPerGap {
						edit++
						e.Observe(Call("a", "Edit", []byte(fmt.Sprintf(`{"file_path":"/w/app.py","old_string":"v%d","new_string":"v%d"}`, edit, edit+1))).
							WithResult("The file /w/app.py has been updated.", false))
					}
				}
				for _, n := range e.Observe(Call("a", "Bash", []byte(`{"command":"python app.py"}`)).
					WithResult("Traceback (most recent call last):\n  File \"/w/app.py\", line 3, in <module>\nKeyError: 'database'", true)) {
					text = n.Text
				}
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("told %q, want it to say %s", text, tt.want)
			}
		})
	}
}

// An editor's change whose answer shows the file exactly as the latest change's answer did
// left the file as it was: the runs around it are the same run in the same workspace.
func TestAnEditShowingTheFileAsBeforeChangedNothing(t *testing.T) {
	// view is SWE-agent's answer to an edit of reproduce.py: the file's first lines, and
	// line 10 as given.
	view := func(line10 string) string {
		return "[File: /w/reproduce.py (15 lines total)]\n1:import responses\n2:import requests\n3:\n" +
			"9:        responses.GET,\n10:        " + line10 + ",\n11:        json={}\n(Open file: /w/reproduce.py)"
	}
	run := fail("bash", "python reproduce.py", "Traceback (most recent call last):\n  File \"/w/reproduce.py\", line 13, in test\n    requests.get(\"/fake\")\nrequests.exceptions.MissingSchema: Invalid URL '/fake': No scheme supplied.")
	// Three edits rewriting lines with the text already there, each over other lines.
	rewrites := []string{"edit 10:10\n        \"/fake\",\nend_of_edit", "edit 9:10\n        responses.GET,\n        \"/fake\",\nend_of_edit",
		"edit 10:11\n        \"/fake\",\n        json={}\nend_of_edit"}
	edit := func(n int, line10 string) step {
		if line10 != `"/fake"` {
			return ok("bash", fmt.Sprintf("edit 10:10\n        %s,\nend_of_edit", line10), view(line10))
		}
		return ok("bash", rewrites[n], view(line10))
	}
	claudeEdit := func(n int, text string) step {
		return ok("Edit", fmt.Sprintf(`{"file_path":"/w/app.py","old_string":"x = %d","new_string":"x = %d"}`, n, n),
			"The file /w/app.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    40\tdef f():\n    41\t    "+text+"\n    42\t    return x")
	}
	runApp := fail("Bash", `{"command":"python app.py"}`, "Traceback (most recent call last):\n  File \"/w/app.py\", line 41, in f\nNameError: name 'y' is not defined")
	runProgressCases(t, []progressCase{
		{"edits that wrote back the text already there: the runs around them are one run repeated",
			[]step{edit(0, `"/fake"`), run, edit(1, `"/fake"`), run, edit(2, `"/fake"`), run}, []string{"5:stuck:bash × 3"}},
		{"edits that changed the line shown: runs after changes, told at the fourth alike",
			[]step{edit(0, `"/fake"`), run, edit(1, `"http://fake"`), run, edit(2, `"http://x/fake"`), run}, nil},
		{"an editor's snippet shown as before, the same code each time (Claude Code)",
			[]step{claudeEdit(0, "x = y + 1"), runApp, claudeEdit(1, "x = y + 1"), runApp, claudeEdit(2, "x = y + 1"), runApp}, []string{"5:stuck:Bash × 3"}},
		{"terse answers show nothing of the file: each edit is a change",
			times(6, func(i int) step {
				if i%2 == 0 {
					return ok("edit_file", fmt.Sprintf(`{"path":"/w/app.py","old":"a%d","new":"b%d"}`, i, i), "File updated.")
				}
				return runApp
			}), nil},
	})
}
