package loopguard

import (
	"fmt"
	"slices"
	"testing"
)

// missingRun is calls cmds, each answered by the shell's line for a program the call needs and
// the shell did not find (notFound(i)), a look at a file between two of them.
func missingRun(cmds []string, notFound func(i int) string) []step {
	var steps []step
	for i, cmd := range cmds {
		if i > 0 {
			steps = append(steps, ok("open", fmt.Sprintf("open src/Main%d.java", i), fmt.Sprintf("[File: src/Main%d.java (9 lines total)]\n1:class Main%d {}", i, i)))
		}
		if nf := notFound(i); nf != "" {
			steps = append(steps, ok("bash", cmd, nf))
		} else {
			steps = append(steps, ok("bash", cmd, fmt.Sprintf("Reading package lists... Done\nSetting up openjdk-17-jdk (%d) ...", i)))
		}
	}
	return steps
}

func TestAProgramTheShellDoesNotFindIsToldAtItsThirdCall(t *testing.T) {
	bash := func(prog string) func(int) string {
		return func(i int) string { return fmt.Sprintf("/bin/bash: line %d: %s: command not found", 83164+228*i, prog) }
	}
	notFoundUnlessInstall := func(i int) string {
		if i == 2 {
			return ""
		}
		return bash("javac")(i)
	}
	runProgressCases(t, []progressCase{
		{"the same command, far apart", missingRun(slices.Repeat([]string{"java ReproduceBug"}, 3), bash("java")), []string{"4:errors:java not found × 3"}},
		{"different commands that need the one program",
			missingRun([]string{"javac Repro.java && java Repro", "javac -d out src/Main.java", "cd src && javac Main.java", "mvn -q test"}, bash("javac")),
			[]string{"4:errors:javac not found × 3"}},
		{"dash's wording", missingRun([]string{"cmake ..", "cmake -S . -B build", "cmake --build build"},
			func(i int) string { return fmt.Sprintf("sh: %d: cmake: not found", i+1) }), []string{"4:errors:cmake not found × 3"}},
		{"an install between starts the count afresh",
			missingRun([]string{"javac A.java", "javac B.java", "apt-get install -y openjdk-17-jdk", "javac C.java", "javac D.java"}, notFoundUnlessInstall), nil},
		{"an installer piped to a shell starts the count afresh",
			missingRun([]string{"pyenv install 3.9", "pyenv versions", "curl https://pyenv.run | bash", "pyenv install 3.9", "pyenv local 3.9"},
				func(i int) string {
					if i == 2 {
						return ""
					}
					return fmt.Sprintf("bash: line %d: pyenv: command not found", i+1)
				}), nil},
		{"an edit whose text says install installs nothing", slices.Concat(
			missingRun([]string{"javac A.java", "javac B.java"}, bash("javac")),
			[]step{ok("str_replace_editor", `{"command":"insert","path":"/w/README.md","new_str":"Java must be installed."}`, "The file /w/README.md has been edited.")},
			missingRun([]string{"javac C.java"}, bash("javac"))), []string{"4:errors:javac not found × 3"}},
		{"prose sent as a command names no program", missingRun([]string{"DISCUSSION The fix is in", "DISCUSSION Now the test", "DISCUSSION Let me run"},
			bash("DISCUSSION")), nil},
		{"two words run together are a typo, not a program", missingRun([]string{"ls.dvc", "ls.dvc -a", "ls.dvc -la"}, bash("ls.dvc")), nil},
		{"a shell hook's own missing program, which the call never names", missingRun([]string{"go test ./...", "go vet ./...", "go build ./..."},
			func(int) string { return "ok  \texample.com/m\t0.01s\nzsh:1: command not found: dump_zsh_state" }), nil},
		{"a program named only inside another word is not the one missing", missingRun([]string{"ls apps", "cat apps/a.txt", "wc -l apps/b.txt"},
			bash("pp")), nil},
	})
}

// A hook restores the agent's snapshot for every call, and a user's turn passes: the count must
// outlive both.
func TestAMissingProgramIsToldByARestoredEngineAcrossTheUsersTurn(t *testing.T) {
	steps := missingRun([]string{"java Repro", "java Repro"}, func(i int) string { return fmt.Sprintf("bash: line %d: java: command not found", i+1) })
	steps = append(steps, step{user: true, userText: "keep going"})
	steps = append(steps, missingRun([]string{"java -cp . Repro"}, func(int) string { return "bash: line 9: java: command not found" })...)
	live := progressRun(t, defaultProgress(nil), steps)
	restored := progressRunVia(t, defaultProgress(nil), steps, true)
	if want := []string{"4:errors:java not found × 3"}; fmt.Sprint(live) != fmt.Sprint(want) || fmt.Sprint(restored) != fmt.Sprint(want) {
		t.Fatalf("live %q, restored %q, want %q", live, restored, want)
	}
}
