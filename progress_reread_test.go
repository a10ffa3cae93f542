package loopguard

import (
	"fmt"
	"slices"
	"testing"
)

// page is SWE-agent's answer to a look at the lines from..from+2 of a file of 372 lines.
func page(path string, from int) string {
	return fmt.Sprintf("[File: %s (372 lines total)]\n(%d more lines above)\n%d:def exists(self, path):\n%d:    _path = relpath(normpath(path))\n%d:    return _path in self._directory_entries",
		path, from-1, from, from+1, from+2)
}

// walk is a look at the first two pages of /w/fs/tarfs.py, as SWE-agent's open and scroll.
func walk() []step {
	return []step{
		ok("bash", "open fs/tarfs.py", page("/w/fs/tarfs.py", 1)),
		ok("bash", "scroll_down", page("/w/fs/tarfs.py", 99)),
	}
}

// tiny is a look at two files of one word each.
func tiny() []step {
	return []step{ok("bash", `{"command":"cat VERSION"}`, "1.2"), ok("bash", `{"command":"cat NAME"}`, "tarfs")}
}

// testRound writes a test script (the i-th version) and runs it; the run prints what the
// version found.
func testRound(i int) []step {
	return []step{
		ok("str_replace_editor", fmt.Sprintf(`{"command":"create","path":"/w/test_tar%d.py","file_text":"import tarfile # %d"}`, i, i),
			fmt.Sprintf("File created successfully at: /w/test_tar%d.py", i)),
		ok("bash", fmt.Sprintf("python test_tar%d.py", i), fmt.Sprintf("File found in tar archive: file%d.txt", i)),
	}
}

func TestPagesReadAThirdTimeAreToldWhenTheModelWalksThroughThemAgain(t *testing.T) {
	runProgressCases(t, []progressCase{
		{"the same two pages walked through a third time, tests written and run between: told at the walk's second page",
			slices.Concat(walk(), testRound(1), walk(), testRound(2), walk(), testRound(3)),
			[]string{"9:stuck:bash read again × 3"}},
		{"a page read a third time, then at once a fourth: the read just before counts too",
			slices.Concat(walk()[:1], testRound(1), walk()[:1], testRound(2), walk()[:1], walk()[:1]),
			[]string{"7:stuck:bash read again × 4"}},
		{"walked through twice: a look the model needed again",
			slices.Concat(walk(), testRound(1), walk(), testRound(2)), nil},
		{"one short script opened a third time between an edit and a run: a glance, not a walk",
			times(9, func(i int) step {
				switch i % 3 {
				case 0:
					return ok("bash", "open reproduce.py", page("/w/reproduce.py", 1))
				case 1:
					return ok("bash", fmt.Sprintf("edit %d:%d\n    return %d\nend_of_edit", 80+i, 80+i, i), page("/w/sphinx/util/rst.py", 70+i))
				}
				return fail("bash", "python reproduce.py", fmt.Sprintf("AssertionError: heading %d not found", i))
			}), nil},
		{"the pages a build wrote, read right after each build: checks of the build",
			times(9, func(i int) step {
				switch i % 3 {
				case 0:
					return ok("bash", fmt.Sprintf(`{"command":"sed -i 's/v%d/v%d/' docs/example.py && rm -rf _build && sphinx-build -b text docs _build"}`, i, i+1), "build succeeded.")
				case 1:
					return ok("bash", `{"command":"cat _build/index.txt"}`, "example.foo()\n\n   docstring of foo in the example module")
				}
				return ok("bash", `{"command":"cat _build/example.txt"}`, "example module\n\n   the members it lists for its __all__")
			}), nil},
		{"three checks run again after each edit, each answering as before: runs, not pages",
			times(12, func(i int) step {
				if i%4 == 0 {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/app.py","old_str":"v%d","new_str":"v%d"}`, i, i+1),
						"The file /w/app.py has been edited.")
				}
				return ok("bash", fmt.Sprintf("python check%d.py", i%4), fmt.Sprintf("check %d: the total is still 41, expected 42", i%4))
			}), nil},
		{"pages read again, the read failing each time (its answer says so, the host does not): the errors rule's",
			slices.Concat(walk()[:1], []step{ok("bash", "open fs/missing.py", "File fs/missing.py not found")}, testRound(1),
				walk()[:1], []step{ok("bash", "open fs/missing.py", "File fs/missing.py not found")}, testRound(2),
				walk()[:1], []step{ok("bash", "open fs/missing.py", "File fs/missing.py not found")}, testRound(3)), nil},
		{"a walk made twice, then an edit and the walk again: its first page, read right after the edit, checks it",
			slices.Concat(walk(), testRound(1)[1:], walk(), testRound(2)[1:], testRound(3)[:1], walk()), nil},
		{"reads that checked edits do not count toward a page read again",
			slices.Concat(testRound(1)[:1], walk(), testRound(2)[:1], walk(), testRound(3)[1:], walk()), nil},
		{"two short files read in turn, a test written and run between: short answers are pages too",
			slices.Concat(tiny(), testRound(1), tiny(), testRound(2), tiny()),
			[]string{"9:stuck:bash read again × 3"}},
		{"the walks further apart than the window",
			slices.Concat(walk(), testRound(1), walk(), times(rereadWindow, func(i int) step { return testRound(i + 2)[i%2] }), walk()), nil},
	})
}

func TestAPageReadAgainIsToldOnceAndNotAfterAnotherNotice(t *testing.T) {
	runProgressCases(t, []progressCase{
		{"a fourth walk: the pages were told",
			slices.Concat(walk(), testRound(1), walk(), testRound(2), walk(), testRound(3), walk()),
			[]string{"9:stuck:bash read again × 3"}},
		{"the loop told by another rule since the first read",
			slices.Concat(walk(), times(3, func(int) step {
				return fail("bash", "python broken.py", "ModuleNotFoundError: No module named 'tarfs'")
			}),
				walk(), testRound(2), walk()),
			[]string{"4:stuck:bash × 3"}},
	})
}

func TestAPageReadAgainInACycleIsTheCycleRules(t *testing.T) {
	// The same two pages read in turn, sixty times: the cycle rule tells it and tells it again
	// as the rounds double; each of its notices is nearer than the third read back of a page.
	runProgressCases(t, []progressCase{
		{"two pages read in turn, on and on", times(60, func(i int) step { return walk()[i%2] }),
			[]string{"5:cycle:cycle of 2 × 3", "11:cycle:cycle of 2 × 6", "31:cycle:cycle of 2 × 16", "51:cycle:cycle of 2 × 26"}},
	})
}

func TestAPageReadAgainIsFollowedAlikeByARestoredEngine(t *testing.T) {
	steps := slices.Concat(walk(), testRound(1), walk(), testRound(2), walk(), testRound(3), walk())
	want := []string{"9:stuck:bash read again × 3"}
	live := progressRun(t, defaultProgress(nil), steps)
	restored := progressRunVia(t, defaultProgress(nil), steps, true)
	if !slices.Equal(live, want) || !slices.Equal(restored, want) {
		t.Errorf("live %q, restored %q, want %q", live, restored, want)
	}
}
