package transcript

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// What `codex exec` prints when it runs without --json, which CI jobs and benchmark harnesses
// keep as the run's log:
//
//	OpenAI Codex v0.114.0 (research preview)
//	--------
//	workdir: /repo
//	model: gpt-5.4
//	--------
//	user
//	fix the build
//	codex
//	I'll look at the failing step first.
//	exec
//	/bin/zsh -lc 'npm run build' in /repo exited 2 in 1.52s:
//	error TS2304: Cannot find name 'x'.
//	tool github.get_issue({"number":12})
//	github.get_issue({"number":12}) success in 312ms:
//	{ ... }
//	file update
//	M /repo/src/a.ts
//	@@ ...
//	apply_patch(auto_approved=true) exited 0 in 12ms:
//	Success. Updated the following files:
//	tokens used
//	12,345
//
// Each block opens with a header line of its own ("user", "codex", "thinking", "exec", "file
// update", "tokens used"...). A command's line names it, the folder it ran in, and its exit
// status; Codex prints at most the first 20 lines of what it wrote, with no mark that it cut,
// so an output of 20 lines may say more than is shown and is left unknown. An MCP tool's call
// is "tool server.tool(arguments)" and then its invocation again with "success" or "failed".
// A patch is the changes under "file update", then apply_patch's exit status and its words.
// A web search is "🌐 Searched: <query>", what it found not printed. Commands begun together
// are printed glued ("... in /repo" + "exec"), and their ends name no command: what each said
// is not known.
// Releases before the autumn of 2025 put the time before each header ("[2025-08-31T12:37:08]
// exec bash -lc 'ls' in /repo", its end "[...] bash -lc 'ls' succeeded in 5ms:") and the
// user's prompt under "User instructions:"; both layouts are read.

// codexExecShownLines is how many lines of an output codex exec prints.
const codexExecShownLines = 20

// codexExecStamp is the time an older release put before each header.
var codexExecStamp = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT[0-9:.]+Z?\] `)

// codexExecEnd reads a command's or a patch's closing words: " succeeded in 5ms:", " exited 1
// in 1.2s:".
var codexExecEnd = regexp.MustCompile(` (succeeded|exited (-?\d+)) in [0-9][^:]*:$`)

// codexExecToolEnd reads an MCP call's closing words: "server.tool({...}) success in 12ms:".
var codexExecToolEnd = regexp.MustCompile(`\) (success|failed) in [0-9][^:]*:$`)

// isCodexExecHead says whether the start of a file is codex exec's banner: "OpenAI Codex v"
// and a version on one of its first lines (after "Reading prompt from stdin..." when the
// prompt came that way), then the "--------" that opens its settings.
func isCodexExecHead(head []byte) bool {
	lines := bytes.SplitN(head, []byte("\n"), 6)
	for k := 0; k+1 < len(lines) && k < 4; k++ {
		l := codexExecStamp.ReplaceAll(bytes.TrimRight(lines[k], "\r"), nil)
		if bytes.HasPrefix(l, []byte("OpenAI Codex v")) && len(l) > 14 && '0' <= l[14] && l[14] <= '9' {
			return bytes.HasPrefix(bytes.TrimRight(lines[k+1], "\r"), []byte("--------"))
		}
	}
	return false
}

// codexExecHeader says whether l (its time cut off) opens a block.
func codexExecHeader(l string) bool {
	switch l {
	case "user", "codex", "thinking", "exec", "file update", "file update:", "tokens used", "Plan update",
		"context compacted", "task interrupted", "User instructions:":
		return true
	}
	// (Not Codex's "ERROR: " and "warning: " lines, which a program's output has too.)
	for _, p := range [...]string{"mcp startup:", "mcp: ", "collab ", "tokens used:", "apply_patch(",
		"apply_patch auto_approved=", "🌐 ", "viewed image ", "codex session "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	if strings.HasPrefix(l, "tool ") && strings.HasSuffix(l, ")") || strings.HasPrefix(l, "exec ") && strings.Contains(l, " in ") {
		return true
	}
	return codexExecEnd.MatchString(l) || codexExecToolEnd.MatchString(l)
}

func readCodexExecText(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	raw := bytes.Split(lfLines(data), []byte("\n"))
	lines := make([]string, len(raw))
	for k, l := range raw {
		lines[k] = codexExecStamp.ReplaceAllString(renderTerminalLine(l), "")
	}
	b := newBuilder(FormatCodexExecText)
	a := b.agent(MainAgent)
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "OpenAI Codex v") {
		i++
	}
	// the settings, between two rules
	for rules := 0; i < len(lines) && rules < 2; i++ {
		if strings.HasPrefix(lines[i], "--------") {
			rules++
		}
	}
	var patch []string // the changes of the patch under way ("file update")
	for i < len(lines) {
		l := lines[i]
		switch {
		case l == "user" || l == "User instructions:":
			said, next := codexExecBody(lines, i+1)
			a.user(said, 0)
			i = next
		case l == "codex" || l == "thinking":
			said, next := codexExecBody(lines, i+1)
			if said != "" {
				a.text("model", said, "", 0)
			}
			i = next
		case l == "exec" && i+1 < len(lines):
			if group, next := codexExecParallel(lines, i+1); len(group) > 1 {
				// Commands begun together: their ends name no command, so what each said is
				// not known.
				for _, cmd := range group {
					call := loopguard.Call("", "exec_command", codexExecArgs(cmd))
					call.Turn = "p" + strconv.Itoa(i)
					a.add(call)
				}
				i = next
				continue
			}
			i = codexExecCommand(a, lines, i+1, lines[i+1])
		case strings.HasPrefix(l, "exec ") && strings.Contains(l, " in "):
			// the older layout: the command on the header's line, its end on a line of its own
			i = codexExecCommand(a, lines, i, strings.TrimPrefix(l, "exec "))
		case strings.HasPrefix(l, "tool ") && strings.HasSuffix(l, ")"):
			i = codexExecTool(a, lines, i, strings.TrimPrefix(l, "tool "))
		case l == "file update" || strings.HasPrefix(l, "apply_patch auto_approved="):
			patch, i = nil, i+1
			for i < len(lines) && !codexExecHeader(lines[i]) {
				patch = append(patch, lines[i])
				i++
			}
		case strings.HasPrefix(l, "apply_patch(") && codexExecEnd.MatchString(l):
			m := codexExecEnd.FindStringSubmatch(l)
			said, next := codexExecBody(lines, i+1)
			call := loopguard.Call("", "apply_patch", []byte(strings.Join(patch, "\n")))
			a.add(call.WithResult(said, m[1] != "succeeded" && m[2] != "0"))
			patch, i = nil, next
		case strings.HasPrefix(l, "🌐 Searched: "):
			// a web search, what it found not printed
			a.add(loopguard.Call("", "web_search", marshalArgs(map[string]string{"query": strings.TrimPrefix(l, "🌐 Searched: ")})))
			i++
		default:
			i++ // a header of what is no call ("tokens used", "mcp startup: ..."), or its lines
		}
	}
	return b.done(), nil
}

// codexExecBody returns the lines from lines[i] up to the next header, joined, and the index
// of that header.
func codexExecBody(lines []string, i int) (string, int) {
	j := i
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++
	}
	return strings.TrimSpace(strings.Join(lines[i:j], "\n")), j
}

// codexExecCommand reads the command whose line is lines[i] (or, in the older layout, the
// header's line, whose end follows on a line of its own), adds the call, and returns the
// index after its output.
func codexExecCommand(a *agentBuf, lines []string, i int, line string) int {
	m := codexExecEnd.FindStringSubmatchIndex(line)
	head := line
	if m != nil {
		head = line[:m[0]]
	}
	if k := strings.LastIndex(head, " in "); k >= 0 {
		head = head[:k] // the folder it ran in
	}
	call := loopguard.Call("", "exec_command", codexExecArgs(head))
	if m == nil && i+1 < len(lines) {
		// The older layout's end: "bash -lc 'ls' succeeded in 5ms:", the command again.
		if e := codexExecEnd.FindStringSubmatchIndex(lines[i+1]); e != nil && strings.TrimSpace(lines[i+1][:e[0]]) == strings.TrimSpace(head) {
			i++
			line, m = lines[i], e
		}
	}
	if m == nil {
		a.add(call) // its end not printed: the run stopped while it ran
		return i + 1
	}
	status := line[m[2]:m[3]]
	failed := status != "succeeded" && line[m[4]:m[5]] != "0"
	j := i + 1
	for j < len(lines) && j-i-1 < codexExecShownLines && !codexExecHeader(lines[j]) {
		j++
	}
	if j-i-1 >= codexExecShownLines {
		// Codex printed its first 20 lines: the rest is not known, nor whether there was more.
		a.add(call)
		for j < len(lines) && !codexExecHeader(lines[j]) {
			j++ // lines beyond what Codex prints are no part of the output
		}
		return j
	}
	a.add(call.WithResult(strings.TrimRight(strings.Join(lines[i+1:j], "\n"), "\n "), failed))
	return j
}

// codexExecParallel reads the commands begun together from lines[i]: codex exec prints a
// command's start with no line break after it, so that the next one's "exec" is glued to it
// ("sed -n '1,220p' a.md in /repo" + "exec"), the last one's line taking the first end to
// come. It returns the commands, without their folders, and the index after the lines that
// belong to them: their outputs and the ends printed on lines of their own (" succeeded in
// 0ms:"), up to the next header.
func codexExecParallel(lines []string, i int) ([]string, int) {
	var group []string
	for ; i < len(lines); i++ {
		l := lines[i]
		glued := strings.HasSuffix(l, "exec") && !codexExecEnd.MatchString(l) && strings.Contains(l, " in ")
		if glued {
			l = strings.TrimSuffix(l, "exec")
		}
		if m := codexExecEnd.FindStringIndex(l); m != nil {
			l = l[:m[0]]
		}
		if k := strings.LastIndex(l, " in "); k >= 0 {
			l = l[:k]
		}
		group = append(group, l)
		if !glued {
			break
		}
	}
	if len(group) < 2 {
		return group, i
	}
	i++
	for i < len(lines) && (!codexExecHeader(lines[i]) || strings.HasPrefix(lines[i], " ") && codexExecEnd.MatchString(lines[i])) {
		i++
	}
	return group, i
}

// codexExecArgs is the arguments of a command as codex exec prints it: a shell's `-lc` and the
// script, unquoted ("/bin/zsh -lc 'rg --files'"), as Codex's rollouts keep it, or else the
// command line.
func codexExecArgs(cmd string) []byte {
	for _, sh := range [...]string{"/bin/zsh -lc ", "/bin/bash -lc ", "bash -lc ", "zsh -lc ", "/bin/sh -lc ", "sh -lc ", "/usr/bin/bash -lc "} {
		if script, ok := strings.CutPrefix(cmd, sh); ok {
			return marshalArgs(map[string]any{"command": []string{strings.TrimSuffix(strings.TrimSuffix(sh, " "), " -lc"), "-lc", shellWord(script)}})
		}
	}
	return marshalArgs(map[string]any{"command": cmd})
}

// shellWord reads s as one word of a shell's command line: quoted parts unquoted, escapes in
// double quotes and outside quotes resolved. What follows the word, if anything, is kept as
// it is written.
func shellWord(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		switch c := s[i]; c {
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return s // not one word after all
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 2
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("\"\\$`\n", s[j+1]) >= 0 {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return s
			}
			i = j + 1
		case '\\':
			if i+1 < len(s) {
				b.WriteByte(s[i+1])
			}
			i += 2
		case ' ', '\t':
			return b.String() + s[i:]
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// codexExecTool reads the MCP call at lines[i] (invocation: "server.tool({...})"), adds it,
// and returns the index after its result.
func codexExecTool(a *agentBuf, lines []string, i int, invocation string) int {
	open := strings.IndexByte(invocation, '(')
	if open <= 0 {
		return i + 1
	}
	call := loopguard.Call("", invocation[:open], []byte(strings.TrimSpace(invocation[open+1:len(invocation)-1])))
	j := i + 1
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++ // what came between (nothing, as a rule)
	}
	if j >= len(lines) || !strings.HasPrefix(lines[j], invocation[:open+1]) || !codexExecToolEnd.MatchString(lines[j]) {
		a.add(call) // its end not printed
		return j
	}
	failed := codexExecToolEnd.FindStringSubmatch(lines[j])[1] == "failed"
	k := j + 1
	for k < len(lines) && k-j-1 < codexExecShownLines && !codexExecHeader(lines[k]) {
		k++
	}
	if k-j-1 >= codexExecShownLines {
		a.add(call) // its first 20 lines printed: the rest not known
		for k < len(lines) && !codexExecHeader(lines[k]) {
			k++
		}
		return k
	}
	a.add(call.WithResult(strings.TrimSpace(strings.Join(lines[j+1:k], "\n")), failed))
	return k
}
