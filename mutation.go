package loopguard

import (
	"bytes"
)

// Whether a call changes the workspace matters because a call repeated after a change is
// progress: the same test run after an edit is a new experiment, even when it prints the same
// thing. The engine sees names and arguments only, so it judges by them:
//
//   - tools named like edit, write, create, replace, apply_patch, insert, delete, remove,
//     rename, move, mkdir (and those the configuration adds) change it, unless their
//     sub-command says they only look ("str_replace_editor view", {"command": "view"});
//   - shell calls (a "command"/"cmd" argument, or a command line as the arguments) change it
//     when the command line writes: a redirection to a file, sed -i, tee, mv, cp, rm, touch,
//     mkdir, patch, git apply/checkout/reset/commit/stash, package installs, or a script
//     that opens a file for writing.
//
// A false "mutating" only makes the guard quieter (the repeat counts as progress); a missed
// one makes a re-run after an unseen change look like a repeat, so the shell rules lean
// towards seeing writes.

var defaultMutatingTools = []string{"*edit*", "*write*", "*create*", "*replace*", "*apply_patch*",
	"*patch*", "*insert*", "*delete*", "*remove*", "*rename*", "*move*", "*mkdir*", "*append*"}

// readOnlySubcommands are editor sub-commands that only look.
var readOnlySubcommands = map[string]bool{
	"view": true, "read": true, "list": true, "show": true, "get": true, "cat": true,
	"search": true, "find": true, "open": true, "ls": true, "print": true, "display": true,
}

// shellWrites are command words and phrases that change files or the environment.
var shellWrites = []string{
	"sed -i", "perl -i", "perl -pi", "tee ", "mv ", "cp ", "rm ", "touch ", "mkdir ", "rmdir ",
	"patch ", "git apply", "git am ", "git checkout", "git reset", "git commit", "git stash",
	"git restore", "git merge", "git rebase", "git cherry-pick", "git revert", "git add",
	"pip install", "pip3 install", "npm install", "npm i ", "yarn add", "go get", "go mod",
	"apt-get install", "apt install", "cargo add", "chmod ", "ln -s", "truncate ", "dd ",
	"install -", "unzip ", "tar -x", "tar x", "ed ", "ex ", ".write(", "write_text(",
	"write_bytes(", "os.remove(", "unlink(", "shutil.",
}

// mutates says whether a call changes the workspace, from its tool's class (worked out once
// per tool) and its raw arguments. It reads the arguments as bytes, without decoding them, so
// it allocates nothing: JSON escaping leaves the ASCII it looks for alone, but for '>' written
// as \u003e, which it also accepts.
func mutates(named bool, tool string, args []byte) bool {
	if named {
		// An editor tool: its sub-command may say it only looks.
		if w := subcommand(tool, args); w != nil && readOnlySubcommands[string(w)] {
			return false
		}
		return true
	}
	return shellWritesFiles(args)
}

// subcommand returns the first word of the "command" argument of a JSON object, or the word
// after the tool's name in a command line ("str_replace_editor view /x" gives "view").
func subcommand(tool string, args []byte) []byte {
	a := bytes.TrimSpace(args)
	if len(a) > 0 && a[0] == '{' {
		i := bytes.Index(a, []byte(`"command"`))
		if i < 0 {
			return nil
		}
		a = bytes.TrimLeft(a[i+len(`"command"`):], " \t\r\n:")
		a = bytes.TrimPrefix(a, []byte{'"'})
	} else {
		a = bytes.TrimPrefix(a, []byte(tool))
		a = bytes.TrimLeft(a, " \t\r\n")
	}
	end := 0
	for end < len(a) && ('a' <= a[end] && a[end] <= 'z' || a[end] == '_') {
		end++
	}
	return a[:end]
}

var shellWriteMarkers = func() [][]byte {
	out := make([][]byte, len(shellWrites))
	for i, w := range shellWrites {
		out[i] = []byte(w)
	}
	return out
}()

// shellWritesFiles reports whether a command line (or arguments holding one) writes: a word
// from shellWrites, a redirection of output to a file, or a script opening a file for writing.
func shellWritesFiles(cmd []byte) bool {
	for _, w := range shellWriteMarkers {
		for off := 0; ; {
			i := bytes.Index(cmd[off:], w)
			if i < 0 {
				break
			}
			i += off
			if i == 0 || !isWordByte(cmd[i-1]) || w[0] == '.' {
				return true
			}
			off = i + 1
		}
	}
	for i := 0; i < len(cmd); i++ {
		width := 0
		switch {
		case cmd[i] == '>':
			width = 1
		case cmd[i] == '\\' && bytes.HasPrefix(cmd[i:], []byte(`\u003e`)):
			width = 6
		default:
			continue
		}
		if i > 0 && (cmd[i-1] == '-' || cmd[i-1] == '=' || cmd[i-1] == '<' || cmd[i-1] == '>') {
			continue // ->, =>, <>, the second '>' of >>
		}
		rest := bytes.TrimLeft(cmd[i+width:], "> \t")
		if len(rest) == 0 || rest[0] == '&' || rest[0] == '=' || rest[0] == '"' ||
			bytes.HasPrefix(rest, []byte("/dev/null")) || bytes.HasPrefix(rest, []byte(`\u003e`)) {
			continue // 2>&1, >=, > /dev/null, the end of a string
		}
		return true
	}
	return bytes.Contains(cmd, []byte("open(")) && (bytes.Contains(cmd, []byte("'w")) ||
		bytes.Contains(cmd, []byte(`"w`)) || bytes.Contains(cmd, []byte(`\"w`)) || bytes.Contains(cmd, []byte("'a'")))
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}
