package loopguard

// Telling a failure from a result's text, and following a command that fails the same way
// across edits (the errors rule across changes of the workspace).

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unsafe"

	"github.com/loopguard/loopguard/internal/codexcell"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// failureMarks are what a failing program prints, for hosts that do not say whether a call
// failed (SWE-agent, a script that catches its own exception and exits 0).
//
// Windows shells have their own: PowerShell places a parse or run error "At line:1 char:9",
// and both it and cmd.exe say a command "is not recognized as" one; PowerShell ends every error
// record with "+ FullyQualifiedErrorId : CommandNotFoundException" (or the error's own id), in
// English whatever the machine's language, while the rest is translated (a Russian Windows
// machine's `Имя "python" не распознано как имя командлета`, under a Codex header that said
// the command succeeded: validation round r195b G3); Codex's apply_patch says
// "apply_patch verification failed:" when the patch does not fit the file. Python refuses to
// start a module it cannot find in one line of its own ("/usr/bin/python: No module named
// pytest", no traceback, no exit code in the text), as a shell does a command. npm ends every
// command it could not complete with where it logged it ("npm error A complete log of this
// run can be found in: ...", "npm ERR! ..." before npm 10), the one line its failures share;
// its words after the prefix are the mark, looked for at the colons as "Error:" is. Roo Code
// answers an apply_diff that applied only some of its parts "Changes successfully applied to
// x: But unable to apply all diff parts to file: ..., silently use <read_file> tool to check
// newest file version and re-apply diffs": the edit did not go as sent, and a Roo run re-read an
// unchanged file between six such answers, three of them to the same diff, untold, each taken
// for a change of the workspace (validation round r248a L1).
//
// A shell and the C library speak the machine's language: bash under a Chinese locale says
// "mvn：未找到命令" where it would say "mvn: command not found" (a real Codex run, validation
// round r92b), so the two commonest shell failures are also known in the languages agents
// are most often run in.
var failureMarks = []string{"Traceback (most recent call last)", "Error:", "error:", "ERROR", "FAILED",
	"Exception:", "panic:", "fatal:", "command not found", "No such file or directory", "<tool_use_error>",
	"At line:", "not recognized as", "FullyQualifiedErrorId", "verification failed:", "failed to parse function arguments:",
	": No module named ",
	"A complete log of this run can be found in:",
	"unable to apply all diff parts to file:",
	"未找到命令", "没有那个文件或目录", // zh_CN
	"コマンドが見つかりません", "そのようなファイルやディレクトリはありません", // ja
	"Kommando nicht gefunden", "Datei oder Verzeichnis nicht gefunden", // de
	"commande introuvable", "Aucun fichier ou dossier de ce type", // fr
	"no se encontró la orden", "No existe el archivo o el directorio", // es
	"команда не найдена", "Нет такого файла или каталога"} // ru

// looksFailed says whether a result reads as a failure: one of failureMarks in its last 2 KB,
// where a traceback or a test summary ends.
//
// A nonzero exit status in the text says so too ("Process exited with code 1", Codex's header;
// "Exit Code: 3", Gemini CLI's; "exit status 2", Go's): hosts that pass on only the text (a
// proxy, Codex's hooks) would otherwise see a failing command as one that ran fine. Tools
// report it in the first or the last lines, so only the first and last exitWindow bytes are
// looked at. So does a small JSON answer whose own fields report an error (reportsErrorField).
func looksFailed(result string) bool {
	if reportsExitFailure(result) {
		return true
	}
	window := markWindow(result)
	return hasFailureMark(window) || reportsErrorField(result) || opensWithFailure(result) || mcpResultReprFailed(result) ||
		errorDoingLine(window) || dashNotFoundLine(window) || shellRefused(result) || serviceRefused(result)
}

// maxRefusal is the longest answer serviceRefused reads: a service's refusal is one sentence.
const maxRefusal = 240

// serviceRefused says whether a short answer is a service's word that it did not serve the
// request, or could not be reached ("error connecting to ...", "... due to a connection
// error", on its first line), or is one line in which a service says it did not serve it: an HTTP status of a client's or a server's error given as why a request
// failed ("API request failed with status 400", a wrapper of a web API; Axios's "Request
// failed with status code 404"), or a plea to try again later ("Rate limit exceeded. Please
// try again later.", "Google search Timeout/Error, return None, Please try again later.").
// Tools that wrap web APIs pass these on as their whole answer, with no failure flag: nine
// calls to a DEX price API and eight web searches of MCP-Bench runs read as answers
// (validation round r167a W3, W5). Longer answers are documents, which may quote such words.
func serviceRefused(result string) bool {
	if len(result) > maxRefusal || len(result) < 20 {
		return false
	}
	line, more, _ := strings.Cut(strings.TrimSpace(result), "\n")
	line = strings.TrimRight(strings.TrimSpace(line), ".!")
	if strings.HasPrefix(line, "error connecting to ") || strings.HasSuffix(line, "due to a connection error") {
		// gh's "error connecting to api.github.com" (then its advice to check the
		// connection), an MCP server's "Could not retrieve GST data due to a connection
		// error." (validation round r169a W5, W6)
		return true
	}
	if more != "" {
		return false
	}
	if strings.HasSuffix(line, "try again later") {
		return true
	}
	// The status ends the line: only then is it why the request failed.
	if len(line) < 3 || !isDigits(line[len(line)-3:]) || line[len(line)-3] != '4' && line[len(line)-3] != '5' {
		return false
	}
	lead := strings.TrimSuffix(line[:len(line)-3], "code ")
	return strings.HasSuffix(lead, "failed with status ")
}

// errorDoingLine says whether a line of s opens as errorDoing reads a failure: a program's
// word under the command line that a terminal's copy echoes above it ("edobry@Mac minsky %
// bun run src/cli.ts session start", then "Error starting session: ...").
func errorDoingLine(s string) bool {
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "Error ")
		if k < 0 {
			return false
		}
		at := i + k
		if (at == 0 || s[at-1] == '\n') && errorDoing(s[at:]) {
			return true
		}
		i = at + 1
	}
	return false
}

// objectKeyAt says whether the word that ends with a mark at s[at:] is a key of an object
// printed as JavaScript writes one: the word, after "{ " or ", ". Node prints a module's
// exports so ("{ SqliteError: [class SqliteError extends Error] }"), and an agent checking
// that a package loads read as failing (validation round r167a W1: 20 calls in 19 runs). An
// exception's line opens a line or follows a word ("TypeError: x", "Uncaught TypeError: x"),
// and a key that is the mark itself ("{ error: 'ENOENT' }") still reports an error.
func objectKeyAt(s string, at int) bool {
	k := at
	for k > 0 && (isWordByte(s[k-1]) || s[k-1] == '$') {
		k--
	}
	// A longer word than the mark's (SqliteError, not Error): "none, Error: x" is prose.
	return k < at && k >= 2 && s[k-1] == ' ' && (s[k-2] == '{' || s[k-2] == ',')
}

// caughtAsExpected says whether the mark at s[at:] follows the word "expected" after another
// word on its line: a check's script reporting the error it was written to provoke ("Caught
// expected error: Invalid vmin or vmax", "Got expected error: ...") reports a check that
// passed. A mini-swe-agent run was told "bash failed × 5" at the run that printed the value it
// was after, exit code 0, its last line that one (validation round r241a F1). "unexpected"
// is no such word, and neither is "Expected" opening a line: "Expected error: ValueError"
// over "Got: None" is what a failing check prints.
func caughtAsExpected(s string, at int) bool {
	const word = "expected "
	k := at - len(word)
	return k >= 2 && s[k:at] == word && s[k-1] == ' ' && 'a' <= s[k-2]|0x20 && s[k-2]|0x20 <= 'z'
}

// dashNotFoundLine says whether s holds a line in which dash, the /bin/sh of Debian and
// Ubuntu, reports a command it could not find: the shell or script, the line's number, the
// command, then "not found" ("sh: 1: cmake: not found", "./run.sh: 3: java: not found").
// Bash says "command not found", which failureMarks holds; dash's words are only "not found",
// which many outputs hold, so the line's whole shape is checked.
func dashNotFoundLine(s string) bool {
	const tail = ": not found"
	return anyOccurrence(s, tail, func(i int) bool {
		end := i + len(tail)
		if end < len(s) && s[end] != '\n' && s[end] != '\r' {
			return false // a line ends after the words
		}
		line := s[strings.LastIndexByte(s[:i], '\n')+1 : i] // "sh: 1: cmake"
		prog, rest, ok := strings.Cut(line, ": ")
		if !ok || prog == "" || strings.IndexByte(prog, ' ') >= 0 {
			return false
		}
		num, name, ok := strings.Cut(rest, ": ")
		return ok && num != "" && isDigits(num) && name != "" && strings.IndexByte(name, ' ') < 0
	})
}

// mcpResultReprFailed says whether a result is the MCP Python SDK's printed form of a tool's
// result (`meta=None content=[TextContent(type='text', text='...', annotations=None)]
// isError=True`, which a Python harness logs with str()) whose flag says the call failed, or
// whose text is itself a failed result of a tool behind it (`"isError": true` in the JSON a
// gateway passes on). LiveMCPBench logs every result so: 10 of 14 failures its host flagged,
// and 35 of 90 behind its gateway, read as successes (validation round r97b U1).
func mcpResultReprFailed(result string) bool {
	if !strings.HasPrefix(result, "meta=") && !strings.HasPrefix(result, "content=[") && !strings.HasPrefix(result, "CallToolResult(") {
		return false
	}
	body := strings.TrimRight(result, " \t\r\n)")
	return strings.HasSuffix(body, "isError=True") || strings.Contains(result, `"isError": true`) || strings.Contains(result, `"isError":true`)
}

// reportsExitFailure says whether the first or the last exitWindow bytes of a result report a
// nonzero exit status (see looksFailed), or a harness's first line does ("rc=1": rcLine).
func reportsExitFailure(result string) bool {
	if _, nonzero := rcLine(result); nonzero {
		return true
	}
	if len(result) <= exitWindow {
		return reportsNonzeroExit(result)
	}
	return reportsNonzeroExit(result[:exitWindow]) || reportsNonzeroExit(result[len(result)-exitWindow:])
}

// endsWithSuccess says whether a result's last line is a program's own verdict that it
// finished well, and the call did not print that line itself: "Done." (EF Core's tools, many
// scripts), yarn's "Done in 3.2s.", Gradle's "BUILD SUCCESSFUL in 3s", MSBuild's "Build
// succeeded.", unittest's and JUnit's "OK", "OK (12 tests)". Such a program logged an error
// it got over (EF Core's design-time host prints a fatal HostAbortedException and its stack on
// every `dotnet ef database update`, then "Done."): the marks above the verdict are not its
// failure. A program that fails says so last; a verdict the call's own command echoes (`python
// x.py; echo Done`) says nothing of the program; and an exit status, where the text has one,
// decides before any of this (looksFailed).
func endsWithSuccess(result string, args []byte) bool {
	if pytestPassed(result) {
		return true
	}
	last := lastLine(result)
	// What opens the line before its words: a tick, yarn's sparkles.
	i := 0
	for i < len(last) && !('A' <= last[i] && last[i] <= 'Z' || 'a' <= last[i] && last[i] <= 'z') {
		i++
	}
	last = strings.TrimSpace(last[i:])
	word := "" // the verdict's fixed word, which a command that echoes it must hold
	switch last {
	case "Done", "Done.", "Done!":
		word = "Done"
	case "OK":
		word = "OK"
	case "Build succeeded", "Build succeeded.":
		word = "succeeded"
	}
	for _, p := range [...]struct{ prefix, word string }{{"Done in ", "Done"}, {"BUILD SUCCESSFUL", "SUCCESSFUL"}, {"OK (", "OK"}} {
		if word == "" && strings.HasPrefix(last, p.prefix) {
			word = p.word
		}
	}
	return word != "" && !holdsWord(args, word)
}

// pytestPassed says whether an answer ends with pytest's closing summary of a run with no
// failure: "===== 3 passed, 1 warning in 0.12s =====" (also "in 0.01 seconds", pytest before
// 5), its counts only of passed, skipped, expected failures, deselected tests, warnings and
// reruns. That line is pytest's verdict on the run; a line above it that reads as a failure is
// what the tests printed (a reproduction script printing the exception it caught, "LookupError:
// A", then "1 passed": validation round r169a W1). Below the summary only SWE-agent's status
// lines may follow ("(Open file: n/a)", "(Current directory: /w)", "bash-$").
func pytestPassed(result string) bool {
	tail := result[max(0, len(result)-512):]
	for tail != "" {
		tail = strings.TrimRight(tail, " \t\r\n")
		nl := strings.LastIndexByte(tail, '\n')
		line := strings.TrimSpace(tail[nl+1:])
		tail = tail[:max(nl, 0)]
		if line == "bash-$" || strings.HasPrefix(line, "(") && strings.HasSuffix(line, ")") {
			continue // SWE-agent's status lines after every answer
		}
		if !strings.HasPrefix(line, "=") || !strings.HasSuffix(line, "=") {
			return false
		}
		counts, _, ok := strings.Cut(strings.Trim(line, "= "), " in ")
		if !ok {
			return false
		}
		passed := false
		for counts != "" {
			var part string
			part, counts, _ = strings.Cut(counts, ", ")
			n, word, ok := strings.Cut(part, " ")
			if !ok || !isDigits(n) {
				return false
			}
			switch word {
			case "passed":
				passed = true
			case "skipped", "xfailed", "xpassed", "deselected", "warning", "warnings", "rerun", "reruns":
			default:
				return false // failed, error, errors: the run did not pass
			}
		}
		return passed
	}
	return false
}

// holdsWord says whether the arguments hold word as a word of its own (not "OK" inside
// "WEBHOOK"), as a command that prints the verdict itself does (`echo Done`, `echo "Done in
// ${SECONDS}s"`).
func holdsWord(args []byte, word string) bool {
	s := unsafe.String(unsafe.SliceData(args), len(args))
	for i := 0; ; {
		k := strings.Index(s[i:], word)
		if k < 0 {
			return false
		}
		at := i + k
		end := at + len(word)
		if (at == 0 || !isWordByte(s[at-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = at + 1
	}
}

// maxErrorEnvelope is the largest JSON answer reportsErrorField reads: an error envelope is
// small, and a large JSON answer is data (a listing, a document) whose fields say nothing of
// the call; reading every such answer whole would cost more than the rest of the call.
const maxErrorEnvelope = 16 << 10

// reportsErrorField says whether result is one JSON object, of at most maxErrorEnvelope
// bytes, that reports a failure in its own fields, as structured tools answer (MCP servers,
// HTTP APIs, function-calling harnesses). Such a tool ran and returned; its answer says the
// call did not do what was asked, with no mark in words for looksFailed to find (`"error_type":
// "tool:execution_failed"`, `{"error": "Timeout error", "response": ""}`).
//
// An explicit flag decides: "isError" or "is_error" (true: failed), else "success" or "ok"
// (false: failed; true: not, whatever else it carries, as {"ok": true, "warnings": ...}).
// Without one, a non-empty "error" or "errors" (GraphQL), "error_type", "errorType",
// "error_message" or "errorMessage" fails it, and so does a "status" of "error", "fail",
// "failed" or "failure" (any case) beside a "message", "detail" or "reason" that explains it
// (JSend's {"status": "error", "message": ...}); a status alone may be what was asked for (a
// job's). An empty, blank or null error field is a success's. Between the flags and the error
// fields, a process's exit status decides: an "exit_code", "exitCode", "returncode" or
// "return_code" number, failed when not 0. A Codex code-mode cell that prints what its
// exec_command returned ({"exit_code": 127, "output": "/bin/bash: mvn：未找到命令"}) reports its
// command's failure there and nowhere else a reader of English would see it (validation round
// r92b U2).
func reportsErrorField(result string) bool {
	result = strings.Trim(shellOutputBody(result), " \t\r\n")
	if len(result) < 2 || len(result) > maxErrorEnvelope || result[0] != '{' || result[len(result)-1] != '}' {
		return false
	}
	// Most objects name none of these fields (a key written with escapes is read in full).
	if !strings.Contains(result, "rror") && !strings.Contains(result, `"success"`) && !strings.Contains(result, `"ok"`) &&
		!strings.Contains(result, `"status"`) && !strings.Contains(result, "xit") && !strings.Contains(result, "eturn") &&
		strings.IndexByte(result, '\\') < 0 {
		return false
	}
	b := unsafe.Slice(unsafe.StringData(result), len(result))
	var f answerFields
	end, err := jsonscan.Object(b, 0, jsonscan.Strict, func(key []byte, _ jsonscan.Flags, v int) (int, error) {
		end, err := jsonscan.Skip(b, v, jsonscan.Strict, 0)
		if err == nil {
			f.note(unescaped(key), b[v:end])
		}
		return end, err
	})
	return err == nil && jsonscan.SkipSpace(b, end) == len(b) && f.failed()
}

// shellOutputBody returns what the command printed when result is laid out as Gemini CLI's
// shell tool lays out its answer: "Output: " and the printed text, then lines of its own
// ("Exit Code: 1", "Process Group PGID: 17340"; older releases open with "Command: " and
// "Directory: " lines). Otherwise it returns result. An API's error envelope that curl printed
// is the same failure whichever host ran curl: under Gemini CLI's labels it read as a success
// (validation round r103c M1).
func shellOutputBody(result string) string {
	const label = "Output: "
	if len(result) < len(label) || result[0] != 'O' && result[0] != 'C' { // most answers: one look
		return result
	}
	body, ok := strings.CutPrefix(result, label)
	if !ok {
		if !strings.HasPrefix(result, "Command: ") {
			return result
		}
		i := strings.Index(result[:min(len(result), 4096)], "\n"+label)
		if i < 0 {
			return result
		}
		body = result[i+1+len(label):]
	}
	// The host's own lines close the answer; the printed text may hold lines of any kind.
	for {
		i := strings.LastIndexByte(body, '\n')
		if i < 0 || !isShellTrailerLine(body[i+1:]) {
			return body
		}
		body = body[:i]
	}
}

// isShellTrailerLine says whether line is one that Gemini CLI's shell tool writes after a
// command's output.
func isShellTrailerLine(line string) bool { return startsWithOneOf(line, shellTrailers[:]) }

// shellTrailers open the lines Gemini CLI's shell tool writes after a command's output.
var shellTrailers = [...]string{"Error: (none)", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: "}

// startsWithOneOf says whether s opens with one of prefixes.
func startsWithOneOf(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// jsonErrorMessage returns what a JSON answer's error says: its "error", "error_message" or
// "errorMessage" string (an "error" object's own such string, or its "message", "detail" or
// "reason", one level down), else the "message", "detail" or "reason" string beside it; ""
// for any other answer, and for one of more than maxErrorEnvelope bytes. A tool that wraps
// every failure in one envelope ({"status": "error", "tool": "apply_patch", "error": "No
// files were modified."}) says its failures in that field: its first lines are the
// envelope's, the same for every failure, and four different rejections of a patch were
// taken for one failure by them (validation round r59d F1). The text returned is read in
// place when it holds no escape: a failing call allocates nothing for it.
func jsonErrorMessage(result string) string {
	result = strings.Trim(result, " \t\r\n")
	if len(result) < 2 || len(result) > maxErrorEnvelope || result[0] != '{' || result[len(result)-1] != '}' {
		return ""
	}
	b := unsafe.Slice(unsafe.StringData(result), len(result))
	errText, other, end, err := errorFields(b, 0, true)
	if err != nil || jsonscan.SkipSpace(b, end) != len(b) {
		return ""
	}
	if t := strings.TrimSpace(errText); t != "" {
		return t
	}
	return strings.TrimSpace(other)
}

// errorFields reads the object at b[i] for jsonErrorMessage: its error string, its message
// (detail, reason) string, and where the object ends. nested says whether an "error" object
// is read for its own strings; the one inside it is not.
func errorFields(b []byte, i int, nested bool) (errText, other string, end int, err error) {
	end, err = jsonscan.Object(b, i, jsonscan.Strict, func(key []byte, f jsonscan.Flags, v int) (int, error) {
		end, err := jsonscan.Skip(b, v, jsonscan.Strict, 0)
		if err != nil {
			return end, err
		}
		name := unsafe.String(unsafe.SliceData(key), len(key))
		if f&jsonscan.Escaped != 0 {
			name = unescaped(key)
		}
		switch name {
		case "error", "error_message", "errorMessage":
			switch {
			case errText != "":
			case b[v] == '"':
				errText = jsonStringView(b[v:end])
			case b[v] == '{' && nested:
				if e, o, _, err := errorFields(b, v, false); err == nil {
					errText = cmp.Or(strings.TrimSpace(e), o)
				}
			}
		case "message", "detail", "reason":
			if other == "" && b[v] == '"' {
				other = jsonStringView(b[v:end])
			}
		}
		return end, nil
	})
	return errText, other, end, err
}

// jsonStringView is jsonString read in place: the string value's body itself when it holds
// no escape (no copy), else its decoded text.
func jsonStringView(val []byte) string {
	if len(val) < 2 || val[0] != '"' {
		return ""
	}
	body := val[1 : len(val)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(body), len(body))
	}
	return unescaped(body)
}

// answerFields is what the members of a JSON answer say of its outcome (reportsErrorField).
type answerFields struct {
	errFlag, okFlag     int8 // isError/is_error, success/ok: 0 absent, 1 true, -1 false
	exit                int8 // a process's exit status: 0 absent, 1 not 0, -1 0
	errorNamed          bool // a non-empty error field
	statusFailed, cause bool // a failed status; a message, detail or reason beside it
}

func (f *answerFields) failed() bool {
	switch {
	case f.errFlag != 0:
		return f.errFlag > 0
	case f.okFlag != 0:
		return f.okFlag < 0
	case f.exit != 0:
		return f.exit > 0
	}
	return f.errorNamed || f.statusFailed && f.cause
}

// note records what the member key: val says.
func (f *answerFields) note(key string, val []byte) {
	flag := func() int8 {
		switch string(val) {
		case "true":
			return 1
		case "false":
			return -1
		}
		return 0
	}
	switch key {
	case "isError", "is_error":
		if v := flag(); v != 0 {
			f.errFlag = v
		}
	case "success", "ok":
		if v := flag(); v != 0 && f.okFlag == 0 {
			f.okFlag = v
		}
	case "error", "errors", "error_type", "errorType", "error_message", "errorMessage":
		f.errorNamed = f.errorNamed || errorValue(val)
		f.cause = f.cause || key == "error"
	case "exit_code", "exitCode", "returncode", "return_code":
		if f.exit == 0 && (val[0] == '-' || '0' <= val[0] && val[0] <= '9') {
			// a number (a string, or null, is no exit status); one out of float64's range is
			// not 0
			f.exit = 1
			if n, err := strconv.ParseFloat(string(val), 64); err == nil && n == 0 {
				f.exit = -1
			}
		}
	case "status":
		switch strings.ToLower(jsonString(val)) {
		case "error", "fail", "failed", "failure":
			f.statusFailed = true
		}
	case "message", "detail", "reason":
		f.cause = true
	}
}

// errorValue says whether an error field's value names an error: not null, false, 0, a blank
// string or an empty object or list.
func errorValue(val []byte) bool {
	switch val[0] {
	case 'n', 'f': // null, false
		return false
	case 't':
		return true
	case '"':
		return strings.TrimSpace(jsonString(val)) != ""
	case '{', '[':
		_, more, _ := jsonscan.Open(val, 0)
		return more
	}
	n, err := strconv.ParseFloat(string(val), 64) // an error code; 0 is none
	return err != nil || n != 0
}

// jsonString returns the text of a JSON string value, its escapes decoded ("" for another
// value).
func jsonString(val []byte) string {
	if len(val) < 2 || val[0] != '"' {
		return ""
	}
	return unescaped(val[1 : len(val)-1])
}

// unescaped is the text of a JSON string's body (a key's, a value's), its escapes decoded.
func unescaped(body []byte) string {
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	out, _ := jsonscan.AppendUnescaped(nil, body, jsonscan.Strict)
	return string(out)
}

// withoutForeignNotFound returns result without its last line when that line is zsh saying
// it found no command that the call's arguments never name: the harness's own shell hook
// failing after the command, not the command. Cursor's terminal ends every command's output
// with "zsh:1: command not found: dump_zsh_state"; read as the command's failure, every
// command failed, and failed the same way (a `git push` that went through was told as a
// command failing alike). Only that line goes: a command the arguments name ("bash:
// applypatch: command not found" for `applypatch < fix.diff`) is the call's own failure, and
// so is one missing inside what the call ran (a script's "run_tests.sh: line 4: pytest:
// command not found", npm's "sh: jest: command not found"), which is neither zsh's wording
// nor, for a program that reports its failure, the output's last line.
//
// Cursor's bash hook says it so too, from a shell run as `bash -c '...' --` and so named "--":
// "--: line 1: dump_bash_state: command not found", often after another complaint of its own
// ("--: line 20: cannot create temp file for here-document: Permission denied"). That
// shell's lines at the end go together (validation round r156a U1: every command of six
// sessions read as failed); no command a call runs is named "--".
func withoutForeignNotFound(result string, args []byte) string {
	body := strings.TrimRight(result, " \t\r\n")
	start := strings.LastIndexByte(body, '\n') + 1
	last := body[start:]
	hookShell := strings.HasPrefix(last, "--: ")
	switch {
	case hookShell:
		if !strings.HasSuffix(last, ": command not found") {
			return result
		}
	case strings.HasPrefix(last, "zsh:"):
		if !strings.Contains(last, "command not found: ") {
			return result
		}
	default:
		return result
	}
	if name := notFoundCommand(last); name == "" || namedIn(args, name) {
		return result
	}
	for hookShell && start > 0 {
		prev := strings.LastIndexByte(body[:start-1], '\n') + 1
		if !strings.HasPrefix(body[prev:start], "--: ") {
			break
		}
		start = prev
	}
	return result[:start]
}

// startupFiles are the files a shell reads as it starts (login and interactive shells, bash
// and zsh): a line of one of them that fails is reported with the file's path ("/home/u/
// .bash_profile: line 1: souce: command not found", "/root/.bashrc: line 9: /opt/ros/setup.bash:
// No such file or directory", "/home/u/.zshrc:12: command not found: nvm") before every
// command the shell runs.
var startupFiles = [...]string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile",
	".zshenv", ".zlogin", "/etc/profile", "/etc/bash.bashrc", "/etc/zshrc"}

// pageConsoleHeadings open the part of a browser tool's answer that lists what the page
// logged to its console: Playwright MCP's "### Events" (and "### New console messages"
// before it), one item a line: "- [ERROR] Failed to load resource: ... @ url:0",
// "- [WARNING] OTS parsing error: invalid sfntVersion ...".
var pageConsoleHeadings = [...]string{"### Events\n", "### New console messages\n", "### Console\n"}

// withoutPageConsole returns result without the page's console messages under
// pageConsoleHeadings: the page's words, not the tool's. A page that logs "OTS parsing error:"
// whenever it loads made eight navigations that worked read as failed, and four of them as
// one navigation failing four times (validation round r110a U1, F1). What the tool itself
// says of a failure ("### Result\nTimeoutError: ...") stands outside that part, and stays.
func withoutPageConsole(result string) string {
	for _, h := range pageConsoleHeadings {
		at := strings.Index(result, h)
		if at < 0 {
			continue
		}
		start := at + len(h)
		end := start
		// the part's lines, each an item ("- "), up to the first that is not: the messages,
		// and where the tool saved the rest ("- New console entries: .playwright-mcp/...")
		for end < len(result) && strings.HasPrefix(result[end:], "- ") {
			nl := strings.IndexByte(result[end:], '\n')
			if nl < 0 {
				end = len(result)
				break
			}
			end += nl + 1
		}
		if end > start {
			return withoutPageConsole(result[:start] + result[end:])
		}
	}
	return result
}

// withoutStartupFileErrors returns result without the lines in which the shell reports a
// failing line of its own startup files (startupFiles): the environment's complaint, the same
// before whatever command runs, not the command's. A user profile's typo made four runs of a
// program, each after an edit, one command failing the same way. A call that names the file
// (`source ~/.bashrc`, an edit of it) is answered by its own errors, and keeps them.
func withoutStartupFileErrors(result string, args []byte) string {
	var out strings.Builder
	kept := 0 // the end of what is written to out, or copied: result[:kept] is settled
	for start := 0; start < len(result); {
		end := strings.IndexByte(result[start:], '\n')
		if end < 0 {
			end = len(result)
		} else {
			end += start + 1
		}
		if file := startupFileOf(result[start:end]); file != "" && !bytes.Contains(args, []byte(file)) {
			if out.Len() == 0 {
				out.Grow(len(result))
			}
			out.WriteString(result[kept:start])
			kept = end
		}
		start = end
	}
	if kept == 0 {
		return result
	}
	out.WriteString(result[kept:])
	return out.String()
}

// withoutSiteErrors returns result without the blocks in which Python's site module reports a
// .pth file it could not process at the interpreter's start ("Error processing line 1 of
// .../distutils-precedence.pth:", a traceback, "Remainder of file ignored"): printed before
// every Python program of that environment, whatever it then does, as a shell's complaints
// about its startup files are (four different `python3 -c` probes, each printing that block
// and then its own answer, read as one `ModuleNotFoundError` four times; validation round
// r159b).
func withoutSiteErrors(result string) string {
	const head, tail = "Error processing line ", "Remainder of file ignored"
	var out strings.Builder
	rest := result
	for {
		i := strings.Index(rest, head)
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], tail)
		if j < 0 {
			break
		}
		if k := strings.IndexByte(rest[i:], '\n'); k < 0 || !strings.HasSuffix(strings.TrimRight(rest[i:i+k], "\r"), ".pth:") {
			break // not the site module's report
		}
		j += i + len(tail)
		if j < len(rest) && rest[j] == '\n' {
			j++
		}
		out.WriteString(rest[:i])
		rest = rest[j:]
	}
	if out.Len() == 0 && len(rest) == len(result) {
		return result
	}
	out.WriteString(rest)
	return out.String()
}

// startupFileOf returns the startup file (its name as in startupFiles) whose failing line the
// shell reports in line ("<path>: line N: ..." for bash, "<path>:N: ..." for zsh), or "".
func startupFileOf(line string) string {
	colon := strings.IndexByte(line, ':')
	if colon <= 0 {
		return ""
	}
	path, rest := line[:colon], line[colon+1:]
	if !strings.HasPrefix(rest, " line ") && (rest == "" || rest[0] < '0' || rest[0] > '9') {
		return ""
	}
	for _, f := range startupFiles {
		// a dotfile wherever the home folder is ("/home/u/.bashrc", "~/.bashrc"); a system
		// file at its place
		if path == f || f[0] == '.' && strings.HasSuffix(path, "/"+f) {
			return f
		}
	}
	return ""
}

// hasStartupFileError says whether a window of a result may hold a line of startupFileOf: one
// look for each file's name followed by the colon of a report.
func hasStartupFileError(window string) bool {
	for _, f := range startupFiles {
		if strings.Contains(window, f+":") {
			return true
		}
	}
	return false
}

// namedIn says whether the arguments hold name, as written or with their backslashes left
// out: `echo -e "...bash\ndocker..."` run where -e is not understood makes the shell look for
// a command "bashndocker", which is the call's own text.
func namedIn(args []byte, name string) bool {
	if bytes.Contains(args, []byte(name)) {
		return true
	}
	for i := range args {
		j, k := i, 0
		for j < len(args) && k < len(name) {
			if args[j] == '\\' {
				j++
				continue
			}
			if args[j] != name[k] {
				break
			}
			j++
			k++
		}
		if k == len(name) {
			return true
		}
	}
	return false
}

// notFoundCommand returns the command a shell's line says it did not find: zsh's "zsh:1:
// command not found: X", bash's and dash's "bash: X: command not found", "sh: 1: X: command
// not found", "bash: line 3: X: command not found"; "" for another line.
func notFoundCommand(line string) string {
	i := strings.Index(line, "command not found")
	if i < 0 {
		return ""
	}
	var name string
	if after := line[i+len("command not found"):]; strings.HasPrefix(after, ":") {
		name = after[1:]
	} else if before := strings.TrimRight(line[:i], " "); strings.HasSuffix(before, ":") {
		before = strings.TrimRight(before[:len(before)-1], " ")
		name = before[strings.LastIndexAny(before, ": ")+1:]
	}
	return strings.Trim(name, " \t\r\n'\"`")
}

// markWindow is the end of a result that is read for failureMarks: its last 2 KB. A tool
// says what went wrong last, after whatever it printed before failing.
func markWindow(result string) string {
	if len(result) > markWindowSize {
		return result[len(result)-markWindowSize:]
	}
	return result
}

// markWindowSize is how much of a result's end markWindow keeps.
const markWindowSize = 2048

// failureOpenings are how a tool's result opens when the tool reports its own failure in the
// text: OpenHands' editor ("ERROR:" on a line of its own), Claude Code's <tool_use_error>, a
// harness that could not run the call ("Error during execution: invalid syntax", BFCL's;
// "Error running tool kubectl_create: ...", "Error executing tool list_sheets: ...", MCP
// clients'), a
// script's traceback, git's "fatal:", Codex refusing a patch or a call's arguments, a shell
// tool saying it stopped a command that ran out of time (Qwen Code: "Command timed out after
// 30000ms before it could complete. Below is the output before it timed out:", recorded with
// a status of success and no exit code; Codex: "command timed out after 10000 milliseconds";
// a harness that gave up waiting for a tool: LiveMCPBench's "Tool call timed out."; Gemini
// CLI's "Command was automatically cancelled because it exceeded the timeout of 5.0 minutes
// without output", recorded with a status of success: validation round r101c; SWE-agent 0.x's
// "EXECUTION TIMED OUT", its whole answer to a command it killed, which a Java run met nine
// times for one `apt-get install`, fixes of the package sources between, untold: validation
// round r165a M1), or mini-swe-agent's <exception> tag, which heads an answer only when running
// the command raised (a timeout: "An error occurred while executing the command: Command ...
// timed out after 60 seconds"); Docker's CLI refusing what its daemon answered ("Error
// response from daemon: No such container: app"); Claude Code's refusal of a call its
// permissions do not allow ("Permission for this tool use was denied. The tool use was
// rejected ..."), which it flags as failed where its record keeps the flag.
var failureOpenings = append([]string{"ERROR", "Error:", "error:", "<tool_use_error>", "<error>", "<exception>",
	"Error during execution:", "Error executing tool ", "Error running tool ", "Error invoking tool ", "Error calling tool ",
	"Traceback (most recent call last)", "fatal:", "apply_patch verification failed", "failed to parse function arguments",
	"Your proposed edit has introduced new syntax error", "[Your proposed edit has introduced new syntax error",
	"Error response from daemon:", "Permission for this tool use was denied"}, timeoutOpenings[:]...)

// timeoutOpenings open the answers in which a harness says it stopped a command that ran out
// of time (see failureOpenings).
var timeoutOpenings = [...]string{"Command timed out after ", "command timed out after ", "Tool call timed out", "Tool execution timed out",
	"Command was automatically cancelled because it exceeded the timeout", "EXECUTION TIMED OUT"}

// cutShort says whether an answer opens with a harness's word that it could not run the
// command to its end, white space aside: it ran out of time (timeoutOpenings,
// cancelledForTime), or the harness itself failed to execute it (SWE-agent 0.x's "EXECUTION
// FAILED OR COMMAND MALFORMED"). Such an answer is the harness's, not the command's: the same
// command run again may end otherwise.
func cutShort(result string) bool {
	i := execHeaderEnd(result)
	i += leadingSpace(result[i:])
	rest := result[i:]
	if rest == "" || rest[0] != 'C' && rest[0] != 'c' && rest[0] != 'T' && rest[0] != 'E' {
		return false // most answers: one look
	}
	for _, m := range timeoutOpenings {
		if strings.HasPrefix(rest, m) {
			return true
		}
	}
	return strings.HasPrefix(rest, "EXECUTION FAILED OR COMMAND MALFORMED") || cancelledForTime(rest)
}

// openingFirsts flags the first bytes of failureOpenings.
var openingFirsts = func() (t [256]bool) {
	for _, m := range failureOpenings {
		t[m[0]] = true
	}
	t['T'] = true // "Tool x not found" (opensWithFailure), "The path x does not exist" (editorRefused), "The command 'x' was cancelled" (cancelledForTime)
	t['F'] = true // "File content (n tokens) exceeds ..." (readRefusedForSize)
	t['I'] = true // "Invalid `view_range`" (editorRefused)
	t['u'] = true // "usage: prog [-h] ..." (usageRefused)
	t['U'] = true // "Usage: open <file> [<line_number>]" (usageRefused)
	t['H'] = true // "HTTP/1.1 503 Service Unavailable" (serverFailed)
	return t
}()

// opensWithFailure says whether result opens with one of failureOpenings, white space aside.
// Unlike looksFailed it does not search the text: a successful edit shows what it wrote, and
// code often holds "Error:".
func opensWithFailure(result string) bool {
	if strings.HasPrefix(result, codexcell.Failed) {
		return true // a code-mode cell that threw: its host's own word
	}
	i := execHeaderEnd(result) // the output's opening, not the harness's header over it
	i += leadingSpace(result[i:])
	if i >= len(result) {
		return false
	}
	if !openingFirsts[result[i]] {
		// Most answers open with no opening's first byte: one look. Pydantic's count of
		// errors opens with a digit, as many answers do ("12: ok"), and is read apart, so
		// that those do not go through every opening.
		if c := result[i]; c < '1' || c > '9' {
			return false
		}
		j := i + 1
		for j < len(result) && j < i+3 && result[j] >= '0' && result[j] <= '9' {
			j++
		}
		return j+1 < len(result) && result[j] == ' ' && result[j+1] == 'v' && argumentsInvalid(result[i:])
	}
	for _, m := range failureOpenings {
		if strings.HasPrefix(result[i:], m) {
			// "Error: (none)" opens with a mark and says there was none (see emptyFieldAt)
			return !strings.HasSuffix(m, ":") || !emptyFieldAt(result[i+len(m):])
		}
	}
	// A harness that knows no tool of the name it was sent: "Tool web_search not found in
	// agent Assistant" (the OpenAI Agents SDK's words).
	if rest, ok := strings.CutPrefix(result[i:], "Tool "); ok {
		line, _, _ := strings.Cut(rest, "\n")
		return strings.Contains(line[:min(len(line), 200)], " not found")
	}
	return editorRefused(result[i:]) || usageRefused(result[i:]) || serverFailed(result[i:]) || errorDoing(result[i:]) ||
		cancelledForTime(result[i:]) || readRefusedForSize(result[i:])
}

// argumentsInvalid says whether an answer opens with pydantic's report that a value did not
// validate ("1 validation error for execute_bashArguments", "2 validation errors for
// searchArguments", then each field and why): MCP servers built on FastMCP check a call's
// arguments (the model named Arguments) and a tool's output (Output) so, and the tool did not
// run or its answer was thrown away. Hosts that pass the text on keep no failure flag for it.
func argumentsInvalid(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 3 {
		return false
	}
	rest := s[i:]
	return strings.HasPrefix(rest, " validation error for ") || strings.HasPrefix(rest, " validation errors for ")
}

// readRefusedForSize says whether an answer opens with Claude Code's refusal to read a file
// too big for one answer ("File content (82402 tokens) exceeds maximum allowed tokens (25000).
// Please use offset and limit parameters ..."): nothing of the file was read. Claude Code
// flags it as failed where its record keeps the flag.
func readRefusedForSize(s string) bool {
	if !strings.HasPrefix(s, "File content (") {
		return false
	}
	line, _, _ := strings.Cut(s[:min(len(s), 256)], "\n")
	return strings.Contains(line, ") exceeds maximum allowed tokens")
}

// cancelledForTime says whether an answer opens with a harness's sentence that it stopped the
// command for running too long, quoting the command first: SWE-agent's "The command '<command>'
// was cancelled because it took more than 30 seconds." and mini-swe-agent's (1.x) "The last
// command <command>...</command> timed out and has been killed." The command did not finish;
// what it printed before may follow, but no exit status, so the sentence is all that says so.
// The quoted command may hold anything, line breaks too, so the sentence's rest is looked for
// within the opening's first 8 KB.
func cancelledForTime(s string) bool {
	var rest string
	switch {
	case strings.HasPrefix(s, "The command '"):
		rest = "' was cancelled because it took more than "
	case strings.HasPrefix(s, "The last command <command>"):
		rest = "</command> timed out and has been killed"
	default:
		return false
	}
	return strings.Contains(s[:min(len(s), 8192)], rest)
}

// errorDoing says whether an answer opens with a program's word that what it was doing failed:
// "Error", what it was doing (a word ending in "ing", perhaps after "while" or "when", and up
// to four words more), and a colon, on the first line ("Error starting session: The
// "paths[0]" property must be of type string", "Error reading config: open x: permission
// denied", "Error while connecting to database: ..."), as command-line tools print a failure
// (validation round r141c M1: a CLI's own failure, the same after each of three edits, read
// as output). "Error rate: 0.1%" or "Error count: 0" name no doing, and are not failures.
func errorDoing(s string) bool {
	rest, ok := strings.CutPrefix(s, "Error ")
	if !ok {
		return false
	}
	line, _, _ := strings.Cut(rest[:min(len(rest), 120)], "\n")
	lead, _, ok := strings.Cut(line, ":")
	if !ok {
		return false
	}
	words := strings.Fields(lead)
	if len(words) > 0 && (words[0] == "while" || words[0] == "when") {
		words = words[1:]
	}
	if len(words) == 0 || len(words) > 5 || len(words[0]) < 5 || !strings.HasSuffix(words[0], "ing") {
		return false
	}
	for _, c := range words[0] {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// usageRefused says whether an answer is a command-line parser's refusal of its arguments, as
// Python's argparse writes it: the program's usage, then "<program>: error: ..." ("usage:
// str_replace_editor [-h] ...", "str_replace_editor: error: unrecognized arguments: [1060,
// 1220]"). The program never ran; SWE-agent keeps no exit status, and three such views in a
// row read as views answered (validation round r136a U1). A usage printed on request has no
// such error line. SWE-agent's own commands say it their way: "Usage: open <file>
// [<line_number>]", then "Error: <line_number> must be a number" on the next line (a model
// that opened module names that do not exist for 68 calls had each such refusal read as a
// view, validation round r173a).
func usageRefused(s string) bool {
	if rest, ok := strings.CutPrefix(s, "Usage: "); ok {
		_, next, _ := strings.Cut(rest[:min(len(rest), 512)], "\n")
		return strings.HasPrefix(next, "Error: ")
	}
	rest, ok := strings.CutPrefix(s, "usage: ")
	if !ok {
		return false
	}
	prog, _, _ := strings.Cut(rest[:min(len(rest), 200)], " ")
	if prog == "" || strings.ContainsAny(prog, "\n\t") {
		return false
	}
	return strings.Contains(s[:min(len(s), 4096)], "\n"+prog+": error: ")
}

// editorRefused says whether an answer opens with a file editor's refusal of what it was
// asked, in the words of the str_replace_editor family (Anthropic's text editor tool, as
// SWE-agent, OpenHands and memory tools implement it): an argument it will not take ("Invalid
// `view_range`: [2500, 2550]. Its second element ...", "Invalid `path` parameter: hello.py.
// The path should be an absolute path"), or a path it cannot use ("The path /testbed/x.py does
// not exist. Please provide a valid path.", "The path x.py is not an absolute path"). Hosts
// that keep no failure flag left these as successes, so the same refused view made again read
// as a view answered alike, not as a failure repeated (validation rounds r131c U1, r131a U4).
func editorRefused(s string) bool {
	if rest, ok := strings.CutPrefix(s, "Invalid `"); ok {
		name, _, found := strings.Cut(rest[:min(len(rest), 40)], "`")
		return found && name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz_") == ""
	}
	rest, ok := strings.CutPrefix(s, "The path ")
	if !ok {
		return false
	}
	line, _, _ := strings.Cut(rest[:min(len(rest), 512)], "\n")
	return strings.Contains(line, " does not exist. Please provide a valid path") || strings.Contains(line, " is not an absolute path")
}

// lintRejection reads an edit refused by the linter a harness runs on every edit (SWE-agent's
// and its descendants'): the errors it listed under "ERRORS:", one "- CODE message" a line,
// hashed in order, and the file the edit was for, named by the "[File: path (N lines total)]"
// header of the listing that shows how the edit would have looked (the errors with their
// digits left out: see below). Either is 0 when the answer does not hold it. The edit command
// names no file (it edits the one open), so the answer is where the file is told. counted is
// how many errors with a code the list holds (lintCode), 0 when one of them says the file did
// not parse (flake8's E9 codes: E999 SyntaxError, IndentationError): such a file is not read
// for any other error, and its one line is no count of what is left to fix.
//
// Two rejections that list different errors are two failures: the model fixed what the first
// listed, and the edit met something else (an undefined name after an indentation error).
// Taken for one failure by their shared first sentence, four rejections of edits to two
// files, each listing other errors, were told as the edit failing alike, one call before the
// edit landed (testdata/labels: sympy-11870, Tester). Rejections of one file still make one
// chain however they differ (see followOutcome's sameFile): an edit that cannot land in a
// file is a loop whatever the linter says of each try, unless each try leaves fewer errors
// (counted) than any before it.
func lintRejection(result string) (errs, file uint64, counted int) {
	at := strings.Index(result, "\nERRORS:\n- ")
	if at < 0 {
		return 0, 0, 0
	}
	rest := result[at+len("\nERRORS:\n"):]
	// An error is known by its code and words, not by where it was found: the same edit
	// tried again a few lines lower reports "unexpected indent at line 24", then 25.
	h := uint64(fnvOffset64)
	for strings.HasPrefix(rest, "- ") {
		line, next, _ := strings.Cut(rest, "\n")
		for i := 0; i < len(line); i++ {
			if c := line[i]; c < '0' || c > '9' {
				h = (h ^ uint64(c)) * fnvPrime64
			}
		}
		h = (h ^ '\n') * fnvPrime64
		rest = next
		if code := lintCode(line); code != "" && counted >= 0 {
			counted++
			if strings.HasPrefix(code, "E9") {
				counted = -1 // the file did not parse
			}
		}
	}
	counted = max(counted, 0)
	errs = mix64(h) | 1
	if i := strings.Index(rest, "\n[File: "); i >= 0 {
		name := rest[i+len("\n[File: "):]
		if end := strings.Index(name[:min(len(name), 4096)], " ("); end > 0 {
			var fh textHasher // as editFileKey hashes a file named in the arguments
			fh.write(name[:end])
			file = fh.sum() | 1
		}
	}
	return errs, file, counted
}

// lintCode returns the code of a linter's error line ("- F821 undefined name 'x'", "- line 24
// col 5: E999 IndentationError: ...": F821, E999), or "" for a line of the list without one:
// Python's own warnings about the file's untouched lines ("- SyntaxWarning: invalid escape
// sequence"), which an edit elsewhere neither makes nor mends, and the lines of the linter's
// own traceback when it crashed. Those are no count of what the edit left to fix.
func lintCode(line string) string {
	rest := strings.TrimPrefix(line, "- ")
	if strings.HasPrefix(rest, "line ") {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			rest = after
		}
	}
	i := 0
	for i < len(rest) && i < 3 && rest[i] >= 'A' && rest[i] <= 'Z' {
		i++
	}
	j := i
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if i == 0 || j == i || j >= len(rest) || rest[j] != ' ' {
		return ""
	}
	return rest[:j]
}

// serverFailed says whether an answer opens with an HTTP status line of a server error
// ("HTTP/1.1 503 Service Unavailable", "HTTP/2 502"), as a raw request (nc, curl -i) prints
// the response: the request was not served, whatever page follows. A model sent ten different
// requests to a CTF's service whose backend was down, each answered with the same 503 page,
// and was not told (validation round r119b M1).
func serverFailed(s string) bool {
	rest, ok := strings.CutPrefix(s, "HTTP/")
	if !ok {
		return false
	}
	k := 0
	for k < len(rest) && k < 4 && (rest[k] >= '0' && rest[k] <= '9' || rest[k] == '.') {
		k++
	}
	if k == 0 || len(rest) < k+4 || rest[k] != ' ' || rest[k+1] != '5' || !isDigits(rest[k+2:k+4]) {
		return false
	}
	return len(rest) == k+4 || rest[k+4] == ' ' || rest[k+4] == '\r' || rest[k+4] == '\n'
}

// targetAlreadyGone says whether a call that stops a process or a background job was answered
// that what it would stop is not running: a tool named for killing (Claude Code's KillShell,
// KillBash), or a command line whose program is kill, pkill, killall, taskkill or PowerShell's
// Stop-Process, answered in its opening that the target "is not running", "No such process",
// "no process found", "not found" or has "already" stopped. What the call was for holds, so
// it did not fail: a sweep stopping ten background shells, some of them ended already, was
// told as one command failing alike (validation round r103a F1). The same dead shell killed
// again and again is still the same call answered alike (stuck).
func targetAlreadyGone(tool string, args []byte, result string) bool {
	if !stopsProcesses(tool, args) {
		return false
	}
	head := result[:min(len(result), 512)]
	if strings.Contains(head, "command not found") || dashNotFoundLine(head) {
		// The stopping program itself is missing ("bash: killall: command not found"): it
		// stopped nothing, whatever "not found" says (11 such killalls in pochi runs were
		// read as stopping targets already gone, found by an audit of the result texts that
		// recur across the validation populations).
		return false
	}
	for _, w := range goneWords {
		if strings.Contains(head, w) {
			return true
		}
	}
	return false
}

// stopsProcesses says whether a call stops processes or background jobs: a tool named for
// killing (Claude Code's KillShell, KillBash), or a command line whose program is kill, pkill,
// killall, taskkill or PowerShell's Stop-Process.
func stopsProcesses(tool string, args []byte) bool {
	if containsFold(tool, "kill") {
		return true
	}
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	p := programOf(line)
	return isOneOf(p, killPrograms[:]) || bytes.EqualFold(p, []byte("Stop-Process"))
}

// stoppedItsOwnShell says whether a call that stops processes was answered, and only so, that
// it exited by a signal: one line reporting an exit status of 129 to 192, 128 and a signal's
// number. The shell that ran it was among what it stopped, as `pkill -f netlify` stops the
// shell whose own command line holds "netlify" (Claude Code answers "Exit code 144"), and the
// processes it was sent to were signalled with it. Anything more in the answer (a permission
// refused, a usage message) is read as it says.
func stoppedItsOwnShell(tool string, args []byte, result string) bool {
	line := strings.TrimSpace(result)
	if len(line) > 64 || strings.IndexByte(line, '\n') >= 0 || !reportsNonzeroExit(line) {
		return false
	}
	j := len(line)
	for j > 0 && line[j-1] >= '0' && line[j-1] <= '9' {
		j--
	}
	code, err := strconv.Atoi(line[j:])
	return err == nil && code > 128 && code <= 192 && stopsProcesses(tool, args)
}

// cancelledWithSibling says whether a call's answer is the host's word that it cancelled the
// call because another call of the reply failed: Claude Code's "Sibling tool call errored"
// and, in later versions, "Cancelled: parallel tool call Bash(…) errored", each inside its
// <tool_use_error> tag (kept or not by the reader).
func cancelledWithSibling(result string) bool {
	if len(result) > 600 {
		return false
	}
	n := len(result)
	for n > 0 && (result[n-1] == ' ' || result[n-1] == '\n' || result[n-1] == '\r' || result[n-1] == '\t') {
		n--
	}
	t := strings.TrimSuffix(result[:n], "</tool_use_error>")
	if !strings.HasSuffix(t, "errored") { // most answers: one look at their end
		return false
	}
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "<tool_use_error>"))
	return t == "Sibling tool call errored" ||
		strings.HasPrefix(t, "Cancelled: parallel tool call ") && strings.HasSuffix(t, ") errored")
}

// ranNothing says whether a failed command's answer says that none of it ran: the shell could
// not parse it (shellRefused), or every line of the answer is the shell not finding a program
// the call names ("DISCUSSION: command not found", "It: command not found" for a model's
// prose sent as the command).
func ranNothing(said string, args []byte) bool {
	if shellRefused(said) {
		return true
	}
	body := withoutTrailers(said)
	if !strings.Contains(body, "not found") {
		return false // most failures: one look
	}
	lines := 0
	for body != "" {
		var line string
		line, body, _ = strings.Cut(body, "\n")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		name := notFoundCommand(line)
		if name == "" || !bytes.Contains(args, []byte(name)) {
			return false
		}
		lines++
	}
	return lines > 0
}

// refusedAsRepeat says whether a host's answer is its refusal to run a call because it is
// the same as the one before (DA-Agent's words).
func refusedAsRepeat(result string) bool {
	return strings.HasPrefix(strings.TrimLeft(result, " \t\r\n"), "The action is the same as the last one")
}

// killPrograms are the programs that stop processes.
var killPrograms = [...]string{"kill", "pkill", "killall", "taskkill"}

// goneWords say that the process or job a call would stop is not there to stop: Claude Code's
// "Shell 622570 is not running, so cannot be killed", bash's "kill: (1234) - No such process",
// killall's "vite: no process found", taskkill's `The process "node.exe" not found.`,
// PowerShell's "Cannot find a process".
var goneWords = [...]string{"is not running", "No such process", "no such process", "no process found", "not found", "Cannot find a process",
	"already stopped", "already exited", "already terminated", "already been killed", "already completed"}

// reportsWriteDone says whether an editor's answer says the file was written, at its start
// (opensWithWriteDone) or, as SWE-agent's edit command does after listing the edited file, in
// its last line: "File updated. Please review the changes and make sure they are correct ...".
// The listing between may hold any mark (a Java file whose comments held "ERROR!" and a
// JsonParseException read as a failed edit; validation round r116c U3).
func reportsWriteDone(result string) bool {
	return opensWithWriteDone(result) || strings.HasPrefix(lastLine(result), "File updated. Please review the changes")
}

// opensWithWriteDone says whether an editor's answer opens with its word that the file was
// written: Claude Code's, SWE-agent's and OpenHands' "The file <path> has been updated." or
// "... has been edited.", "File created successfully at: <path>", and Zed's "Diff: <path>"
// or "Edited <path>:" over what a landed edit changed (fifteen edits whose code held "error"
// read as failed: validation round r112c U3; seven whose debug output held the file's
// "FAILED", r121b U1).
func opensWithWriteDone(result string) bool {
	line := firstLine(result)
	line = line[:min(len(line), 512)]
	if rest, ok := strings.CutPrefix(line, "The file "); ok {
		return strings.Contains(rest, " has been updated") || strings.Contains(rest, " has been edited")
	}
	return strings.HasPrefix(line, "File created successfully at") || strings.HasPrefix(line, "Diff: /") ||
		strings.HasPrefix(line, "Edited ") && strings.HasSuffix(line, ":")
}

// exitWindow is how much of a result's start and end looksFailed reads for an exit status.
const exitWindow = 256

// reportsNonzeroExit says whether s reports a nonzero exit status: "exit", "Exit" or "EXIT",
// then " code", " status" or "ed with code" (any case), or "return code" or "Return code" (a
// terminal server's "Command completed with return code: 1"), then an optional ':', spaces,
// and a number that is not 0; or mini-swe-agent's "<returncode>" tag and such a number.
func reportsNonzeroExit(s string) bool {
	return nonzeroExitAfter(s, "xit") || nonzeroExitAfter(s, "XIT") || nonzeroReturnCode(s) || nonzeroReturncodeTag(s)
}

// nonzeroReturncodeTag says whether s holds mini-swe-agent's "<returncode>N</returncode>", the
// way it heads every command's output, or Claude Code's "<exit_code>N</exit_code>", the way its
// TaskOutput and BashOutput report a background command that ended, with N a nonzero number.
// In a message list the tag is all that says the command failed (a `sed` that exited 1 read
// as a success, validation round r104b U2; a background `go test` whose TaskOutput said
// "<status>failed</status>" and "<exit_code>1</exit_code>", r118a U2).
func nonzeroReturncodeTag(s string) bool {
	if strings.IndexByte(s, '<') < 0 {
		return false // most answers hold no tag at all: one fast look
	}
	return nonzeroAfterTag(s, "<returncode>") || nonzeroAfterTag(s, "<exit_code>")
}

// nonzeroAfterTag says whether s holds tag followed by a nonzero number.
func nonzeroAfterTag(s, tag string) bool {
	return anyOccurrence(s, tag, func(i int) bool { return nonzeroNumberAt(s[i+len(tag):]) })
}

// nonzeroReturnCode says whether s holds "return code" or "Return code" followed by a nonzero
// number (nonzeroNumberAt).
func nonzeroReturnCode(s string) bool {
	const stem = "eturn code"
	return anyOccurrence(s, stem, func(i int) bool {
		return i > 0 && (s[i-1] == 'r' || s[i-1] == 'R') && nonzeroNumberAt(s[i+len(stem):])
	})
}

// nonzeroExitAfter is reportsNonzeroExit for the spellings of "exit" that end in stem.
func nonzeroExitAfter(s, stem string) bool {
	return anyOccurrence(s, stem, func(i int) bool {
		if i == 0 || !(s[i-1] == 'E' || s[i-1] == 'e' && stem[0] == 'x') {
			return false
		}
		rest := s[i+len(stem):]
		for _, tail := range [...]string{" code", " status", "ed with code"} {
			if len(rest) >= len(tail) && strings.EqualFold(rest[:len(tail)], tail) {
				return nonzeroNumberAt(rest[len(tail):])
			}
		}
		return false
	})
}

// anyOccurrence says whether match holds at the index of some occurrence of stem in s. The
// occurrences are read left to right and do not overlap.
func anyOccurrence(s, stem string, match func(i int) bool) bool {
	for from := 0; ; {
		j := strings.Index(s[from:], stem)
		if j < 0 {
			return false
		}
		if match(from + j) {
			return true
		}
		from += j + len(stem)
	}
}

// headerReportsExitZero says whether result opens with a host's header (execHeaderEnd: Codex's
// "Exit code: 0", "Process exited with code 0"; "Command executed successfully"; "rc=0") that reports
// the command exited with status 0.
func headerReportsExitZero(result string) bool {
	n := execHeaderEnd(result)
	if n == 0 {
		return false
	}
	header := result[:n]
	if strings.HasPrefix(header, "Command executed successfully") {
		return true
	}
	if end, nonzero := rcLine(header); end > 0 {
		return !nonzero
	}
	for _, stem := range [...]string{"Exit code: ", "Process exited with code "} {
		if i := strings.Index(header, stem); i >= 0 {
			rest := header[i+len(stem):]
			return len(rest) > 0 && rest[0] == '0' && (len(rest) == 1 || rest[1] < '0' || rest[1] > '9')
		}
	}
	return false
}

// oneProgramDecides says whether the exit status of the command in args is its programs' own:
// no pipe, "||", ";", line break or background "&" (whose status is another program's, or
// none), while "&&" (every step must succeed) and redirections ("2>&1", "&>log") keep it.
// The arguments are read as bytes, their JSON escapes decoded (jsonEscape): "\n" is a line
// break, and "\u0026" the '&' Go's encoder writes. What the shell quotes is no separator: `rg
// "error|warn" src` is one program (validation round r86a U1: a search whose pattern held
// alternatives, answered "Process exited with code 0", was read as failed by the error
// words it found). Only the command line is read when the arguments name one.
//
// Code given to an interpreter in the command itself (`node -e "..."`, `python3 -c`, a
// here-document) is a script written for the moment, whose status is whatever it ends with:
// one that catches a connection error and prints it exits 0 (validation round r86a: eight
// runs of one `node -e` test printing "Error: read ECONNRESET" under "exit code 0").
func oneProgramDecides(args []byte) bool {
	inJSON := len(args) > 0 && (args[0] == '{' || args[0] == '[')
	if _, line, _, ok := commandLine(args); ok && inJSON {
		args = line
	}
	if runsInlineCode(args) {
		return false
	}
	at := func(i int) (byte, int) { // the byte args[i:] stands for, and its width
		if i >= len(args) {
			return 0, 0
		}
		if inJSON && args[i] == '\\' {
			return jsonEscape(args[i:])
		}
		return args[i], 1
	}
	var prev byte
	var q shellQuoting
	for i := 0; i < len(args); {
		c, w := at(i)
		i += w
		if !q.bare(c, !inJSON || w > 1) {
			prev = c
			continue
		}
		switch c {
		case '|', ';', '\n':
			return false
		case '&':
			next, nw := at(i)
			switch {
			case next == '&':
				i += nw // "&&"
			case prev == '>' || next == '>':
				// a redirection: "2>&1", "&>log"
			default:
				return false
			}
		}
		prev = c
	}
	return true
}

// shellQuoting follows a command line's quotes and escapes as the shell reads them, one
// character at a time.
type shellQuoting struct{ single, double, escaped bool }

// bare says whether the shell reads c as itself, outside quotes and not escaped (where '|',
// ';' and '&' separate commands), and takes c into the state. quote says whether a '"' is the
// shell's (in JSON, one written as is ends the string: the shell's are escaped).
func (q *shellQuoting) bare(c byte, quote bool) bool {
	switch {
	case q.escaped: // the shell's backslash: the byte after it is itself
		q.escaped = false
	case q.single:
		q.single = c != '\''
	case c == '\\':
		q.escaped = true
	case c == '"':
		if quote {
			q.double = !q.double
		}
	case q.double:
	case c == '\'':
		q.single = true
	default:
		return true
	}
	return false
}

// inlineCodeFlags are the flags that give an interpreter its code in the command line.
var inlineCodeFlags = []string{"-e", "-c", "-p", "-r", "-E", "--eval", "--print", "--command"}

// interpreters are the programs inlineCodeFlags give code to.
var interpreters = []string{"node", "nodejs", "python", "python3", "python2", "py", "ruby", "perl", "php", "deno", "bun", "pwsh", "powershell", "Rscript", "julia", "lua"}

// runsInlineCode says whether a command line gives an interpreter its code in the line itself:
// an interpreter's name followed by one of inlineCodeFlags, or a here-document ("<<").
// The line is read as written, JSON escapes and all.
func runsInlineCode(line []byte) bool {
	if bytes.Contains(line, []byte("<<")) {
		return true
	}
	prevInterpreter := false
	for i := 0; ; {
		var w []byte
		if w, i = spaceWord(line, i); len(w) == 0 {
			return false
		}
		if prevInterpreter && isOneOf(w, inlineCodeFlags) {
			return true
		}
		prevInterpreter = isInterpreter(w)
	}
}

// isInterpreter says whether a command line's word names one of interpreters, by any path,
// with or without Windows' ".exe" (/usr/bin/python3, C:\Python\python.exe).
func isInterpreter(w []byte) bool {
	if j := bytes.LastIndexAny(w, "/\\"); j >= 0 {
		w = w[j+1:]
	}
	return isOneOf(bytes.TrimSuffix(w, []byte(".exe")), interpreters)
}

// spaceWord returns the word of line that starts at i or after the spaces and tabs there, and
// the index after it; the word is empty at the line's end. Unlike wordEnd, it reads JSON
// escapes as written: an escaped tab is part of a word.
func spaceWord(line []byte, i int) (w []byte, next int) {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	return line[i:j], j
}

// nonzeroNumberAt says whether s starts with an optional ':', spaces, and a number other than 0.
func nonzeroNumberAt(s string) bool {
	i := 0
	if i < len(s) && s[i] == ':' {
		i++
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	return i < len(s) && '1' <= s[i] && s[i] <= '9'
}

// hasFailureMark says whether s holds one of failureMarks.
func hasFailureMark(s string) bool {
	// The marks that end in ':' are looked for at the colons, which are few: searching for
	// "error:" itself stops at every 'e'. The others start with a rarer letter.
	for p := strings.IndexByte(s, ':'); p >= 0; {
		if p > 0 && colonStemEnds[s[p-1]] { // most colons follow no stem's last byte
			for _, stem := range colonMarks {
				if p >= len(stem) && s[p-1] == stem[len(stem)-1] && s[p-len(stem):p] == stem && !emptyFieldAt(s[p+1:]) &&
					!objectKeyAt(s, p-len(stem)) && !caughtAsExpected(s, p-len(stem)) {
					return true
				}
			}
		}
		if p+27 <= len(s) && s[p+2] == 'e' && s[p+1:p+27] == " executable file not found" {
			// Go's os/exec could not find the program to run (`exec: "grep": executable file
			// not found in $PATH`), as hosts written in Go answer a tool whose program is
			// missing: Antigravity's grep_search on a machine without grep (r167a W4).
			return true
		}
		if p+28 <= len(s) && s[p+2] == 'C' && s[p+1:p+28] == " Couldn't connect to server" {
			// curl's words for a connection refused (its error 7), also in its verbose
			// lines when a pipe cut "curl: (7)" off (`curl -v ... 2>&1 | head -10`).
			return true
		}
		if p+28 <= len(s) && s[p+2] == 'n' && s[p+1:p+28] == " no such file or directory:" {
			// zsh's word that what the command names is not there, the path after it: "zsh: no
			// such file or directory: ./mvnw", "cd: no such file or directory: app",
			// "(eval):1: no such file or directory: logs/run.log" for a redirection into a
			// folder that does not exist (validation round r169a W7). Bash writes "No such"
			// after the path. Go's errors end with the words in lower case ("open x: no such
			// file or directory") and are logged by programs that go on: not read.
			return true
		}
		if p+5 <= len(s) && s[p+2] == '*' && s[p+1:p+5] == " ***" && makeStopped(s[:p]) {
			// make's word that it stopped: "make: *** [Makefile:20: test] Error 1", "make[1]:
			// *** No rule to make target 'x'.  Stop." It writes "***" only so.
			return true
		}
		if p >= 9 && s[p-1] >= '0' && s[p-1] <= '9' && typeScriptErrorAt(s, p) {
			return true
		}
		if p >= 1 && s[p-1] == 'E' && (p == 1 || s[p-2] == '\n') && p+1 < len(s) && s[p+1] == ' ' {
			// apt's and dpkg's errors, "E: " opening a line: "E: Unable to locate package
			// default-jdk", "E: Unable to correct problems, you have held broken packages."
			// (their warnings are "W: "). A SWE-agent run on a machine without a network tried
			// some twenty installs, each answered so or timed out, untold (validation round
			// r239a).
			return true
		}
		if p >= 4 && s[p-1] == 'l' && s[p-4:p] == "curl" && strings.HasPrefix(s[p+1:], " (") {
			// curl's report that the transfer failed, its exit status in brackets: "curl:
			// (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to
			// server", "curl: (6) Could not resolve host". Looked for at the colons, as the
			// marks ending in one are.
			return true
		}
		next := strings.IndexByte(s[p+1:], ':')
		if next < 0 {
			break
		}
		p += 1 + next
	}
	// The others are looked for at their rarest byte ('z' of "not recognized as", '_' of
	// "<tool_use_error>"): a search that starts at every 'n' or '<' stops too often. Those
	// written in other scripts than ASCII's are looked for only in a text that has such
	// bytes: most outputs have none, and one pass over them costs less than a search for each.
	marks := narrowMarks
	if hasHighByte(s) {
		marks = otherMarkRare
	}
	for _, mk := range marks {
		m, at, b := mk.mark, mk.at, mk.b
		for q := strings.IndexByte(s, b); q >= 0; {
			if start := q - at; start >= 0 && start+len(m) <= len(s) && s[start:start+len(m)] == m {
				return true
			}
			next := strings.IndexByte(s[q+1:], b)
			if next < 0 {
				break
			}
			q += 1 + next
		}
	}
	return testRunnerFailLine(s)
}

// testRunnerFailLine says whether s holds a test runner's FAIL line: Go's `--- FAIL: TestX
// (0.00s)` for a test and its `FAIL` alone or `FAIL<tab>pkg<tab>0.01s` for a package, Jest's and
// Vitest's ` FAIL  src/a.test.ts` for a file. Such runners print a failing run's verdict so
// and exit 1, and a host that keeps no exit status (SWE-agent, a terminal captured into a chat
// export) leaves nothing else that says the run failed: the same test failing alike after each
// of four edits went untold (validation round r185b P2). The word must open its line, spaces
// aside, and stand alone: "FAILED" is pytest's mark already, "FAIL:" unittest's header of a
// failure it also closes with a tally, and a word in the middle of a line is prose.
// Each such line says that something failed, not what: it is a tally (isTestRunnerVerdict).
func testRunnerFailLine(s string) bool {
	for i := strings.Index(s, "FAIL"); i >= 0; {
		start := strings.LastIndexByte(s[:i], '\n') + 1
		end := strings.IndexAny(s[i:], "\r\n")
		if end < 0 {
			end = len(s) - i
		}
		end += i
		if isTestRunnerVerdict(strings.Trim(s[start:end], " \t")) {
			return true
		}
		next := strings.Index(s[i+4:], "FAIL")
		if next < 0 {
			break
		}
		i += 4 + next
	}
	return false
}

// programComplaint says whether an answer is a program's complaint, as Unix programs write
// one: the program's name, a colon and words of an error on its first line ("awk: syntax error
// at source line 7", "jq: error (at <stdin>:0): Cannot index string with \"x\"", "sed: -e
// expression #1, char 5: unterminated `s' command", "grep: Invalid regular expression",
// "mkdir: cannot create directory 'x': File exists"). None of these has a mark of its own
// (an "error" with no colon after it), and hosts that keep no exit status passed four such awk
// scripts on as answers (validation round r167a W6). The name must be a word of the command,
// so that a line the command prints ("note: invalid input is skipped") is not taken for a
// complaint; and every other line must be the same program's or go on the one above (awk
// shows the text it could not parse on indented lines), as an answer that holds another
// program's output after the complaint (`mkdir out; make`) is a command that went on.
func programComplaint(result string, args []byte) bool {
	i := execHeaderEnd(result)
	i += leadingSpace(result[i:])
	if i >= len(result) || result[i] < 'a' || result[i] > 'z' {
		return false // programs' names open with a lower-case letter; most answers do not
	}
	body := result[i:]
	k := 0
	for k < len(body) && k < 32 && (isWordByte(body[k]) || body[k] == '-' || body[k] == '_' || body[k] == '.') {
		k++
	}
	if k+2 > len(body) || body[k] != ':' || body[k+1] != ' ' {
		return false
	}
	prog := body[:k]
	first, rest, _ := strings.Cut(body, "\n")
	if !saysError(first[k+2:]) || !holdsWord(args, prog) {
		return false
	}
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '\r' {
			continue
		}
		if len(line) <= k || line[:k] != prog || line[k] != ':' {
			return false
		}
	}
	return true
}

// namedTargetMissing says whether an answer opens with a tool's word that the file or the
// directory the call names is not there: SWE-agent's commands answer so ("File dvc/url.py not
// found" from open, "Directory src not found" from search_dir and find_file), with no exit
// status and, in some exports, no failure flag (validation round r169a W2, W3: 95 opens of
// missing files read as answered). A search whose place to look is missing never searched: it
// did not find nothing (its answer to that is another line, "No matches found for ...").
func namedTargetMissing(result string, args []byte) bool {
	t := result[leadingSpace(result):]
	var rest string
	switch {
	case strings.HasPrefix(t, "File "):
		rest = t[len("File "):]
	case strings.HasPrefix(t, "Directory "):
		rest = t[len("Directory "):]
	default:
		return false
	}
	line, _, _ := strings.Cut(rest[:min(len(rest), 512)], "\n")
	target, ok := strings.CutSuffix(strings.TrimRight(line, " \r."), " not found")
	target = strings.Trim(target, "'\"`")
	return ok && target != "" && namedIn(args, target)
}

// complaintWords are words that say a program could not do what it was asked, in the lines
// Unix programs write to complain (programComplaint); "warning:" lines are not complaints.
var complaintWords = [...]string{"error", "invalid", "illegal", "unterminated", "unrecognized", "unknown option",
	"cannot", "can't", "failed", "missing"}

// saysError says whether a program's complaint (what follows "name: ") holds one of
// complaintWords, in any case, as a word's start, within its first 200 bytes.
func saysError(s string) bool {
	if strings.HasPrefix(s, "warning") {
		return false
	}
	s = s[:min(len(s), 200)]
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		c := s[i] | 0x20
		for _, w := range complaintWords {
			if c == w[0] && len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// makeStopped says whether before, what precedes a colon followed by " ***", ends with make's
// name as it heads its lines: "make", "gmake", "mingw32-make", with its depth of recursion
// ("make[2]"), at the start of a line.
func makeStopped(before string) bool {
	line := before[strings.LastIndexByte(before, '\n')+1:]
	if strings.HasSuffix(line, "]") {
		open := strings.LastIndexByte(line, '[')
		if open < 0 || !isDigits(line[open+1:len(line)-1]) {
			return false
		}
		line = line[:open]
	}
	name, ok := strings.CutSuffix(line, "make")
	return ok && (name == "" || name == "g" || strings.HasSuffix(name, "-")) && strings.IndexByte(name, ' ') < 0
}

// typeScriptErrorAt says whether the colon at s[p] ends the TypeScript compiler's name of an
// error ("src/a.ts(3,5): error TS2322: Type 'string' is not assignable ...", "src/a.ts:3:5 -
// error TS2322: ..."). tsc --noEmit prints these and nothing else: piped through head, with no
// exit status kept, type checks that failed read as output (57 answers in 42 runs of the
// validation populations, most of them pochi's).
func typeScriptErrorAt(s string, p int) bool {
	k := p
	for k > 0 && p-k < 6 && s[k-1] >= '0' && s[k-1] <= '9' {
		k--
	}
	return k < p && k >= 8 && s[k-8:k] == "error TS"
}

// emptyFieldAt says whether rest, what follows a mark's colon, says there was none: spaces,
// then "(none)", "none", "None", "null" or "nil", then the line's end. Gemini CLI ends every
// shell result with such fields ("Error: (none)", "Signal: (none)"): its successful commands
// would otherwise all read as failed.
func emptyFieldAt(rest string) bool {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	end := i
	for end < len(rest) && rest[end] != '\n' && rest[end] != '\r' {
		end++
	}
	switch rest[i:end] {
	case "(none)", "none", "None", "null", "nil":
		return true
	}
	return false
}

// colonStemEnds flags the last bytes of colonMarks.
var colonStemEnds = func() (t [256]bool) {
	for _, stem := range colonMarks {
		t[stem[len(stem)-1]] = true
	}
	return t
}()

// hasHighByte says whether s holds a byte above 0x7f (a character outside ASCII), 8 bytes at
// a time.
func hasHighByte(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if loadWord(s, i)&highs != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// rareMark is one of otherMarks with its rarest byte and where that stands in it.
type rareMark struct {
	mark string
	b    byte
	at   int
}

// narrowMarks are the otherMarkRare whose rarest byte is ASCII: a mark in another script has
// its rarest byte above 0x7f, and a text without such bytes cannot hold it.
var narrowMarks = func() (t []rareMark) {
	for _, m := range otherMarkRare {
		if m.b < 0x80 {
			t = append(t, m)
		}
	}
	return t
}()

// otherMarkRare is, for each of otherMarks, its rarest byte and where it stands in the mark,
// by a rough order of how often bytes come in program output (rarest last).
var otherMarkRare = func() (t []rareMark) {
	const common = " \n\teatoinsrhldcu.mfpgwy,b/v=-_k:()TESARINO\"'<>CDLMPFBGHUWVYKxjqzXJQZ"
	rank := func(c byte) int {
		if i := strings.IndexByte(common, c); i >= 0 {
			return i
		}
		return len(common) // not listed: digits, other punctuation, bytes above 0x7f
	}
	for _, m := range otherMarks {
		best := 0
		for i := 1; i < len(m); i++ {
			if rank(m[i]) > rank(m[best]) {
				best = i
			}
		}
		t = append(t, rareMark{m, m[best], best})
	}
	return t
}()

// failureSignature hashes the line that names a failure: the last line of the result's last
// 2 KB holding one of failureMarks (a Python traceback's exception line, pytest's "FAILED
// test::name - reason", "make: *** ... Error 2"), volatile fields masked, with the lines after
// it that speak of a failure without a mark (pytest's "== 2 failed, 5 passed in 0.4s =="): a
// count of failures that moved is progress. Debug prints moved between two runs change the
// output around a failure, not the lines that name it. 0 when no line names one.
func failureSignature(result string) uint64 {
	return signatureOf(failureLine(result))
}

// signatureOf is failureSignature's hash of a failure's line and the lines after it.
func signatureOf(line string, after uint64) uint64 {
	if line == "" {
		if after == 0 {
			return 0
		}
		return mix64(after) | 1 // the problems a text without a failure's line counts
	}
	h := hashLine(setsInOrder(line))
	if after != 0 {
		h = combine(h, after)
	}
	return mix64(h) | 1
}

// setsInOrder returns line with the items of each innermost brace group ("{y, x}") in sorted
// order, so that a failure's line names the same failure whatever order a set printed in.
// Python prints a set of strings (and of objects hashed by their names, as sympy's symbols are)
// in the order of their hashes, which change from one process to the next: a test failing the
// same way after each of six edits read "'{y, x}' != ..." in four runs and "'{x, y}' != ..." in
// two, and was told as a failure moving between two others, one repeat late, and not at all
// (validation round r197b D4). A dict prints in the order it was built, which a set it was
// built from decides as often. The line is returned as it is, without a copy, when every group
// is in order already, as nearly every failure's line is.
func setsInOrder(line string) string {
	if strings.IndexByte(line, '{') < 0 || !hasUnsortedGroup(line) {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	var items []string
	for {
		open, end, ok := nextBraceGroup(line)
		if !ok {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:open+1])
		items = append(items[:0], strings.Split(line[open+1:end], ", ")...)
		slices.Sort(items)
		b.WriteString(strings.Join(items, ", "))
		line = line[end:]
	}
}

// hasUnsortedGroup says whether some innermost brace group of line has its items out of order.
func hasUnsortedGroup(line string) bool {
	for {
		open, end, ok := nextBraceGroup(line)
		if !ok {
			return false
		}
		prev, rest := "", line[open+1:end]
		for first := true; ; first = false {
			item, more, found := strings.Cut(rest, ", ")
			if !first && item < prev {
				return true
			}
			if !found {
				break
			}
			prev, rest = item, more
		}
		line = line[end:]
	}
}

// nextBraceGroup finds the first innermost brace group of line: the '{' that opens it and the
// '}' that closes it, with no brace between (the first '}' that some '{' before it opens).
func nextBraceGroup(line string) (open, end int, ok bool) {
	from := 0
	for {
		rel := strings.IndexByte(line[from:], '}')
		if rel < 0 {
			return 0, 0, false
		}
		end = from + rel
		if open = strings.LastIndexByte(line[from:end], '{'); open >= 0 {
			return from + open, end, true
		}
		from = end + 1 // a '}' that no '{' opens
	}
}

// failureLine returns the line of result that names its failure (see failureSignature),
// trimmed, and the hash of the lines after it that speak of a failure; "" when no line names
// one. A JSON answer's error (jsonErrorMessage) says the failure: the line in it that names
// one (a traceback's exception), else the whole message, and not its last line alone, which
// may be a hint the same for every failure ("See the test log for details.").
func failureLine(result string) (line string, after uint64) {
	line, after, _ = failureLineOf(result)
	return line, after
}

// failureLineOf is failureLine, also returning the JSON answer's error message it read, ""
// for an answer that is no JSON error.
func failureLineOf(result string) (line string, after uint64, msg string) {
	if t := strings.TrimLeft(result, " \t\r\n"); t != "" && t[0] == '{' {
		if msg = jsonErrorMessage(t); msg != "" {
			if line, after = markedLine(msg); line == "" {
				line, after = msg, 0
			}
			return line, after, msg
		}
	}
	line, after = markedLine(result)
	return line, after, ""
}

// markedLine is failureLine for text: the last line of its last 2 KB that holds one of
// failureMarks (a traceback's header gives way to its last line), and the lines after it
// that speak of a failure.
//
// A text where no line names a failure may still count its problems, as a linter's closing
// line does ("✖ 13 problems (10 errors, 3 warnings)", "Found 3 errors in 2 files."): then
// after is the hash of those counts, and line is "". Two runs whose counts differ are two
// failures: edits that took a lint from 13 problems to 8 reached it (validation round r72a F1:
// four lint runs across three tasks, told as one failure no change altered).
//
// A runner that prints its tally above the failures it lists, as mocha does ("  78 passing
// (2s)", "  49 failing", then each failure), counts them too (tallyAbove): the last failure
// listed is the suite's last failing test, the same while the model fixes the others, and
// five runs of one suite after edits, 78 passing then 89, 101, 110 and 118, were told as one
// failure no change altered (validation round r248a F1).
func markedLine(result string) (line string, after uint64) {
	line, after = markedLineWindowed(result)
	if line != "" {
		if t := tallyAbove(result); t != 0 {
			after = combine(after, t)
		}
	}
	return line, after
}

// tallyAbove hashes the tally a test runner prints above the failures it lists: the first line
// that says only "<n> failing" (mocha's, its spaces before it aside), with the lines just above
// it that count the tests passing or pending ("78 passing (2s)", "2 pending"), at most two. 0
// when there is none. Only the last tallyWindow bytes are read: a failing call's answer may
// be a build's whole log.
func tallyAbove(result string) uint64 {
	result = result[max(0, len(result)-tallyWindow):]
	for from := 0; ; {
		i := strings.Index(result[from:], " failing")
		if i < 0 {
			return 0
		}
		i += from
		from = i + len(" failing")
		start := strings.LastIndexByte(result[:i], '\n') + 1
		end := from
		if end < len(result) && result[end] == '\r' {
			end++
		}
		if end < len(result) && result[end] != '\n' || !isDigits(strings.TrimLeft(result[start:i], " \t")) {
			continue
		}
		h := hashLine(strings.TrimSpace(result[start:end]))
		for n := 0; n < 2 && start > 0; n++ {
			above := strings.LastIndexByte(result[:start-1], '\n') + 1
			l := strings.TrimSpace(result[above : start-1])
			if !countsTests(l) {
				break
			}
			h, start = combine(h, hashLine(l)), above
		}
		return h
	}
}

// tallyWindow is how much of a failing answer's end tallyAbove reads: a suite of a few hundred
// failures, each with its stack, lists them in less.
const tallyWindow = 256 << 10

// countsTests says whether a trimmed line counts tests as mocha does above its failures: a
// number, then "passing" or "pending" as a word.
func countsTests(line string) bool {
	d := 0
	for d < len(line) && line[d] >= '0' && line[d] <= '9' {
		d++
	}
	if d == 0 {
		return false
	}
	rest, ok := strings.CutPrefix(line[d:], " passing")
	if !ok {
		if rest, ok = strings.CutPrefix(line[d:], " pending"); !ok {
			return false
		}
	}
	return rest == "" || !isWordByte(rest[0])
}

// markedLineWindowed is markedLine without the tally above: the line naming the failure, in
// the last 2 KB (or further back past a closing verdict), and the lines after it.
func markedLineWindowed(result string) (line string, after uint64) {
	line, after, tallied := markedLineIn(markWindow(result))
	if line == "" && tallied && len(result) > markWindowSize {
		// A closing verdict or tally was passed over, and it promises that a line above it
		// names the failure; a build in a container prints its step's last lines, a code
		// frame and a dozen lines of its own after the compiler's error, and pushes it out
		// of the window (validation round r179a F3: seven type errors fixed one after
		// another, each 2.0 to 2.6 KB from the end of a docker build's output, were one
		// failure by BuildKit's verdict). Only then is the text read further back.
		if wide, wideAfter, _ := markedLineIn(result[len(result)-min(len(result), verdictWindowSize):]); wide != "" {
			return wide, wideAfter
		}
	}
	return line, after
}

// verdictWindowSize is how far back from a result's end markedLine looks for the line naming
// a failure when a closing verdict stood between it and the window's start.
const verdictWindowSize = 8192

// markedLineIn is markedLine within the window it is given; tallied says whether it passed a
// closing tally or verdict (isFailureTally) on the way.
func markedLineIn(result string) (line string, after uint64, tallied bool) {
	var counts uint64 // the problem counts read on the way
	// No mark holds a newline, so the line holding the last mark is the last line holding
	// any: the lines are read from the end, and the first with a mark is the one.
	for end := len(result); ; {
		start := strings.LastIndexByte(result[:end], '\n') + 1
		line := result[start:end]
		if hasFailureMark(line) {
			if !isFailureTally(line) {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "Traceback (most recent call last)") {
					// The header says only that something was raised; the exception is the last line.
					line = lastLine(result[end:])
				}
				return line, after, tallied
			}
			tallied = true
		}
		if containsFold(line, "fail") {
			after = combine(after, hashLine(strings.TrimSpace(line)))
		} else if countsProblems(line) {
			h := hashLine(strings.TrimSpace(line))
			after, counts = combine(after, h), combine(counts, h)
		}
		if start == 0 {
			return "", counts, tallied
		}
		end = start - 1
	}
}

// problemWords are the words a tool counts its findings in: a number before one of them
// makes a line a count of problems.
var problemWords = [...]string{"error", "problem", "warning"}

// countsProblems says whether a line counts problems: a number, a space, then "error",
// "problem" or "warning" (any case, plural or not) as a word ("13 problems", "3 errors",
// "1 warning").
func countsProblems(line string) bool {
	for i := 1; i+2 < len(line); i++ {
		if line[i] != ' ' || line[i-1] < '0' || line[i-1] > '9' {
			continue
		}
		rest := line[i+1:]
		for _, w := range problemWords {
			if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
				tail := rest[len(w):]
				if tail != "" && (tail[0] == 's' || tail[0] == 'S') {
					tail = tail[1:]
				}
				if tail == "" || !isWordByte(tail[0]) {
					return true
				}
			}
		}
	}
	return false
}

// failureKind hashes the kind of failure a failure's line names: the word before its first
// colon when that is the name of a kind of failure ("IndexError",
// "json.decoder.JSONDecodeError", "panic", "fatal", "error[E0308]": a name that says error,
// exception, panic, fatal or fault), not the program that reported it ("cat:", "grep:"), a
// path, a time or a phrase; 0 when the line names none. Two failures of different kinds are
// two failures, however alike the rest of their text: a script's IndexError, then a
// NameError after it was rewritten, then a FileNotFoundError, is a script moving on, and the
// words that tell their messages apart are often ones its own code holds, masked as echoes
// (validation round r58c F2: four attack scripts failing four ways, told as one error
// repeated). One missing file read by cat, then grep, then wc is one failure, whatever
// program says so.
func failureKind(line string) uint64 {
	name, _, ok := strings.Cut(line, ":")
	if !ok || len(name) < 2 || len(name) > 64 {
		return 0
	}
	letters := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters = true
		case c >= '0' && c <= '9', c == '_', c == '.', c == '[', c == ']', c == '-':
		default:
			return 0 // a path, a phrase, a quoted name: no kind
		}
	}
	if !letters || !namesFailureKind(name) {
		return 0
	}
	return wordHash(name) | 1
}

// namesFailureKind says whether a name is that of a kind of failure: it holds error,
// exception, panic, fatal or fault, in any case.
func namesFailureKind(name string) bool {
	for _, w := range [...]string{"error", "exception", "panic", "fatal", "fault"} {
		if containsFold(name, w) {
			return true
		}
	}
	return false
}

// isFailureTally says whether line is a closing count or verdict that names no failure:
// unittest's "FAILED (failures=1)" or "FAILED (errors=2, skipped=1)" (a harness's bracketed
// note glued after it aside), or a build's "BUILD
// FAILED" (isBuildVerdict). It holds a failure mark, and every run of a suite that still fails
// one test ends with it, so taken for the failure's line it made five different assertion
// failures, one after each edit, one failure (validation round r56c F2). Like pytest's closing
// count it is read as a line that speaks of a failure after the one that names it: a count
// that moved is progress.
func isFailureTally(line string) bool {
	line = strings.TrimSpace(line)
	if isBuildVerdict(line) || isRunnerVerdict(line) || isPipelineVerdict(line) || isTestRunnerVerdict(line) || isBareVerdict(line) {
		return true
	}
	rest, ok := strings.CutPrefix(line, "FAILED (")
	if !ok {
		return false
	}
	rest, note, ok := strings.Cut(rest, ")")
	if !ok || rest == "" || note != "" && note[0] != '[' {
		// A harness may glue a bracketed note of its own to the output's last line:
		// OpenHands' "FAILED (failures=1)[Python Interpreter: /opt/conda/bin/python]"
		// (validation round r67d F1: five runs of a test, each failing its own way after
		// an edit, were one failure by that line).
		return false
	}
	for item := range strings.SplitSeq(rest, ",") {
		name, count, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" || count == "" || strings.Trim(count, "0123456789") != "" ||
			strings.Trim(name, "abcdefghijklmnopqrstuvwxyz ") != "" {
			return false
		}
	}
	return true
}

// isBareVerdict says whether a trimmed line is a verdict and nothing more, the words "test",
// "tests", "some" and "failed", "fail" or "failure" between signs that only set it off ("***
// TEST FAILED! ***", "FAILED", "❌ Tests failed"): what a reproduction script prints after
// each check that did not hold. It says that a check failed, not which or how; every failing
// run of the script ends with it, so taken for the failure's line it made six rewrites of a
// function, each changing the wrong result the script printed above it, one failure repeated
// (validation round r199a W1). What failed is above it.
func isBareVerdict(line string) bool {
	for _, r := range line {
		if !unicode.IsLetter(r) && !strings.ContainsRune(" \t*=-!.:#>_~", r) && !(r > 0x7f && unicode.IsSymbol(r)) {
			return false // a number, a bracket, a path: more than a verdict
		}
	}
	words, verdict := 0, false
	for w := range strings.FieldsFuncSeq(line, func(r rune) bool { return !unicode.IsLetter(r) }) {
		words++
		// (EqualFold, not ToLower: a failing run's lines are read at every call, and a
		// lowered copy of "ERROR" or "FAILED" would be an allocation each.)
		switch {
		case strings.EqualFold(w, "failed"), strings.EqualFold(w, "fail"), strings.EqualFold(w, "failure"):
			verdict = true
		case strings.EqualFold(w, "test"), strings.EqualFold(w, "tests"), strings.EqualFold(w, "some"):
		default:
			return false
		}
	}
	return verdict && words <= 3
}

// isRunnerVerdict says whether a trimmed line is a package runner's word that the command it
// ran failed, naming the script, the package or the exit code but not what failed: pnpm's
// "ELIFECYCLE Command failed with exit code 2.", yarn's "error Command failed with exit code
// 1.", turbo's "ERROR run failed: command exited (2)" and "<task>: command (<dir>) ... exited
// (2)", npm's "npm ERR! code ELIFECYCLE", "npm ERR! Exit status 2", "npm error Lifecycle script
// `build` failed". Every failing run ends with them, whatever failed above: taken for the
// failure's line, a monorepo build failing in one package, then another, then a third, each
// after the edits that fixed the one before, was one failure the edits did not alter
// (validation round r76a F1, F2).
func isRunnerVerdict(line string) bool {
	switch {
	case strings.Contains(line, "Command failed with exit code "),
		strings.Contains(line, "ELIFECYCLE") && strings.Contains(line, "Command failed"),
		strings.Contains(line, "run failed: command") && strings.Contains(line, "exited ("),
		strings.Contains(line, "command finished with error: command ("),
		strings.Contains(line, ": command (") && strings.Contains(line, " exited ("):
		return true
	}
	rest, ok := strings.CutPrefix(line, "npm ERR!")
	if !ok {
		if rest, ok = strings.CutPrefix(line, "npm error"); !ok {
			return false
		}
	}
	rest = strings.TrimSpace(rest)
	for _, p := range [...]string{"code ELIFECYCLE", "errno ", "Exit status ", "Failed at the ", "A complete log of this run",
		"Lifecycle script ", "command failed", "This is probably not a problem with npm"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	code, ok := strings.CutPrefix(rest, "code ")
	return ok && code != "" && strings.Trim(code, "0123456789") == ""
}

// isTestRunnerVerdict says whether a trimmed line is a test runner's FAIL line (see
// testRunnerFailLine): Go's for a test or a package, Jest's and Vitest's for a file. It names
// the test, the package or the file that failed, never what failed in it (Go's assertion is
// on the lines under its header, Jest's error above its summary), and every run of a suite
// that still fails ends with it.
func isTestRunnerVerdict(line string) bool {
	rest, ok := strings.CutPrefix(line, "FAIL")
	if !ok {
		return strings.HasPrefix(line, "--- FAIL:")
	}
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

// isPipelineVerdict says whether a trimmed line is a container build's or a CI job's word
// that a step it ran exited with a failing status, naming the step's command or the job but
// not what failed in it: BuildKit's `ERROR: process "/bin/sh -c npm run build" did not
// complete successfully: exit code: 1` (and its "failed to solve: process ..."), the legacy
// builder's "The command '/bin/sh -c make' returned a non-zero code: 2", Compose's `service
// "web" didn't complete successfully: exit 1`, GitHub Actions' "Process completed with exit
// code 1." and act's "Error: Job 'build' failed". Every failing run of the pipeline ends so,
// whatever failed in the step: taken for the failure's line, a docker build fixed one type
// error after another, and a workflow run locally failing one step further each time, were
// one failure the edits did not alter (validation round r179a F2, F3). What failed is named
// above, in the step's own output.
func isPipelineVerdict(line string) bool {
	switch {
	case strings.Contains(line, " did not complete successfully: exit code"),
		strings.Contains(line, " didn't complete successfully: exit "),
		strings.Contains(line, "' returned a non-zero code: "),
		strings.Contains(line, "Process completed with exit code "):
		return true
	}
	_, job, ok := strings.Cut(line, "Error: Job '")
	return ok && strings.HasSuffix(job, "' failed")
}

// isBuildVerdict says whether a trimmed line is a build tool's closing verdict, Gradle's and
// Ant's "BUILD FAILED" (Gradle adds " in 55s"): every failing build ends with it, whatever
// failed, so taken for the failure's line it made a test suite that went from 28 failures to
// 18 one failure repeated (validation round r61c F1). What failed is named above it ("> Task
// :test FAILED", a compiler's "error:"), and the lines between speak of it ("28 tests
// completed, 18 failed"), as after a tally.
func isBuildVerdict(line string) bool {
	rest, ok := strings.CutPrefix(line, "BUILD FAILED")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	rest, ok = strings.CutPrefix(rest, " in ")
	return ok && rest != "" && strings.Trim(rest, "0123456789.hms ") == ""
}

// reached says whether the chain has failed the same way repeats times, one more when some of
// its matches were weak (the failure's line alone, or an alternation).
func (r *refailChain) reached(repeats int) bool {
	if r.weak {
		repeats++
	}
	return int(r.count) >= repeats
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}

// colonMarks are the failureMarks that end in ':', without it; otherMarks are the rest.
var colonMarks, otherMarks = func() (colon, other []string) {
	for _, m := range failureMarks {
		if stem, ok := strings.CutSuffix(m, ":"); ok && stem != "" {
			colon = append(colon, stem)
		} else {
			other = append(other, m)
		}
	}
	return colon, other
}()

// updateRefail extends the same-failure chain of this call's command when it failed alike,
// starts it afresh when it failed otherwise, and ends it when the command succeeds. Other
// commands' failures leave it alone: a rejected edit between two test runs is not news about
// the test. Up to maxRefail commands are followed (freeRefail says which is forgotten).
func (s *progressState) updateRefail(c *observedCall, id, places uint64, failed bool, dg *digest, sig, turn uint64) *refailChain {
	var r *refailChain
	for i := range s.refail {
		if s.refail[i].count > 0 && s.refail[i].id == id {
			r = &s.refail[i]
			break
		}
	}
	if r != nil && turn != 0 && r.turn == turn {
		// A call of the reply that made the chain's last failure: made before the model saw
		// that failure, it is the same step, not the command failing again.
		return nil
	}
	if r = s.refailStep(c, r, id, places, failed, dg, sig); r != nil {
		r.turn, r.places = turn, places
		if r.count == 1 || r.last != dg.exact {
			r.last, r.same = dg.exact, 1
		} else {
			r.same++
		}
	}
	return r
}

// refailStep is updateRefail's step for a call of a new reply.
func (s *progressState) refailStep(c *observedCall, r *refailChain, id, places uint64, failed bool, dg *digest, sig uint64) *refailChain {
	if failed && dg.words >= 3 && r != nil && r.result != dg.exact && s.probeAnswered(r, c.result) {
		// The run shows what a print added since the chain's last failure prints: an answer
		// to the model's question, weaker evidence of the failure repeated (probeAnswered).
		r.weak = true
	}
	switch {
	case !failed:
		// The command worked, and the chain ends, unless it was written with other relative
		// paths than the chain's last failure (commandKey's places): "open fields.py" working
		// says nothing of "open dandi/fields.py".
		if r != nil && (r.places == 0 || places == 0 || places == r.places) {
			*r = refailChain{}
		}
		return nil
	case dg.words < 3:
		return nil
	case r != nil && (r.result == dg.exact || s.likeness(&r.sketch, c, dg) >= s.d.similar && (sig == 0 || r.sig == 0 || sig == r.sig)):
		// Alike, but not when the lines naming the failures differ: a loader missing one
		// library after another (libspice, libbrlapi, libsasl2) has moved on at each edit.
		r.extend(s.epoch, &s.refailSeq)
		return r
	case r != nil && sig != 0 && r.sig == sig:
		// The same failure by the line naming it: weaker evidence than the same output, so
		// the chain speaks one repeat later.
		r.weak = true
		r.extend(s.epoch, &s.refailSeq)
		return r
	case r != nil && r.hasPrev && (r.prev == dg.exact || (sig != 0 && r.prevSig == sig)):
		// Back to the failure before this one: edits that move a command between two
		// failures and back reach neither cause, and a failure that comes back after another
		// (a debug print broken once) was never fixed. The chain goes on from the longer of
		// the two, one repeat later.
		cur, curEpochs := r.count, r.epochs
		r.prev, r.prevSig, r.result, r.sig = r.result, r.sig, dg.exact, sig
		r.count, r.epochs = max(r.count, r.prevCount), max(r.epochs, r.prevEpochs)
		r.prevCount, r.prevEpochs = cur, curEpochs
		r.sketch = dg.sketch
		r.weak = true
		r.extend(s.epoch, &s.refailSeq)
		return r
	case r != nil:
		// Another failure is news: the chain starts afresh, remembering the one it leaves.
		s.refailSeq++
		*r = refailChain{id: id, result: dg.exact, sig: sig, sketch: dg.sketch, count: 1, epoch: s.epoch, seq: s.refailSeq, start: s.calls,
			prev: r.result, prevSig: r.sig, hasPrev: true, prevCount: r.count, prevEpochs: r.epochs}
		return r
	case r == nil:
		r = s.freeRefail()
	}
	s.refailSeq++
	*r = refailChain{id: id, result: dg.exact, sig: sig, sketch: dg.sketch, count: 1, epoch: s.epoch, seq: s.refailSeq, start: s.calls}
	return r
}

// freeRefail returns the slot for a new chain: a free one, else the least recent of the
// chains that failed once, else the least recent of all. A chain that failed again is its
// command being re-run, the kind that loops; one that failed once is as often a look that
// missed (a file that is not there) and is not asked again, and a run of such looks must not
// push out a test that is failing again and again.
func (s *progressState) freeRefail() *refailChain {
	var once, oldest *refailChain
	for i := range s.refail {
		r := &s.refail[i]
		if r.count == 0 {
			return r
		}
		if oldest == nil || r.seq < oldest.seq {
			oldest = r
		}
		if r.count == 1 && (once == nil || r.seq < once.seq) {
			once = r
		}
	}
	if once != nil {
		return once
	}
	return oldest
}

// refailing says whether some command's same-failure chain is open.
func (s *progressState) refailing() bool {
	for i := range s.refail {
		if s.refail[i].count > 0 {
			return true
		}
	}
	return false
}

// extend counts one more failure in the chain, and the changes of the workspace since the last.
// The chain becomes the most recently used: the one forgotten first is the one whose command
// has not failed for longest.
func (r *refailChain) extend(epoch uint32, seq *uint32) {
	*seq++
	r.seq = *seq
	r.count++
	// Every change since the last failure counts, as the notice says how many changes were
	// made ("none of the changes you made in between (4 of them)"), not between how many
	// runs they fell: four edits made between five runs were told as three (validation round
	// r193b).
	r.epochs += int32(epoch - r.epoch)
	r.epoch = epoch
}

// shellPrefixes open the lines a shell writes about its own input, not a program's output.
var shellPrefixes = [...]string{"/bin/bash: ", "/usr/bin/bash: ", "bash: ", "-bash: ", "/bin/sh: ", "sh: ", "/bin/zsh: ", "zsh: "}

// leadingSpace is how many bytes of white space (spaces, tabs, line breaks) s opens with.
func leadingSpace(s string) int {
	i := 0
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}

// shellRefused is refusedByShell for an answer with no host's header over it, looked at only
// when the answer opens as a shell's line may ("/bin/bash: ", "bash: ", "-bash: ", "sh: ",
// "zsh: "): most answers do not, and looksFailed reads every answer. (A host's header over a
// shell's refusal reports its exit status, which says the failure.)
func shellRefused(result string) bool {
	i := leadingSpace(result)
	if i == len(result) {
		return false
	}
	switch result[i] {
	case '/', 'b', 's', 'z', '-':
		return refusedByShell(result[i:])
	}
	return false
}

// refusedByShell says whether a command's whole answer is its shell refusing to parse it:
// every line the shell's own ("/bin/bash: line 2: unexpected EOF while looking for matching
// ...", "bash: -c: line 3: syntax error: unexpected end of file", dash's "sh: 1: Syntax
// error: ..."), one of them a syntax error.
// A harness that checks a command's syntax before running it (SWE-agent does) ran none of it,
// and a shell running it ran at most the complete lines above the error, which printed
// nothing; either way the command did not do what it was written for, so a write word in it
// (a model's prose sent as a command: "let's use the tee command") changed nothing. An
// answer with any other line may come from commands that ran (`sed -i ... && pytest` that
// fails) and is not read so.
func refusedByShell(result string) bool {
	body := result[execHeaderEnd(result):]
	if refusedByPowerShell(body) {
		return true
	}
	syntax := false
	for len(body) > 0 {
		line := body
		if i := strings.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = ""
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		own := false
		for _, p := range shellPrefixes {
			if strings.HasPrefix(line, p) {
				own = true
				break
			}
		}
		if !own {
			return false
		}
		syntax = syntax || strings.Contains(line, "yntax error") || strings.Contains(line, "unexpected EOF while looking for matching")
	}
	return syntax
}

// refusedByPowerShell says whether a command's answer is PowerShell's report that it could
// not parse the script: Windows PowerShell's "At <script>:7 char:32", the line and its marks,
// and "+ CategoryInfo : ParserError: ..."; PowerShell 7's "ParserError: ..." first. PowerShell
// parses the whole script before it runs any of it, so none of it ran: `cd C:\repo && git
// add -A` refused for its "&&" (which Windows PowerShell does not know) added nothing, and
// was taken for a change between four refusals alike (validation round r123a).
func refusedByPowerShell(body string) bool {
	t := strings.TrimLeft(body, " \t\r\n")
	if strings.HasPrefix(t, "ParserError:") {
		return true
	}
	if !strings.HasPrefix(t, "At ") || !strings.Contains(firstLine(t), " char:") {
		return false
	}
	i := strings.Index(t, "+ CategoryInfo")
	if i < 0 {
		return false
	}
	info := firstLine(t[i:])
	return strings.Contains(info, ": ParserError:")
}

// unfinishedStates are the values of a status field that say the thing reported has not
// finished and will move by itself: a CI run's, a job's, a deployment's, a container's. Not
// "pending", which is as often a state that waits for someone (an order, a review).
var unfinishedStates = [...]string{"in_progress", "in progress", "queued", "running", "starting", "waiting",
	"creating", "provisioning", "scheduled", "initializing", "containercreating"}

// unfinishedWindow is how much of an answer reportsUnfinished reads: status answers are short.
const unfinishedWindow = 4096

// reportsUnfinished says whether an answer holds a status field (status, state or phase: a
// JSON member or a "Status:" line) whose value is an unfinished state (unfinishedStates).
func reportsUnfinished(result string) bool {
	text := result[:min(len(result), unfinishedWindow)]
	for i := 0; i < len(text); {
		k := indexFold3(text[i:])
		if k < 0 {
			break
		}
		at := i + k
		i = at + 1
		// the key: status, state or phase, whole (not "statuses", "estate")
		var key string
		for _, w := range [...]string{"status", "state", "phase"} {
			if len(text)-at >= len(w) && strings.EqualFold(text[at:at+len(w)], w) {
				key = w
				break
			}
		}
		if key == "" || at > 0 && isWordByte(text[at-1]) {
			continue
		}
		rest := text[at+len(key):]
		j := 0
		if j < len(rest) && rest[j] == '"' {
			j++ // a JSON key's closing quote
		}
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		if j >= len(rest) || rest[j] != ':' && rest[j] != '=' {
			continue
		}
		j++
		for j < len(rest) && (rest[j] == ' ' || rest[j] == '"' || rest[j] == '\'') {
			j++
		}
		if opensWithUnfinishedState(rest[j:]) {
			return true
		}
	}
	return statusTableUnfinished(text)
}

// opensWithUnfinishedState says whether a status value opens with one of unfinishedStates, a
// whole word, in any case.
func opensWithUnfinishedState(val string) bool {
	for _, st := range unfinishedStates {
		if len(val) >= len(st) && strings.EqualFold(val[:len(st)], st) && (len(val) == len(st) || !isWordByte(val[len(st)])) {
			return true
		}
	}
	return false
}

// statusTableUnfinished says whether an answer holds a status table, as kubectl and docker
// print one (a header of upper-case column names, each row's cells starting under their
// names), with a row still coming up: a READY count below its total (`0/1`) whose status is
// no failure, or, in a table with no READY column, a STATUS that is an unfinished state or a
// container whose health check is still starting (`Up 5 seconds (health: starting)`).
// Polling a rollout with `kubectl get pods` gives the same table again and again once the
// ages are masked, while the pods come up one by one (validation round r96a: three looks a
// few seconds apart, a pod at 0/1 in each, were told as a stuck call). A pod whose READY count
// is complete is up, so there "Running" is a finished state; a row that fails
// (CrashLoopBackOff, ErrImagePull) will not come up by waiting, and a poll of it is no more
// than a repeat.
func statusTableUnfinished(text string) bool {
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		h, ok := readTableHeader(line)
		if !ok || h.ready < 0 && h.status < 0 {
			continue
		}
		for text != "" {
			var row string
			row, text, _ = strings.Cut(text, "\n")
			if strings.TrimSpace(row) == "" {
				break
			}
			state := strings.ToLower(h.cell(row, h.status))
			if h.ready >= 0 {
				if !failingState(state) && (countBelowTotal(h.cell(row, h.ready)) || strings.HasPrefix(state, "terminating")) {
					return true
				}
				continue
			}
			if strings.Contains(state, "health: starting") || opensWithUnfinishedState(state) {
				return true
			}
		}
	}
	return false
}

// tableHeader is where the columns of a table printed by a CLI start: kubectl, docker and
// their kin align each row's cells under their column's name.
type tableHeader struct {
	starts        [16]int // the byte offset of each column
	n             int
	ready, status int // the index of the READY and STATUS columns, -1 when there is none
}

// readTableHeader reads a line as a table's header: two to sixteen column names in upper
// case (`NAME`, `UP-TO-DATE`, `PORT(S)`), a word after a single space being the second word
// of the one before (`CONTAINER ID`, `NOMINATED NODE`).
func readTableHeader(line string) (tableHeader, bool) {
	h := tableHeader{ready: -1, status: -1}
	for i := 0; i < len(line); {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		j := i
		for ; j < len(line) && line[j] != ' ' && line[j] != '\t'; j++ {
			c := line[j]
			if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '(' || c == ')' || c == '/') {
				return h, false
			}
		}
		if line[i] < 'A' || line[i] > 'Z' {
			return h, false
		}
		if h.n == 0 || i < 2 || line[i-1] == '\t' || line[i-2] == ' ' || line[i-2] == '\t' {
			if h.n == len(h.starts) {
				return h, false
			}
			h.starts[h.n] = i
			h.n++
		}
		switch line[i:j] {
		case "READY":
			h.ready = h.n - 1
		case "STATUS":
			h.status = h.n - 1
		}
		i = j
	}
	return h, h.n >= 2
}

// cell is the text of column k in row, trimmed; "" when the row does not reach it or its
// cell does not start under the column's name (a row of another shape).
func (h *tableHeader) cell(row string, k int) string {
	if k < 0 || k >= h.n {
		return ""
	}
	at := h.starts[k]
	if at >= len(row) || at > 0 && row[at-1] != ' ' && row[at-1] != '\t' {
		return ""
	}
	end := len(row)
	if k+1 < h.n && h.starts[k+1] < end {
		end = h.starts[k+1]
	}
	return strings.TrimSpace(row[at:end])
}

// countBelowTotal says whether a cell reads as a count out of a total that it has not reached
// yet: kubectl's READY `0/1`, `2/3`.
func countBelowTotal(cell string) bool {
	n, total, ok := strings.Cut(cell, "/")
	if !ok || n == "" || total == "" || len(n) > 6 || len(total) > 6 {
		return false
	}
	a, err1 := strconv.Atoi(n)
	b, err2 := strconv.Atoi(total)
	return err1 == nil && err2 == nil && a < b
}

// failingState says whether a status cell (lower case) is a failure that waiting will not
// mend: a crash loop, an image that cannot be pulled, an error, an eviction.
func failingState(state string) bool {
	for _, f := range [...]string{"crashloopbackoff", "imagepullbackoff", "errimagepull", "invalidimagename", "createcontainer", "error", "failed", "evicted", "oomkilled"} {
		if strings.HasPrefix(state, f) {
			return true
		}
	}
	return false
}

// indexFold3 finds the next "sta" or "pha" (any case) in s, where a status, state or phase key
// may begin; -1 when there is none.
func indexFold3(s string) int {
	for i := 0; i+3 <= len(s); i++ {
		c := s[i] | 0x20
		if (c == 's' && s[i+1]|0x20 == 't' && s[i+2]|0x20 == 'a') || (c == 'p' && s[i+1]|0x20 == 'h' && s[i+2]|0x20 == 'a') {
			return i
		}
	}
	return -1
}

// filePrinters are the programs that print files' text and nothing of their own unless they
// fail (see printsFiles). sed counts only with -n and without -i (see printsFiles).
var filePrinters = []string{"cat", "head", "tail", "nl", "bat", "batcat", "sed", "type", "Get-Content", "gc"}

// printsFiles says whether a call's command line only prints files: each step one of
// filePrinters with at least one argument, perhaps after a `cd DIR &&`, with no pipe,
// sequence, background job, substitution or redirection into a file (2>&1 and 2>/dev/null
// aside). It gives the printing program's name. It reads the line as written, JSON escapes
// and all, and allocates nothing: it runs for every answer that reads as failed.
func printsFiles(args []byte) (prog string, ok bool) {
	_, line, _, found := commandLine(args)
	if !found || bytes.ContainsAny(line, "|;`$<\n") || bytes.Contains(line, []byte(`\n`)) {
		return "", false
	}
	var first []byte // the step's program
	words, sedN, sedI := 0, false, false
	step := func() bool { // a step ends: was it a cd or a print?
		switch {
		case len(first) == 0:
			return false
		case string(first) == "cd":
			return words <= 2
		case words < 2:
			return false
		case string(first) == "sed" && (!sedN || sedI):
			return false
		}
		for _, p := range filePrinters {
			if string(first) == p {
				prog = p
				return true
			}
		}
		return false
	}
	for i := 0; ; {
		var w []byte
		w, i = spaceWord(line, i) // at the line's end, the word is empty and ends the last step
		switch {
		case len(w) == 0 || string(w) == "&&":
			if !step() {
				return "", false
			}
			if len(w) == 0 {
				return prog, prog != ""
			}
			first, words, sedN, sedI = nil, 0, false, false
		case string(w) == "2>&1" || string(w) == "2>/dev/null":
		case bytes.ContainsAny(w, ">&"):
			return "", false
		default:
			if words == 0 {
				first = w
			}
			words++
			sedN = sedN || string(w) == "-n"
			sedI = sedI || bytes.HasPrefix(w, []byte("-i"))
		}
	}
}

// complainsFirst says whether a result's first line is prog's own complaint: "cat: x: No such
// file or directory", "sed: can't read x: No such file or directory", "head: cannot open".
func complainsFirst(result, prog string) bool {
	result = strings.TrimLeft(result, " \t\r\n")
	return strings.HasPrefix(result, prog+": ")
}

// maxProbe is how many bytes of a print's text noteProbe keeps: enough to find it in an
// output, no more.
const maxProbe = 24

// noteProbe remembers, for a change of the workspace, the text its arguments add a print of
// (printedText), if any. The print remembered already, met again, is not a new one: SWE-agent's
// editor replaces whole lines, and the edits after a print often carry it along; its text
// showing after them answers nothing new (a Llama run kept one "Debug:" print through five
// edits, each run failing as before).
func (s *progressState) noteProbe(args []byte) {
	if lit := printedText(args); len(lit) > 0 && string(lit) != string(s.probe[:s.probeLen]) {
		s.probeLen = uint8(copy(s.probe[:], lit))
		s.probeEpoch = s.epoch
	}
}

// probeAnswered says whether a failing run of chain r's command shows, in its output, the text
// of a print a change added since the chain's last failure. Models debug by printing: each
// edit adds a print ("DEBUG: isinstance(value, SimpleLazyObject) = ..."), each run answers it
// while the failure under it stays as it was. Counted as the failure again like any other,
// four such runs were told as edits not reaching the cause, two calls before the fix they
// led to (validation round r217a F2, F3: Gemini 3 Pro, print-debugging a Django query and
// pytest's xfail). Such a run still fails as before, and probing that goes on while the
// failure stays is still a loop (our labels' error loops of the same runs, a few runs on:
// prints added and moved while one failure, raised by one of those prints, never changes):
// the chain counts it, and speaks one repeat later (refailChain.weak), as for a failure
// matched by its line alone. An edit that adds no print, or a print whose text does not
// show, leaves the run a plain repeat: a print added to code that never runs answers nothing.
func (s *progressState) probeAnswered(r *refailChain, result string) bool {
	return s.printedSince(r.epoch, result)
}

// printedSince says whether result shows the text of a print that a change made after
// workspace epoch added (noteProbe).
func (s *progressState) printedSince(epoch uint32, result string) bool {
	return s.probeLen > 0 && s.probeEpoch > epoch && printedIn(result, string(s.probe[:s.probeLen]))
}

// printedIn says whether text was printed in result: met there where a word starts, and not
// inside quotes, as in the source line of the print that a traceback quotes (pytest's shows
// every line of the failing function). A print of "Error:" has not printed in
// "ModuleNotFoundError: ...".
func printedIn(result, text string) bool {
	for i := 0; ; {
		k := strings.Index(result[i:], text)
		if k < 0 {
			return false
		}
		if at := i + k; at == 0 || strings.IndexByte("\"'`_", result[at-1]) < 0 && !isWordByte(result[at-1]) {
			return true
		}
		i += k + 1
	}
}

// printedText returns the opening words of the text a change's arguments print, the last
// print in them whose text opens with at least four bytes of words before any value put in
// it ("DEBUG: value = " of print(f"DEBUG: value = {value}"), System.out.println("Entering
// ..."), console.log('state', ...)); nil when there is none, or when that text is met twice
// in the arguments (a replacement that keeps a print already there, in its old and new text).
func printedText(args []byte) []byte {
	var last []byte
	for i := 0; i < len(args); {
		k := bytes.Index(args[i:], []byte("rint"))
		l := bytes.Index(args[i:], []byte("log("))
		if k < 0 && l < 0 {
			break
		}
		at, open := i+k+len("rint"), i+k
		if k < 0 || l >= 0 && l < k {
			at, open = i+l+len("log"), i+l
		}
		i = at
		if open > 0 && at-open == len("rint") && args[open-1] != 'p' && args[open-1] != 'P' {
			continue // "rint" not of print, Print, println, printf
		}
		// The name's tail (println, printf, Println, eprintln!), then the call's parenthesis.
		for i < len(args) && (args[i] >= 'a' && args[i] <= 'z' || args[i] == '!') && i-at < 3 {
			i++
		}
		if i >= len(args) || args[i] != '(' {
			continue
		}
		if lit := quotedOpening(args[i+1:]); len(lit) >= 4 {
			last = lit
		}
	}
	if last == nil || bytes.Count(args, last) > 1 {
		return nil
	}
	return last[:min(len(last), maxProbe)]
}

// quotedOpening returns the words a string literal at the start of b opens with, before any
// value put in it ({, %, $), an escape or its end: b may be the literal as written, or as
// escaped in a JSON string (\"...\"). Python's prefixes (f, r, b) are let through.
func quotedOpening(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	for n := 0; n < 2 && i < len(b) && strings.IndexByte("frbFRB", b[i]) >= 0; n++ {
		i++
	}
	if i < len(b) && b[i] == '\\' {
		i++
	}
	if i >= len(b) || b[i] != '"' && b[i] != '\'' && b[i] != '`' {
		return nil
	}
	i++
	j := i
	for j < len(b) && strings.IndexByte("\"'`\\{%$\n", b[j]) < 0 {
		j++
	}
	lit := bytes.TrimSpace(b[i:j])
	for _, c := range lit {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return lit
		}
	}
	return nil
}
