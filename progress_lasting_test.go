package loopguard

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const noModuleTests = "ModuleNotFoundError: No module named 'tests'"

// attemptsBy is one attempt a command, each failing with failure at the end of a traceback
// through the script it runs, a file written between two attempts (gap reads more after it).
func attemptsBy(cmds []string, failure string, gap int) []step {
	var steps []step
	for i, cmd := range cmds {
		if i > 0 {
			steps = append(steps, ok("str_replace_editor", fmt.Sprintf(`{"command":"create","path":"/w/tests/app%d/apps.py","file_text":"name = 'tests.app%d'"}`, i, i),
				fmt.Sprintf("File created successfully at: /w/tests/app%d/apps.py", i)))
			for j := range gap {
				steps = append(steps, ok("bash", fmt.Sprintf(`{"command":"sed -n '%d,%dp' /w/app.py"}`, 20*j+1, 20*j+20), fmt.Sprintf("%d: line %d of the app", 20*j+1, i*100+j)))
			}
		}
		script := strings.Fields(cmd)[1]
		steps = append(steps, fail("bash", fmt.Sprintf(`{"command":%q}`, cmd),
			fmt.Sprintf("Traceback (most recent call last):\n  File \"/w/%s\", line %d, in <module>\n    import tests.app%d\n"+
				"  File \"<frozen importlib._bootstrap>\", line 1140, in _find_and_load_unlocked\n%s", script, 3+i, i, failure)))
	}
	return steps
}

func TestAFailureThatOutlastsTheAttemptsIsToldAtItsFourthMeeting(t *testing.T) {
	four := []string{"python quick_test.py", "python serialize_check.py", "python -m pytest_shim run_app.py", "python verify.py"}
	runProgressCases(t, []progressCase{
		{"four commands, files written between: told at the fourth failure, once", attemptsBy(append(four, "python last_try.py", "python final.py"), noModuleTests, 0),
			[]string{"6:errors:the same failure × 4 from 4 commands"}},
		{"a failure with no identity of its own (no kind named)", attemptsBy(four, "the build did not complete", 0), nil},
		{"three commands, one of them twice", attemptsBy([]string{four[0], four[1], four[0], four[2]}, noModuleTests, 0),
			[]string{"6:errors:the same failure × 4 from 3 commands"}},
		{"two commands taking turns: a fix's check and its reproduction", attemptsBy([]string{four[0], four[1], four[0], four[1]}, noModuleTests, 0), nil},
		{"a failure whose message names no cause of its own", attemptsBy(four, "SyntaxError: invalid syntax", 0), nil},
		{"meetings further apart than the recent context", attemptsBy(four, noModuleTests, lastingGap), nil},
		{"attempts of one reply are one step", slices.Concat(attemptsBy(four[:2], noModuleTests, 0),
			[]step{inTurn("r9", attemptsBy(four[2:3], noModuleTests, 0)[0]), inTurn("r9", attemptsBy(four[3:4], noModuleTests, 0)[0])}), nil},
		{"a todo list's entries refused, entries going through between: the bookkeeping's own failures",
			times(7, func(i int) step {
				if i%2 == 1 {
					return ok("TodoWrite", fmt.Sprintf(`{"todos":[%d]}`, i), "Todos have been modified successfully")
				}
				return fail("TodoWrite", fmt.Sprintf(`{"todos":%d}`, i), "InputValidationError: todos must be a list of objects")
			}), nil},
		{"a linter rejecting edits: each rejection the edit's own failure",
			times(7, func(i int) step {
				if i%2 == 1 {
					return ok("bash", fmt.Sprintf("open src/m%d.py", i), fmt.Sprintf("[File: src/m%d.py (9 lines total)]\n1:x = %d", i, i))
				}
				return ok("bash", fmt.Sprintf("edit %d:%d\nvalue = name_%d\nend_of_edit", i+1, i+1, i),
					"Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\n"+
						"ERRORS:\n- F821 undefined name 'helper_function_missing'\n\nThis is how your edit would have looked if applied\n")
			}), nil},
		{"a failure under a reporter's label, mocha's \"✖ ERROR: TypeError: ...\", is known by its own kind (r248a L5)",
			mochaUncaught(append(four, "python last_try.py")), []string{"6:errors:the same failure × 4 from 4 commands"}},
		{"print-debugging: each run shows what the print added before it prints", slices.Concat(
			attemptsBy(four[:1], noModuleTests, 0),
			probeAndRun(four[1], 1), probeAndRun(four[2], 2), probeAndRun(four[3], 3)), nil},
	})
}

// mochaUncaught is attemptsBy with each command failing as mocha reports an error it did not
// catch: under its "✖ ERROR:" label, with Node's stack below.
func mochaUncaught(cmds []string) []step {
	steps := attemptsBy(cmds, "", 0)
	for i := range steps {
		if steps[i].tool == "bash" && steps[i].failed {
			steps[i].result = "✖ ERROR: TypeError: Unknown file extension \".ts\" for /w/bff/tests/setup.ts\n" +
				"    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:160:9)\n" +
				"    at defaultGetFormat (node:internal/modules/esm/get_format:203:36)\n  code: 'ERR_UNKNOWN_FILE_EXTENSION'\n}"
		}
	}
	return steps
}

func TestNamedFailureDropsAReportersLabel(t *testing.T) {
	tests := []struct{ line, want string }{
		{"✖ ERROR: TypeError: Unknown file extension \".ts\"", "TypeError: Unknown file extension \".ts\""},
		{"ERROR: Error: Cannot find module 'x'", "Error: Cannot find module 'x'"},
		{"[ERROR]: ValueError: bad value", "ValueError: bad value"},
		{"fatal: RuntimeError: boom now", "RuntimeError: boom now"},
		{"Error: TypeError: x is not a function", "TypeError: x is not a function"},
		{"TypeError: x is not a function", "TypeError: x is not a function"},
		{"error: could not compile `app` due to 2 previous errors", "error: could not compile `app` due to 2 previous errors"},
		{"Error: ENOENT: no such file or directory, open 'a'", "Error: ENOENT: no such file or directory, open 'a'"},
		{"✖ WARNING: TypeError: x", "✖ WARNING: TypeError: x"},
		{"errors: TypeError: x", "errors: TypeError: x"},
		{"ERROR:TypeError: x", "ERROR:TypeError: x"},
		{"✖ ERROR", "✖ ERROR"},
		{"", ""},
	}
	for _, tt := range tests {
		got, kind := namedFailure(tt.line)
		if got != tt.want {
			t.Errorf("namedFailure(%q) = %q, want %q", tt.line, got, tt.want)
		}
		if want := failureKind(tt.want); kind != want {
			t.Errorf("namedFailure(%q) kind = %x, want failureKind(%q) = %x", tt.line, kind, tt.want, want)
		}
	}
}

// probeAndRun adds a print to the app (the i-th) and runs cmd, which shows the print's text
// above the failure.
func probeAndRun(cmd string, i int) []step {
	edit := ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/app.py","old_str":"import os","new_str":"import os\nprint(\"DEBUG probe %d sys.path\", sys.path)"}`, i),
		"The file /w/app.py has been edited.")
	script := strings.Fields(cmd)[1]
	run := fail("bash", fmt.Sprintf(`{"command":%q}`, cmd), fmt.Sprintf("DEBUG probe %d sys.path ['/w']\nTraceback (most recent call last):\n  File \"/w/%s\", line 3, in <module>\n    import tests.app\n"+
		"  File \"<frozen importlib._bootstrap>\", line 1140, in _find_and_load_unlocked\n%s", i, script, noModuleTests))
	return []step{edit, run}
}

// A notice on the loop since the failure's first meeting: the loop was told.
func TestAFailureThatOutlastsTheAttemptsIsNotToldAgainAfterANotice(t *testing.T) {
	steps := attemptsBy([]string{"python a.py", "python b.py"}, noModuleTests, 0)
	look := ok("bash", `{"command":"ls /w/tests"}`, "__init__.py\nold")
	steps = append(steps, look, look, look) // stuck: told at the third
	// (the attempts after it outlast the quiet calls that follow a notice)
	steps = append(steps, attemptsBy([]string{"python c.py", "python d.py", "python e.py", "python f.py", "python g.py"}, noModuleTests, 0)...)
	got := progressRun(t, defaultProgress(nil), steps)
	if slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, "the same failure") }) || len(got) != 1 {
		t.Fatalf("got %q, want only the stuck notice", got)
	}
}

func TestALastingFailureIsFollowedAlikeByARestoredEngine(t *testing.T) {
	four := []string{"python a.py", "python b.py", "python c.py", "python d.py"}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"told at the fourth meeting", attemptsBy(four, noModuleTests, 0), []string{"6:errors:the same failure × 4 from 4 commands"}},
		{"attempts of one reply", slices.Concat(attemptsBy(four[:2], noModuleTests, 0),
			[]step{inTurn("r9", attemptsBy(four[2:3], noModuleTests, 0)[0]), inTurn("r9", attemptsBy(four[3:4], noModuleTests, 0)[0])}), nil},
		{"print-debugging", slices.Concat(attemptsBy(four[:1], noModuleTests, 0),
			probeAndRun(four[1], 1), probeAndRun(four[2], 2), probeAndRun(four[3], 3)), nil},
	}
	for _, tt := range tests {
		live := progressRun(t, defaultProgress(nil), tt.steps)
		restored := progressRunVia(t, defaultProgress(nil), tt.steps, true)
		if !slices.Equal(live, tt.want) || !slices.Equal(restored, tt.want) {
			t.Errorf("%s: live %q, restored %q, want %q", tt.name, live, restored, tt.want)
		}
	}
}
