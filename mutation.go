package loopguard

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// Whether a call changes the workspace matters because a call repeated after a change is
// progress: the same test run after an edit is a new experiment, even when it prints the same
// thing. The engine sees names and arguments only, so it judges by them:
//
//   - tools named like edit, write, create, replace, apply_patch, apply_diff, insert, delete, remove,
//     rename, move, mkdir, update_file, modify_file, save_file, overwrite (and those the
//     configuration adds) change it, unless their
//     sub-command says they only look ("str_replace_editor view", {"command": "view"});
//   - so do tools whose name opens with a verb that changes something (changesByVerb:
//     toggle_wifi_calling, cancel_reservation, mcp__github__close_issue);
//   - shell calls (a "command", "cmd", "script", "keystrokes" or "code" argument, or a command
//     line as the arguments) change it
//     when the command line writes: a redirection to a file, sed -i, tee, mv, cp, rm, touch,
//     mkdir, patch, git apply/checkout/reset/commit/stash, package installs and updates, a
//     command line that only changes the shell's environment (export, unset, an activation:
//     setsEnvironment), a script that opens a file for writing or writes to a database
//     (writesDatabase), or one of SWE-agent's own editors (sweAgentEdits).
//
// A false "mutating" only makes the guard quieter (the repeat counts as progress); a missed
// one makes a re-run after an unseen change look like a repeat, so the shell rules lean
// towards seeing writes.

var defaultMutatingTools = []string{"*edit*", "*write*", "*create*", "*replace*", "*apply_patch*",
	"*patch*", "*insert*", "*delete*", "*remove*", "*rename*", "*move*", "*mkdir*", "*append*",
	"*apply_diff*", "*update_file*", "*modify_file*", "*save_file*", "*overwrite*"}

// refusedAttemptPrefix opens the arguments a reader gives a call the harness refused before it
// ran when no record keeps the call's own: {"refused_attempt": n}.
var refusedAttemptPrefix = []byte(`{"refused_attempt":`)

// readOnlySubcommands are editor sub-commands that only look.
var readOnlySubcommands = map[string]bool{
	"view": true, "read": true, "list": true, "show": true, "get": true, "cat": true,
	"search": true, "find": true, "open": true, "ls": true, "print": true, "display": true,
}

// mutates says whether a call changes the workspace, from its tool's class (worked out once
// per tool) and its raw arguments. It reads the arguments as bytes, without decoding them, so
// it allocates nothing: JSON escaping leaves the ASCII it looks for alone, but for '>' written
// as \u003e, which it also accepts.
// keys is what readArgKeys found of the arguments: whether they name one of commandLineKeys,
// and whether that is only "code".
func mutates(named bool, tool string, args []byte, keys argKeys) bool {
	if named {
		// A call the harness refused before it ran, whose arguments no record keeps (a
		// reader writes them {"refused_attempt": n}, docs/scan.md), changed nothing, and
		// what it meant to do is not known: it is not taken for one of the editor's changes,
		// so the editor's next call that works, a look included, ends its run of failures.
		// OpenHands refused GLM-4.6's calls for a missing `security_risk` now and then, each
		// retried at once, and four slips over 23 calls, thirteen views working between,
		// were told as the editor's changes failing four times (validation round r154c F1).
		if bytes.HasPrefix(args, refusedAttemptPrefix) {
			return false
		}
		// An editor tool: its sub-command may say it only looks.
		if w := subcommand(tool, args); w != nil && readOnlySubcommands[string(w)] {
			return false
		}
		return true
	}
	// Only a command line can write by shell; a Read or a Grep with JSON options cannot. A
	// terminal agent types its commands ("keystrokes", Terminus), a notebook tool runs "code"
	// (OpenHands' execute_ipython_cell): both are command lines too.
	if a := bytes.TrimSpace(args); len(a) > 0 && (a[0] == '{' || a[0] == '[') && !keys.commandLine {
		return false
	}
	if keys.code && bytes.Contains(args, []byte("%%writefile")) {
		return true // IPython's cell magic that writes the cell to a file
	}
	if sweAgentEdits(args) {
		return true
	}
	writes, envWord, netWord := shellWritesFiles(args, !keys.code || codeRunsShell(args))
	return writes || envWord && setsEnvironment(args) || netWord && sendsData(args)
}

// sweAgentEdits says whether a command line is one of SWE-agent's own file editors, which its
// shell runs as commands of their own: `edit 145:145` followed by the new lines, `create
// <file>`, `insert <line>`, `str_replace_editor` with any sub-command but `view`. Datasets
// of SWE-agent's runs (nebius' SWE-agent trajectories) give every such command as a call of
// one shell tool: read as no change, eleven edits the editor rejected in thirteen calls were
// one command failing each its own way, and went untold (validation round r67d M1). Only the
// command line's first word is looked at: SWE-agent's commands are never part of a pipeline,
// and the word "edit" elsewhere (`grep -n "def edit"`) is an argument.
func sweAgentEdits(args []byte) bool {
	line, _ := commandStart(args)
	i := 0
	for i < len(line) && commandSpaceAt(line, i) {
		i += escapeLen(line, i)
	}
	line = line[i:]
	if len(line) < 6 {
		return false
	}
	switch line[0] { // most command lines are ruled out by their first byte
	case 'e', 'c', 'i':
		for _, w := range [...]string{"edit", "create", "insert"} {
			// the word alone: "edit_file.py" or "editor" is another program
			if len(line) > len(w) && string(line[:len(w)]) == w && commandSpaceAt(line, len(w)) {
				return true
			}
		}
	case 's':
		if rest, ok := bytes.CutPrefix(line, []byte("str_replace_editor ")); ok {
			sub := subcommand("", rest)
			return len(sub) > 0 && !readOnlySubcommands[string(sub)]
		}
	}
	return false
}

// sqlWrites are the openings of SQL statements that change a database, as code and tools
// write them (both cases; mixed case is rare in code), and the calls of database drivers
// that commit or write a table.
var sqlWrites = [][]byte{[]byte("INSERT INTO"), []byte("insert into"), []byte("DELETE FROM"), []byte("delete from"),
	[]byte("CREATE TABLE"), []byte("create table"), []byte("DROP TABLE"), []byte("drop table"),
	[]byte("ALTER TABLE"), []byte("alter table"), []byte(".commit()"), []byte(".to_sql("), []byte("executescript(")}

// writesDatabase says whether a call's code or command writes to a database: an SQL statement
// that changes it (an UPDATE with its SET, INSERT INTO, DELETE FROM, CREATE/DROP/ALTER TABLE), or
// a driver's commit or table write. The same query run before and after such a script is a
// check of what it changed, not a repeat: a DA-Agent run re-ran its SELECT after a script of
// UPDATEs and a commit, and was told it had made the same call three times with nothing
// changed (validation rounds r170a F1, r174b F6). Looked for only in arguments that call
// something (they hold a bracket), as every database write in code does.
func writesDatabase(cmd []byte) bool {
	for _, w := range sqlWrites {
		if bytes.Contains(cmd, w) {
			return true
		}
	}
	for _, up := range [...]string{"UPDATE ", "update "} {
		if i := bytes.Index(cmd, []byte(up)); i >= 0 {
			set := " SET "
			if up[0] == 'u' {
				set = " set "
			}
			if bytes.Contains(cmd[i:], []byte(set)) {
				return true
			}
		}
	}
	return false
}

// commandStart returns the command line that args hold, from its start and still
// JSON-escaped: the string of their "command" argument (inJSON true; nil when they have none),
// or the arguments themselves. It runs for every call, so it only finds where the line starts
// (commandLine, which commandKey needs, also reads to its end) and skips white space by hand:
// bytes.TrimLeft with a cutset builds the set at each call.
func commandStart(args []byte) (line []byte, inJSON bool) {
	a := args[skipArgSpace(args, 0, false):]
	if len(a) == 0 || a[0] != '{' {
		return a, false
	}
	if rest, ok := bytes.CutPrefix(a, []byte(`{"command":"`)); ok {
		return rest, true // most shell tools' arguments: no search
	}
	k := bytes.Index(a, []byte(`"command"`))
	if k < 0 {
		return nil, true
	}
	a = a[skipArgSpace(a, k+len(`"command"`), true):]
	return bytes.TrimPrefix(a, []byte{'"'}), true
}

// skipArgSpace returns the index of the first byte of a at or after i that is no white space
// (nor ':' when colon is true).
func skipArgSpace(a []byte, i int, colon bool) int {
	for i < len(a) && (a[i] == ' ' || a[i] == '\t' || a[i] == '\r' || a[i] == '\n' || colon && a[i] == ':') {
		i++
	}
	return i
}

// sendsData says whether a command line sends data to a server with curl or wget (a POST,
// PUT, PATCH or DELETE, or a body given with -d, --data*, -F, --form, --json, --post-data):
// the server's state is the agent's workspace too, and a look at it after such a request is
// a check of what the request did, not the same look made again. An agent posting three
// different bodies to an API, reading the unchanged balance after each, was told the
// balance call was stuck (validation round r58c F1). A query sent with -G or --get is a GET.
func sendsData(args []byte) bool {
	if bytes.Contains(args, []byte(" -G")) || bytes.Contains(args, []byte(" --get")) {
		return false
	}
	for _, flag := range sendFlags {
		if bytes.Contains(args, flag) {
			return true
		}
	}
	return false
}

var sendFlags = func() [][]byte {
	var out [][]byte
	for _, f := range []string{" -X POST", " -X PUT", " -X PATCH", " -X DELETE", " -XPOST", " -XPUT", " -XPATCH", " -XDELETE",
		" --request POST", " --request PUT", " --request PATCH", " --request DELETE",
		" -d ", " -d'", ` -d\"`, " --data", " -F ", " --form ", " --json ", " --upload-file ", " -T ",
		" --post-data", " --post-file", " --method=POST", " --method=PUT", " --method=PATCH", " --method=DELETE"} {
		out = append(out, []byte(f))
	}
	return out
}()

// writes says whether a call of tool, a tool of class t, changes the workspace: as its class
// says when a configuration decided it, else by its arguments (mutates), whose keys are keys.
// args are the call's arguments without their captions (callID): a caption narrates the
// command in words ("Use single quotes for the curl command"), and a command word there is
// no command (it made a failed POST read as a curl that sent data, validation round r103c M1).
func (t toolClass) writes(tool string, args []byte, keys argKeys) bool {
	if t.decided {
		return t.mutating
	}
	return mutates(t.mutating, tool, args, keys)
}

// setsEnvironment says whether a command line does nothing but change the environment that a
// harness's shell keeps from one call to the next: each of its statements an `export`, an
// `unset` or an activation of an environment (`conda activate env`, `source venv/bin/activate`).
// A failing build re-run after `export JAVA_HOME=...` runs in another environment. A line that
// also runs something (`export KUBECONFIG=k && kubectl get pods`) is that something, and a word
// "export" elsewhere (`grep -rn "export default"`) is no statement.
// It decodes the arguments: mutates asks only when shellWritesFiles met one of those words.
func setsEnvironment(args []byte) bool {
	cmd := commandText(args)
	statements := 0
	for _, line := range strings.FieldsFunc(cmd, func(r rune) bool { return r == '\n' || r == ';' }) {
		for _, st := range strings.Split(line, "&&") {
			words := strings.Fields(st)
			if len(words) == 0 {
				continue
			}
			switch {
			case words[0] == "export" || words[0] == "unset":
			case len(words) >= 2 && words[0] == "conda" && words[1] == "activate":
			case len(words) >= 2 && (words[0] == "source" || words[0] == ".") && strings.HasSuffix(words[1], "activate"):
			default:
				return false
			}
			statements++
		}
	}
	return statements > 0
}

// windowsProgram returns word w without the ".exe" or ".cmd" that names a program on Windows:
// PowerShell answers `curl` with its own Invoke-WebRequest, so agents there call `curl.exe`,
// and npm's programs are `npm.cmd` and `npx.cmd`. A POST made with curl.exe sent data as one
// made with curl does (validation round r103c M1).
func windowsProgram(w []byte) []byte {
	if n := len(w); n > 4 && w[n-4] == '.' && (string(w[n-3:]) == "exe" || string(w[n-3:]) == "cmd") {
		return w[:n-4]
	}
	return w
}

// commandText is the command line a call's arguments hold: the arguments themselves when they
// are a command line, else the string (or, for Codex's `["bash", "-lc", "..."]`, the last
// string) of their first command-line key.
func commandText(args []byte) string {
	a := bytes.TrimSpace(args)
	if len(a) == 0 || a[0] != '{' {
		return string(a)
	}
	var m map[string]any
	if json.Unmarshal(a, &m) != nil {
		return ""
	}
	for _, k := range commandLineKeys {
		switch v := m[strings.Trim(k, `"`)].(type) {
		case string:
			return v
		case []any:
			if len(v) > 0 {
				s, _ := v[len(v)-1].(string)
				return s
			}
		}
	}
	return ""
}

// commandLineKeys are the argument names that hold a command line (see mutates).
var commandLineKeys = []string{`"command"`, `"commands"`, `"cmd"`, `"script"`, `"keystrokes"`, `"code"`, `"chars"`}

// subcommand returns the first word of the "command" argument of a JSON object, or the word
// after the tool's name in a command line ("str_replace_editor view /x" gives "view").
func subcommand(tool string, args []byte) []byte {
	a, inJSON := commandStart(args)
	if !inJSON {
		a = bytes.TrimPrefix(a, []byte(tool))
		a = a[skipArgSpace(a, 0, false):]
	}
	end := 0
	for end < len(a) && ('a' <= a[end] && a[end] <= 'z' || a[end] == '_') {
		end++
	}
	return a[:end]
}

// writeCommands are shell command words that change files or the environment: 1 always, 2
// with one of the sub-commands in writeSubcommands after them, 3 with an in-place flag (-i).
var writeCommands = map[string]uint8{
	"tee": 1, "mv": 1, "cp": 1, "rm": 1, "touch": 1, "mkdir": 1, "rmdir": 1, "patch": 1, "chmod": 1,
	"chown": 1, "ln": 1, "truncate": 1, "dd": 1, "unzip": 1, "ed": 1, "ex": 1, "rsync": 1,
	"git": 2, "pip": 2, "pip3": 2, "npm": 2, "yarn": 2, "pnpm": 2, "go": 2, "apt": 2, "apt-get": 2,
	"cargo": 2, "conda": 2, "poetry": 2, "uv": 2, "tar": 2,
	// CLIs of services, which sign in (`gh auth login`, `op signin`, `az login`, `gcloud auth
	// login`, `aws sso login`): a sign-in changes what the next call may do, and the call that
	// failed for want of it, made again after it, is a new try (validation round r101c F2).
	"gh": 2, "op": 2, "az": 2, "gcloud": 2, "aws": 2, "firebase": 2, "vercel": 2, "heroku": 2,
	"sed": 3, "perl": 3,
	// Codex's shell tool runs its patches as a command: ["apply_patch", "*** Begin Patch..."].
	"apply_patch": 1, "applypatch": 1,
	// cmd.exe's (Cline, Copilot and Claude Code on Windows run them).
	"del": 1, "erase": 1, "copy": 1, "xcopy": 1, "robocopy": 1, "move": 1, "ren": 1, "rename": 1,
	"md": 1, "rd": 1,
}

// powershellWrites are PowerShell's cmdlets that change files, lower-cased (PowerShell does not
// mind the case: Set-Content, set-content).
var powershellWrites = map[string]bool{
	"set-content": true, "add-content": true, "out-file": true, "new-item": true, "remove-item": true,
	"copy-item": true, "move-item": true, "rename-item": true, "clear-content": true, "expand-archive": true,
}

// writeFlags are options that make a formatter or linter rewrite the files it checks
// (prettier --write, eslint --fix, ruff check --fix).
var writeFlags = map[string]bool{"--write": true, "--fix": true, "--in-place": true}

// commandWordLens has, for each first letter of writeCommands' words, a bit per length they
// come in: most words of a command line are ruled out without a map lookup.
var commandWordLens = func() (t [26]uint16) {
	for w := range writeCommands {
		t[w[0]-'a'] |= 1 << len(w)
	}
	return t
}()

// patternPrograms are programs whose words are a pattern to look for or a text to print,
// never a program to run (see shellWordsWrite).
var patternPrograms = map[string]bool{
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "echo": true, "printf": true,
	"search_dir": true, "search_file": true, "find_file": true,
}

// patternProgramLens has, for each first letter of patternPrograms' words, a bit per length
// they come in: most programs (sed, python, cd) are ruled out without a map lookup, as this
// pass runs several times for every call.
var patternProgramLens = func() (t [26]uint16) {
	for p := range patternPrograms {
		t[p[0]-'a'] |= 1 << len(p)
	}
	return t
}()

// isPatternProgram says whether w is one of patternPrograms.
func isPatternProgram(w []byte) bool {
	return len(w) <= 11 && w[0] >= 'a' && w[0] <= 'z' && patternProgramLens[w[0]-'a']&(1<<len(w)) != 0 && patternPrograms[string(w)]
}

var writeSubcommands = map[string]bool{
	"apply": true, "am": true, "checkout": true, "reset": true, "commit": true, "stash": true,
	"restore": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true, "add": true,
	"install": true, "i": true, "get": true, "mod": true, "remove": true, "uninstall": true,
	"update": true, "upgrade": true, "create": true, "sync": true,
	"login": true, "signin": true, "logout": true, "signout": true,
	"-x": true, "-xf": true, "-xzf": true, "-xvf": true, "-xzvf": true, "x": true, "xf": true, "xzf": true,
}

var agentSkillWriters = [...][]byte{[]byte("edit_file_by_replace("), []byte("insert_content_at_line("),
	[]byte("append_file("), []byte("create_file("), []byte("edit_file(")}

// codeKey names the code a notebook tool runs (OpenHands' execute_ipython_cell, Inspect's
// python tool, smolagents): arguments whose only command-line key it is are code of a language
// that is no shell (argKeys.code). Its '>' compares (`if len(xs) > 3:`); it writes by its own
// calls (open(..., 'w')).
const codeKey = `"code"`

// codeRunsShell says whether notebook code (argKeys.code) hands some of itself to a shell: a
// line IPython runs in one ("!ls > files.txt"), or a cell magic that runs the cell in one
// (%%bash, %%sh, %%script). Its '>' then redirects as a shell's does.
func codeRunsShell(args []byte) bool {
	for _, m := range [...]string{"%%bash", "%%sh", "%%script", `\n!`, `"code":"!`, `"code": "!`} {
		if bytes.Contains(args, []byte(m)) {
			return true
		}
	}
	return false
}

// shellWritesFiles reports whether a command line (or arguments holding one) writes: a command
// word from writeCommands, a redirection of output to a file (when redirects: the text is a
// shell's), or a script that writes a file; and, when it does not, whether a word that may
// change the environment (export, unset, activate) was met on the way (setsEnvironment), and
// whether curl or wget was (sendsData): the flags that decide those are looked for only then.
// One pass over the words; JSON escapes (\n, \t, \") separate words as white space does.
func shellWritesFiles(cmd []byte, redirects bool) (writes, envWord, netWord bool) {
	if writes, envWord, netWord = shellWordsWrite(cmd, redirects); writes {
		return true, envWord, netWord
	}
	return codeWrites(cmd), envWord, netWord
}

// shellWordsWrite is shellWritesFiles' pass over the words: a command or flag that writes, or
// a redirection to a file; not what a script's own code writes (codeWrites).
func shellWordsWrite(cmd []byte, redirects bool) (writes, envWord, netWord bool) {
	kind := uint8(0) // what the last command word needs after it
	// A command's first word is the program; the words of a command whose program only
	// searches or prints (grep, echo, SWE-agent's search_dir) are its pattern or its text, and
	// name no program: `search_dir "pip install"` installs nothing (validation round r216a).
	// Where that command ends (; | & ( ) ` or a line's end), the next word is a program again.
	atProgram, data := true, false
	n := len(cmd)
	for i := 0; i < n; {
		if k := shellSepKinds[cmd[i]]; k != 0 {
			switch k {
			case sepPlain: // most separators: a space, a quote
			case sepCommand:
				atProgram, data = true, false
			case sepKey:
				atProgram = true // a JSON key's value: {"command":"grep …"}
			case sepEscape:
				if i+1 < n {
					if cmd[i+1] == 'n' {
						atProgram, data = true, false // an escaped line end
					}
					i++ // an escape: \n, \t, \" end a word
				}
			}
			i++
			continue
		}
		j := i
		for j < n && !isShellSep(cmd[j]) {
			j++
		}
		w := windowsProgram(cmd[i:j])
		i = j
		if data {
			continue
		}
		if atProgram {
			atProgram = false
			if isPatternProgram(w) {
				data = true
				continue
			}
		}
		switch kind {
		case 2:
			if writeSubcommands[string(w)] {
				return true, envWord, netWord
			}
			if string(w) == "grep" || string(w) == "log" {
				kind, data = 0, true // git grep, git log --grep: a pattern follows
				continue
			}
			if string(w) == "auth" || string(w) == "sso" {
				continue // the group a sign-in is in: `gh auth login`, `aws sso login`
			}
		case 3:
			if len(w) >= 2 && w[0] == '-' && (w[1] == 'i' || bytes.HasPrefix(w, []byte("-pi"))) {
				return true, envWord, netWord
			}
			if len(w) > 0 && w[0] == '-' {
				continue // sed -n -i: the in-place flag may come after other options
			}
		}
		if len(w) > 2 && w[0] == '-' && w[1] == '-' && writeFlags[string(w)] {
			return true, envWord, netWord
		}
		if 'A' <= w[0] && w[0] <= 'Z' && len(w) <= 16 && bytes.IndexByte(w, '-') > 0 && powershellWrites[strings.ToLower(string(w))] {
			return true, envWord, netWord
		}
		if !envWord && (len(w) == 6 && string(w) == "export" || len(w) == 5 && string(w) == "unset" || len(w) >= 8 && string(w[len(w)-8:]) == "activate") {
			envWord = true // setsEnvironment decides
		}
		if len(w) == 4 && (string(w) == "curl" || string(w) == "wget") {
			netWord = true // sendsData decides
		}
		if len(w) > 11 || w[0] < 'a' || w[0] > 'z' || commandWordLens[w[0]-'a']&(1<<len(w)) == 0 {
			kind = 0 // no command word is that long, or starts otherwise
			continue
		}
		switch k := writeCommands[string(w)]; k {
		case 1:
			return true, envWord, netWord
		default:
			kind = k
		}
	}
	return redirects && redirectsToFile(cmd), envWord, netWord
}

// codeWrites says whether the code a call runs writes by itself: it writes a file (`.write(`,
// `write_text(`, `open(` for writing), removes one, writes to a database (writesDatabase), or
// calls one of the file editors OpenHands gives the code it runs.
func codeWrites(cmd []byte) bool {
	if bytes.IndexByte(cmd, '(') < 0 {
		return false
	}
	if bytes.Contains(cmd, []byte(".write(")) || bytes.Contains(cmd, []byte("write_text(")) ||
		bytes.Contains(cmd, []byte("write_bytes(")) || bytes.Contains(cmd, []byte("os.remove(")) {
		return true
	}
	if writesDatabase(cmd) {
		return true
	}
	// The file editors OpenHands gives the code it runs (agentskills): edit_file_by_replace,
	// insert_content_at_line, append_file, create_file, edit_file.
	for _, f := range agentSkillWriters {
		if bytes.Contains(cmd, f) {
			return true
		}
	}
	return bytes.Contains(cmd, []byte("open(")) && (bytes.Contains(cmd, []byte("'w")) ||
		bytes.Contains(cmd, []byte(`"w`)) || bytes.Contains(cmd, []byte(`\"w`)) || bytes.Contains(cmd, []byte("'a'")))
}

// wroteNothing says whether a call that changes the workspace only by what its code does
// (codeWrites: not by its tool's name, a shell's command or redirection, or SWE-agent's
// editors) was answered by Python's refusal to compile that code: its whole answer a
// SyntaxError, IndentationError or TabError report with no traceback of code that ran (a
// script that fails to compile runs none of its statements; one that imports a module that
// fails to compile has a traceback). None of its writes happened. DA-Agent's
// `Python(file_path=...)` saves its code and runs it: a Mixtral run sent a script with a stray
// code fence, failing to compile at the fence, ten times, each taken for a script that
// wrote its results, and was told five calls late by a cycle (validation round r179d M3).
func wroteNothing(named bool, args []byte, keys argKeys, result string) bool {
	if named || !compileRefused(result) || sweAgentEdits(args) {
		return false
	}
	writes, _, _ := shellWordsWrite(args, !keys.code || codeRunsShell(args))
	return !writes && !(keys.code && bytes.Contains(args, []byte("%%writefile")))
}

// installedNothing says whether a call that only installs packages (one package manager's
// install, nothing else on its command line) was answered that all it asked for was there
// already: pip's "Requirement already satisfied" with no "Installing collected packages", apt's
// "0 upgraded, 0 newly installed", npm's "up to date", conda's "All requested packages already
// installed". The machine is as it was, so a command failing alike before and after it had no
// change between: a DA-Agent run rewrote one script seven times, each run failing with the
// same ParserError, and its `pip install pandas --upgrade` among them ("Requirement already
// satisfied") had counted as a change and started the failures' count afresh (validation
// round r221a, data-sa-056). The answer is read only when the arguments name an install, and
// the command line parsed only when the answer says nothing was installed.
func installedNothing(args []byte, result string) bool {
	if !bytes.Contains(args, []byte("install")) && !bytes.Contains(args, []byte("npm i ")) && !bytes.Contains(args, []byte("uv sync")) {
		return false // most changes: one look at the arguments
	}
	head := result[:min(len(result), 8192)]
	if !installedNone(head) {
		return false
	}
	// The errors sent to the output ("uv sync 2>&1") change nothing.
	cmd := strings.TrimSuffix(strings.TrimSpace(commandText(args)), " 2>&1")
	if cmd == "" || strings.ContainsAny(cmd, ";&|\n`$()<>") {
		return false // other commands may have changed something
	}
	words := strings.Fields(cmd)
	if words[0] == "sudo" {
		words = words[1:]
	}
	if len(words) >= 3 && strings.HasPrefix(words[0], "python") && words[1] == "-m" {
		words = words[2:] // python -m pip install ...
	}
	if len(words) >= 2 && words[0] == "uv" && words[1] == "pip" {
		words = words[1:]
	}
	if len(words) >= 2 && words[0] == "uv" && words[1] == "sync" {
		return true // uv's sync of a project's environment to its lock file
	}
	if len(words) < 2 || !slices.Contains(quietInstallers[:], words[0]) {
		return false
	}
	return words[1] == "install" || words[0] == "npm" && words[1] == "i"
}

// quietInstallers are the package managers whose answer installedNone reads.
var quietInstallers = [...]string{"pip", "pip3", "apt-get", "apt", "npm", "conda", "mamba", "poetry"}

// installedNone says whether an install's answer says it installed nothing (see
// installedNothing).
func installedNone(answer string) bool {
	if strings.Contains(answer, "Requirement already satisfied") {
		// (pip writes this line before it installs or upgrades anything, and before a
		// failure midway that may leave some of it done)
		return !strings.Contains(answer, "Installing collected packages")
	}
	if i := strings.Index(answer, "0 upgraded, 0 newly installed, 0 to remove"); i >= 0 {
		return i == 0 || answer[i-1] == '\n' // not "10 upgraded"
	}
	if uvAudited(answer) {
		return true
	}
	// (npm says "added 1 package, and audited ..." when it did something)
	return strings.Contains(answer, "All requested packages already installed") || strings.Contains(answer, "up to date, audited ") ||
		strings.Contains(answer, "No dependencies to install or update") // poetry's
}

// uvAudited says whether uv (its sync, its pip) answered that it checked the environment and
// changed nothing: a line "Audited …" ("Audited in 0.01ms", "Audited 3 packages in 2ms"), and
// no line saying it installed, uninstalled or built something. A Claude Code session ran
// `uv sync` three ways between failing imports, each answered so (validation round r258e).
func uvAudited(answer string) bool {
	if !strings.HasPrefix(answer, "Audited ") && !strings.Contains(answer, "\nAudited ") {
		return false
	}
	for _, did := range [...]string{"Installed ", "Uninstalled ", "Built ", "Updated "} {
		if strings.HasPrefix(answer, did) || strings.Contains(answer, "\n"+did) || strings.Contains(answer, "\n "+did) {
			return false
		}
	}
	return true
}

// compileRefused says whether an answer is only Python's report that it could not compile
// the code it was to run: a few lines (the file and line, the code, a caret), the last
// naming a SyntaxError, an IndentationError or a TabError, and no traceback.
func compileRefused(result string) bool {
	t := strings.TrimSpace(result)
	if t == "" || len(t) > 1024 || strings.Contains(t, "Traceback (most recent call last)") {
		return false
	}
	last := lastLine(t)
	kind, _, ok := strings.Cut(last, ":")
	if !ok || kind != "SyntaxError" && kind != "IndentationError" && kind != "TabError" {
		return false
	}
	return strings.HasPrefix(t, "File \"") || strings.Count(t, "\n") < 2
}

func isShellSep(c byte) bool { return shellSeps[c] }

// What a separator of shell words does in shellWordsWrite: ends a word only (sepPlain), ends
// a command too (sepCommand: ; | & ( ) ` and a line's end), opens a JSON key's value
// (sepKey: ':'), or escapes the byte after it (sepEscape: '\\', whose escaped n is a line's
// end in a JSON string).
const (
	sepPlain = 1 + iota
	sepCommand
	sepKey
	sepEscape
)

var shellSepKinds = func() (t [256]uint8) {
	for c := range shellSeps {
		if shellSeps[c] {
			t[c] = sepPlain
		}
	}
	for _, c := range ";|&()`\n" {
		t[c] = sepCommand
	}
	t[':'], t['\\'] = sepKey, sepEscape
	return t
}()

var shellSeps = func() (t [256]bool) {
	for _, c := range " \t\n\r\"';|&(){},:\\`[]" {
		t[c] = true
	}
	return t
}()

// nullDevice says whether a redirection's target is Windows' null device (nul, NUL) or
// PowerShell's ($null): a name followed by the end of a word.
func nullDevice(rest []byte) bool {
	for _, name := range [...]string{"nul", "NUL", "Nul", "$null", "$NULL", "$Null"} {
		if len(rest) >= len(name) && string(rest[:len(name)]) == name {
			return len(rest) == len(name) || !wordByte(rest[len(name)])
		}
	}
	return false
}

// wordByte says whether b can go on a file name's word (a letter, a digit, '.', '_', '-').
func wordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}

// redirectsToFile finds an output redirection to a file: '>' or '>>' (or '\u003e', as some
// JSON encoders write it) not followed by '&' or a device that is no file (/dev/null and the
// other /dev/ streams; Windows' nul, PowerShell's $null), and not part of '->', '=>', '<>',
// '>='. A '>' the shell would not read as one is data: inside quotes (HTML posted with `curl
// -d "text=<b>hi</b>"`, a sed pattern 's/>/>\n/g', `python -c "print(a > b)"`) or escaped.
// Taken for writes, such commands reset every chain they ran in (a broken curl sent three
// times went untold).
//
// Arguments in JSON are read as the shell would get them: their escapes decoded (\" is a
// quote to the shell, \\ a backslash), each JSON string a command line of its own.
func redirectsToFile(cmd []byte) bool {
	if bytes.IndexByte(cmd, '>') < 0 && !bytes.Contains(cmd, []byte(`\u003e`)) {
		return false
	}
	a := bytes.TrimLeft(cmd, " \t\r\n")
	inJSON := len(a) > 0 && (a[0] == '{' || a[0] == '[')
	var single, double, escaped bool // the shell's state
	prev := byte(0)                  // the shell's character before
	for i := 0; i < len(cmd); {
		c, w := cmd[i], 1
		if inJSON {
			if c == '"' {
				// a JSON string starts or ends: the shell's state starts afresh
				single, double, escaped, prev = false, false, false, 0
				i++
				continue
			}
			if c == '\\' {
				c, w = jsonEscape(cmd[i:])
			}
		}
		switch {
		case escaped:
			escaped = false
		case c == '#' && !single && !double && (prev == 0 || prev == ' ' || prev == '\t' || prev == '\n' || prev == ';' || prev == '&' || prev == '|'):
			// A comment runs to the line's end: its apostrophe opens no quote ("# Let's
			// write the config" read so hid the "> config.yml" of the next line).
			i = commentEnd(cmd, i, inJSON)
			prev = '\n'
			continue
		case c == '\\' && !single:
			escaped = true
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		case c == '>' && !single && !double && prev != '-' && prev != '=' && prev != '<':
			if redirectTarget(cmd[i+w:]) {
				return true
			}
		}
		prev = c
		i += w
	}
	return false
}

// commentEnd is where the shell comment that starts at i ends: at the line's end, a newline
// or, in JSON, an escaped one ("\n"), which is left for the caller to read.
func commentEnd(cmd []byte, i int, inJSON bool) int {
	for ; i < len(cmd); i++ {
		switch {
		case cmd[i] == '\n':
			return i
		case inJSON && cmd[i] == '"':
			return i // the string's end
		case inJSON && cmd[i] == '\\' && i+1 < len(cmd):
			if cmd[i+1] == 'n' {
				return i
			}
			i++ // an escaped byte: \" does not end the string
		}
	}
	return i
}

// redirectTarget says whether what follows a redirection's '>' names a file (see
// redirectsToFile): not '&' (2>&1), '=' (>=), a device, or the end of the line or string.
func redirectTarget(rest []byte) bool {
	for {
		r := bytes.TrimLeft(rest, "> \t")
		if !bytes.HasPrefix(r, []byte(`\u003e`)) {
			rest = r
			break
		}
		rest = r[6:] // the second '>' of '>>', escaped
	}
	return !(len(rest) == 0 || rest[0] == '&' || rest[0] == '=' || rest[0] == '"' ||
		bytes.HasPrefix(rest, []byte(`\u0026`)) || // '&' as Go's JSON encoder writes it: 2\u003e\u00261
		bytes.HasPrefix(rest, []byte("/dev/")) || nullDevice(rest))
}

// jsonEscape decodes the JSON escape at the start of b (b[0] is a backslash): the byte it
// stands for (0 for a character outside ASCII, a space for \b and \f) and its length.
func jsonEscape(b []byte) (c byte, width int) {
	if len(b) < 2 {
		return b[0], 1
	}
	if b[1] == 'u' && len(b) >= 6 {
		if r := jsonscan.Hex4(b, 2); r >= 0 && r < 0x80 {
			return byte(r), 6
		}
		return 0, 6
	}
	switch e := jsonscan.ShortEscape[b[1]]; e {
	case 0:
		return b[1], 2 // not an escape JSON knows: the byte escaped
	case '\b', '\f':
		return ' ', 2
	default:
		return e, 2
	}
}
