package loopguard

// A command its shell would not parse: validation round r46a's weak models sent their prose
// as the command, and a write word in the prose made each refused command a change of the
// workspace.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestRefusedByShellReadsOnlyTheShellsOwnSyntaxErrors(t *testing.T) {
	tests := []struct {
		name   string
		result string
		want   bool
	}{
		{"a syntax check's two lines", "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 4: syntax error: unexpected end of file", true},
		{"bash -c's own wording", "bash: -c: line 3: syntax error: unexpected end of file\n", true},
		{"dash's wording", "sh: 1: Syntax error: \"(\" unexpected\n", true},
		{"a near-token error", "bash: syntax error near unexpected token `)'", true},
		{"behind a harness's header", "Command executed successfully (exit code 0).\nOutput:\n/bin/bash: line 1: syntax error near unexpected token `newline'", true},
		{"a command not found is no syntax error", "/bin/bash: line 13657: DISCUSSION: command not found", false},
		{"output of commands that ran", "patched 3 files\n/bin/bash: line 4: syntax error: unexpected end of file", false},
		{"a test's failure", "FAILED tests/test_a.py::test_b - SyntaxError: invalid syntax", false},
		{"Windows PowerShell's parse error", "At C:\\Users\\u\\AppData\\Local\\Temp\\ps-script-92c7.ps1:7 char:32\n+ cd C:\\repo && git add -A\n+                                ~~\n" +
			"The token '&&' is not a valid statement separator in this version.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n" +
			"    + FullyQualifiedErrorId : InvalidEndOfLine", true},
		{"PowerShell 7's parse error", "ParserError: \nLine |\n   1 |  if (x {\n     |        ~\n     | Missing closing ')' after expression in 'if' statement.", true},
		{"a PowerShell error of a command that ran", "At line:1 char:1\n+ Remove-Item x\n+ ~~~~~~~~~~~~~\n    + CategoryInfo          : ObjectNotFound: (C:\\x:String) [Remove-Item], ItemNotFoundException", false},
		{"nothing", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := refusedByShell(tt.result); got != tt.want {
				t.Errorf("refusedByShell(%q) = %v, want %v", tt.result, got, tt.want)
			}
		})
	}
}

// Prose sent as a command, each time saying it will "use the tee command", each time refused
// by the shell's syntax check alike: four failures of one tool in a row, nothing written.
func TestProseTheShellRefusesIsNoChangeOfTheWorkspace(t *testing.T) {
	const refused = "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 4: syntax error: unexpected end of file"
	for _, prose := range []string{"Let's use the tee command to create the file", "Let's mv the old file aside and write it again"} {
		var steps []step
		for i := range 6 {
			steps = append(steps, ok("bash", fmt.Sprintf(`{"command":"DISCUSSION\nThe create command failed again. %s, attempt %d.\n"}`, prose, i), refused))
		}
		got := progressRun(t, defaultProgress(nil), steps)
		if !slices.Contains(got, "3:errors:bash failed × 4") {
			t.Errorf("%q refused six times: got %q, want the errors notice at the fourth", prose, got)
		}
	}
}

// Windows PowerShell refuses "&&" at parse time, so none of a command joined by it runs: a
// `git add -A` so refused changed nothing, and four refusals alike are four failures in a row.
func TestCommandsPowerShellWouldNotParseChangeNothing(t *testing.T) {
	var steps []step
	for i, cmd := range []string{"git status", "git add -A", "git commit -m fix", "git log -3"} {
		line := `cd C:\repo && ` + cmd
		args, _ := json.Marshal(map[string]string{"command": line})
		steps = append(steps, ok("shell", string(args), fmt.Sprintf("At C:\\Users\\u\\AppData\\Local\\Temp\\ps-script-92c76383-5995-44c1-93e6-8a41b272bd0%d.ps1:7 char:%d\n+ %s\n"+
			"+                                ~~\nThe token '&&' is not a valid statement separator in this version.\n"+
			"    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : InvalidEndOfLine", i, 32+i, line)))
	}
	if got := progressRun(t, defaultProgress(nil), steps); !slices.Equal(got, []string{"3:errors:shell failed × 4"}) {
		t.Errorf("four commands PowerShell would not parse: got %q, want the errors notice at the fourth", got)
	}
}

// Commands the shell declined whichever way are told as commands of which nothing ran, in
// every locale (validation round r173a: the notice said one error came back).
func TestCommandsOfWhichNothingRanAreToldSo(t *testing.T) {
	want := map[string]string{"en": "None of your last 4 commands ran", "zh": "你最近的 4 条命令一条都没有执行"}
	for _, locale := range Locales() {
		t.Run(locale, func(t *testing.T) {
			cfg := defaultProgress(nil)
			cfg.Locale = locale
			e, _ := New(cfg)
			var texts []string
			for i := range 4 {
				result := "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 4: syntax error: unexpected end of file"
				if i%2 == 1 {
					result = fmt.Sprintf("/bin/bash: line %d: DISCUSSION: command not found\n/bin/bash: line %d: There: command not found", 10+i, 11+i)
				}
				for _, n := range e.Observe(Call("a", "DISCUSSION", []byte(fmt.Sprintf("DISCUSSION\nThere's a problem %d here.", i))).WithResult(result, false)) {
					texts = append(texts, n.Text)
				}
			}
			if len(texts) != 1 || !strings.Contains(texts[0], want[locale]) {
				t.Errorf("got %q, want one notice saying %q", texts, want[locale])
			}
		})
	}
}
