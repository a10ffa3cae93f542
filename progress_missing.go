package loopguard

import (
	"bytes"
	"strings"
)

// A program that is not there: the shell answered that it found no such command, and the
// model, over the run, sends command after command that needs it. No edit brings it back;
// only installing it, or changing where the shell looks, does. SWE-agent runs on Java tasks
// whose machine has no JDK ran `java`, `javac` or `mvn` again and again, each a different
// command line, far apart, so that no rule that follows one command or a streak saw it
// (validation round r218b: `java: command not found` four times over 28 calls, two of the
// model's reactions corrupting source files).

// maxMissing is how many programs the shell did not find are followed at once.
const maxMissing = 2

// missingProgram is a program the shell did not find, by a hash of its name, and how many of
// the agent's calls it failed since nothing was installed.
type missingProgram struct {
	name  uint32
	count uint8
	said  bool
}

// missingRepeats is how many calls a missing program fails before it is told: the first is
// how the model learns it is missing, the second can be a check, the third is the model
// going on as if it were there.
const missingRepeats = 3

// maxMissingLines is how many of a result's first lines are read for the shell's word.
const maxMissingLines = 4

// noteMissing counts, for a call that failed (as its host or the failure reading says: a
// shell's "command not found" and dash's "not found" line are failure marks) and whose answer
// says in one of its first lines that the shell found no program the call names, that
// program, and returns its entry (nil for none). A call that installs something, or changes
// where the shell looks for programs, starts every count afresh.
func (s *progressState) noteMissing(c *observedCall, failed bool) (*missingProgram, string) {
	if !failed || !strings.Contains(c.result[:min(len(c.result), 1024)], "not found") {
		if s.missing[0].name != 0 && installsOrFinds(c.args) {
			s.missing = [maxMissing]missingProgram{}
		}
		return nil, "" // most answers: one look
	}
	if installsOrFinds(c.args) {
		s.missing = [maxMissing]missingProgram{}
		return nil, ""
	}
	head := c.result
	for range maxMissingLines {
		var line string
		line, head, _ = strings.Cut(head, "\n")
		name := missingProgramIn(strings.TrimSpace(line))
		if name == "" || !namesProgram(c.args, name) {
			continue
		}
		h := uint32(hashString(name)) | 1
		slot := slotFor(s.missing[:], h, func(m *missingProgram) (uint32, uint32) { return m.name, uint32(m.count) })
		if s.missing[slot].name != h {
			s.missing[slot] = missingProgram{name: h}
		}
		m := &s.missing[slot]
		m.count = min(m.count+1, 255)
		return m, name
	}
	return nil, ""
}

// missingProgramIn returns the program a shell's line says it did not find (bash's, zsh's and
// dash's wordings: notFoundCommand, dashNotFoundLine), when its name reads as a program's: a
// lower-case letter first, then letters, digits and _ + -, a dot only before a version's
// digits (python3.8); "" otherwise. Not prose sent as a command ("DISCUSSION: command not
// found", which ranNothing reads), two words run together ("ls.dvc: command not found", a
// model's typo, the same call's to tell), nor a line of code sent to the shell (codeWords).
func missingProgramIn(line string) string {
	name := notFoundCommand(line)
	if name == "" && strings.HasSuffix(line, ": not found") && dashNotFoundLine(line) {
		rest := strings.TrimSuffix(line, ": not found")
		name = rest[strings.LastIndex(rest, ": ")+2:]
	}
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return ""
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '.' && (i+1 == len(name) || name[i+1] < '0' || name[i+1] > '9') {
			return ""
		}
		if !isWordByte(c) && c != '.' && c != '_' && c != '+' && c != '-' {
			return ""
		}
	}
	for _, w := range codeWords {
		if name == w {
			return ""
		}
	}
	return name
}

// codeWords open lines of code a model sends to a shell by mistake ("import: command not
// found"): the shell finds no such program, and none is missing.
var codeWords = [...]string{"import", "from", "def", "class", "return", "print", "if", "for", "while", "let", "const", "var", "function", "package", "public", "private"}

// namesProgram says whether a call's arguments hold name as a word of a command line: after
// the line's start, a space, a quote or a shell's separator, and before a space, a quote, a
// separator or the end ("pp" is not named by "apps").
func namesProgram(args []byte, name string) bool {
	for rest, at := args, 0; ; {
		i := bytes.Index(rest, []byte(name))
		if i < 0 {
			return false
		}
		at += i
		end := at + len(name)
		if (at == 0 || isShellSep(args[at-1]) || args[at-1] == '/') && (end == len(args) || isShellSep(args[end])) {
			return true
		}
		at++
		rest = args[at:]
	}
}

// installsOrFinds says whether a call may have put a missing program within the shell's
// reach: a package manager's install (apt-get install, pip install, sdk install java), or a
// change of the search path, an alias or an environment (PATH=, alias, activate, a link), or
// an installer piped to a shell.
// Words in an edit's text ("requires Java to be installed") install nothing.
func installsOrFinds(args []byte) bool {
	// (An installer piped to a shell, `curl https://pyenv.run | bash`, installs too: round
	// r219a F1.)
	for _, w := range [...]string{"PATH=", "alias ", "activate", "ln -s", "update-alternatives", "| bash", "| sh", "|bash", "|sh"} {
		if bytes.Contains(args, []byte(w)) {
			return true
		}
	}
	for from := 0; ; {
		i := bytes.Index(args[from:], []byte("install"))
		if i < 0 {
			return false
		}
		i += from
		before := args[max(0, i-48):i]
		for _, m := range packageManagers {
			if k := bytes.LastIndex(before, []byte(m)); k >= 0 && (k == 0 || isShellSep(before[k-1]) || before[k-1] == '/') {
				return true
			}
		}
		from = i + 1
	}
}

// packageManagers are the programs whose install puts a program on the machine.
var packageManagers = [...]string{"apt-get ", "apt ", "yum ", "dnf ", "apk ", "brew ", "pip ", "pip3 ", "conda ", "mamba ",
	"npm ", "yarn ", "pnpm ", "cargo ", "go ", "gem ", "sdk ", "uv ", "pipx ", "choco ", "winget ", "scoop "}

// missingCheck tells a program the shell did not find at the missingRepeats-th call that
// needed it, once a program while nothing is installed.
func (s *progressState) missingCheck(c *observedCall, m *missingProgram, name string, out []Notice) []Notice {
	if int(m.count) < missingRepeats || m.said {
		return out
	}
	m.said = true
	return append(out, s.notice(c.agent, KindErrors, name+" not found × "+itoa(int(m.count)),
		fill(s.d.cat.progressMissing, "program", name, "count", itoa(int(m.count)))))
}
