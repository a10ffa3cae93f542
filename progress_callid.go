package loopguard

// A call's identity for the progress detector: command lines whatever their spacing, and a
// sleep whatever its length.

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

	"github.com/loopguard/loopguard/internal/canon"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// callID is the call's identity for this detector: the engine's (tool and arguments as a JSON
// value), except that command lines (SWE-agent's actions, arguments that are not JSON) are the
// same command whatever their spacing: "edit 90:90\nend_of_edit" and
// "edit 90:90\n\nend_of_edit" ask for the same thing.
//
// A call that sleeps before it looks ("sleep 5 && curl ...") is the same call whatever the
// length of its sleep: a backoff lengthens the wait between two looks at the same thing, and
// each look is a poll of it (see observeCall's waiting), not a new question; sleeps says the
// call is one (see sleepsFirst).
//
// Arguments that only narrate the call for a person (captionKeys: Claude Code's and Gemini
// CLI's "description" of a command, Cline's "task_progress" checklist, Cursor's
// "explanation", the OpenHands agent SDK's "summary") are left out: the model writes them
// afresh each time, and the same command under a new caption asks the same thing. buf is
// scratch space for the arguments without them; callID returns it, grown, for the next call,
// and the arguments it identified (in buf, or c.args when they hold no caption). caption says
// whether the arguments may hold one (argKeys.caption: a caption key anywhere;
// withoutCaptions takes out those at the top level).
func callID(c *observedCall, caption, sleeps bool, buf []byte) (id uint64, args, grown []byte) {
	args, argsID := c.args, c.id
	if caption && len(args) > 0 && args[0] == '{' {
		if stripped, ok := withoutCaptions(buf[:0], args); ok {
			buf, args = stripped, stripped
			argsID = combine(hashString(c.tool), canon.Fingerprint(stripped))
		}
	}
	if sleeps {
		return combine(hashString(c.tool), sleeplessHash(args)), args, buf
	}
	if len(args) > 0 && args[0] != '{' && args[0] != '[' {
		return combine(hashString(c.tool), spacedHash(args)), args, buf
	}
	return argsID, args, buf
}

// captionKeys are the argument names that narrate a call for a person rather than say what
// it does. A tool whose "description" is what it acts on (a ticket's text) is rare, and for
// it only the same result as well makes two calls the same. The OpenHands agent SDK (2026)
// adds a "summary" of about ten words to every call of every tool ("Build session URL from
// environment"; validation round r131a), beside the arguments that say what the call does.
var captionKeys = [...][]byte{[]byte(`"description"`), []byte(`"explanation"`), []byte(`"task_progress"`), []byte(`"justification"`), []byte(`"summary"`)}

// withoutCaptions appends to dst the JSON object args without its top-level caption members,
// or returns false when args is not one well-formed object, or when captions are all it holds:
// a caption narrates a call beside the members that say what it does, and alone it is what
// the call is about (a tool that records a summary, a finish tool's message).
func withoutCaptions(dst, args []byte) ([]byte, bool) {
	dst = append(dst, '{')
	first := true
	i, more, err := jsonscan.Open(args, 0)
	for ; more && err == nil; i, more, err = jsonscan.Next(args, i, '}') {
		start := i
		var v int
		if _, _, v, err = jsonscan.Key(args, i, jsonscan.Strict); err != nil {
			return dst, false
		}
		if i, err = jsonscan.Skip(args, v, jsonscan.Strict, 0); err != nil {
			return dst, false
		}
		if isCaption(args[start:v]) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, args[start:i]...)
	}
	if err != nil || first || jsonscan.SkipSpace(args, i) != len(args) {
		return dst, false
	}
	return append(dst, '}'), true
}

// ArgumentsKey returns the identity of a call's arguments as the progress detector compares
// them: their JSON value (canonical: key order and spacing do not count) less the top-level
// members that narrate the call for a person ("description", "explanation", "task_progress",
// "justification", "summary"; see callID), when other members remain. Two calls of one tool
// with the same key ask the same thing. The scan's report finds the extent of a loop by it: a
// command run three times under three captions was a loop of one call (validation round
// r124b U1).
func ArgumentsKey(args []byte) uint64 {
	if len(args) > 0 && args[0] == '{' && slices.ContainsFunc(captionKeys[:], func(k []byte) bool { return bytes.Contains(args, k) }) {
		if stripped, ok := withoutCaptions(nil, args); ok {
			return canon.Fingerprint(stripped)
		}
	}
	return canon.Fingerprint(args)
}

// isCaption says whether a member's key and colon ("description" :) name a caption. The
// letter after the quote is looked at first: readArgKeys asks about every quote followed by a
// caption's first letter ("sed -n …", "timeout"), and a comparison per caption key cost a
// short call a tenth of its time.
func isCaption(keyColon []byte) bool {
	if len(keyColon) < 2 {
		return false
	}
	k := captionByLetter[keyColon[1]]
	return k > 0 && bytes.HasPrefix(keyColon, captionKeys[k-1])
}

// captionByLetter is, for each first letter of a caption key, 1 + its place in captionKeys
// (no two begin alike), 0 for the other letters.
var captionByLetter = func() (t [256]uint8) {
	for i, k := range captionKeys {
		if t[k[1]] != 0 {
			panic("two caption keys begin with " + string(k[1]))
		}
		t[k[1]] = uint8(i + 1)
	}
	return t
}()

// sleepsFirst says whether a call of a tool of class cls sleeps before it looks: its arguments
// hold a sleep, and it is not an editor's (a tool that changes the workspace by its name),
// whose arguments are the text it writes, where a sleep is code.
func sleepsFirst(cls toolClass, args []byte) bool { return !cls.mutating && hasSleep(args) }

// hasSleep says whether args hold a sleep: "sleep" or "Sleep" followed by a space or '('
// ("sleep 5", "time.sleep(5)", "Start-Sleep -Seconds 5", "await sleep(500)").
func hasSleep(args []byte) bool {
	for i := 0; ; {
		k := bytes.Index(args[i:], leep)
		if k < 0 {
			return false
		}
		if sleepAt(args, i+k+3) {
			return true
		}
		i += k + len(leep)
	}
}

var leep = []byte("leep")

// sleepAt says whether b[i] is the 'p' of a sleep (see hasSleep).
func sleepAt(b []byte, i int) bool {
	return i >= 4 && i+1 < len(b) && (b[i+1] == ' ' || b[i+1] == '(') && b[i] == 'p' &&
		b[i-1] == 'e' && b[i-2] == 'e' && b[i-3] == 'l' && b[i-4]|0x20 == 's'
}

// sleepsOnly says whether a call's command does nothing but sleep: `sleep 30`, `sleep 0.5s`,
// `Start-Sleep -Seconds 5`, one command on one line. Such a call checks nothing: a run of them
// is a wait that brings no news however long it lasts, unlike a sleep followed by a look.
//
// It is asked at every poll, so it reads the command line's words (runs of bytes between
// spaces, tabs and line breaks, isSpaceByte) in place, allocating nothing.
func sleepsOnly(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok || len(line) > 64 {
		return false
	}
	var words [4][]byte
	n := 0
	for i := 0; i < len(line); {
		if isSpaceByte(line[i]) {
			i++
			continue
		}
		if n == len(words) {
			return false
		}
		end := i
		for end < len(line) && !isSpaceByte(line[end]) {
			end++
		}
		words[n], n, i = line[i:end], n+1, end
	}
	switch {
	case n == 2 && string(words[0]) == "sleep":
		return isSleepDuration(words[1])
	case n == 2 && equalFold(string(words[0]), "start-sleep"):
		return isSleepDuration(words[1])
	case n == 3 && equalFold(string(words[0]), "start-sleep") && words[1][0] == '-':
		return isSleepDuration(words[2])
	}
	return false
}

// isSleepDuration says whether w is a sleep's duration: digits, perhaps a point and more digits,
// perhaps one unit letter (s, m, h, d).
func isSleepDuration(w []byte) bool {
	w = bytes.TrimRight(w, ";")
	if n := len(w); n > 1 && strings.IndexByte("smhd", w[n-1]) >= 0 {
		w = w[:n-1]
	}
	digits, point := 0, false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

// sleeplessHash is spacedHash of args with the duration of each sleep left out ("sleep 5",
// "sleep 0.5", "sleep 2m", "time.sleep(3)", "Start-Sleep -Seconds 5").
func sleeplessHash(args []byte) uint64 { return hashSpaced(args, true) }

// spacedHash hashes text with every run of white space taken as one space and the ends
// trimmed.
func spacedHash(b []byte) uint64 { return hashSpaced(b, false) }

// hashSpaced is spacedHash, leaving out sleeps' durations when skipSleeps is set.
func hashSpaced(b []byte, skipSleeps bool) uint64 {
	var h textHasher
	space := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && h.n > 0 {
			h.writeByte(' ')
		}
		space = false
		h.writeByte(c)
		if skipSleeps && c == 'p' && sleepAt(b, i) {
			// skip the spaces or the parenthesis, a flag ("-Seconds"), then the duration:
			// digits, a point, a unit letter
			j := i + 1
			if b[j] == '(' {
				j++
			}
			for j < len(b) && b[j] == ' ' {
				j++
			}
			if j < len(b) && b[j] == '-' {
				f := j + 1
				for f < len(b) && (b[f]|0x20 >= 'a' && b[f]|0x20 <= 'z') {
					f++
				}
				if f > j+1 && f < len(b) && b[f] == ' ' {
					for j = f; j < len(b) && b[j] == ' '; j++ {
					}
				}
			}
			k := j
			for k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == '.') {
				k++
			}
			if k > j {
				if k < len(b) && (b[k] == 's' || b[k] == 'm' || b[k] == 'h' || b[k] == 'd') {
					k++
				}
				h.writeByte(' ')
				i = k - 1
			}
		}
	}
	return h.sum()
}

// commandKey is the identity of a call that runs a command line, for the same-failure
// chains (updateRefail): the same command run from another directory or by another spelling
// of its path is the same experiment. The command line is the arguments' "command" or "cmd"
// string (the rest of the arguments still count, as written), or arguments that are not JSON
// (SWE-agent's actions). Leading "cd DIR &&" (or ";") steps are left out, and each word keeps
// only what follows its last path separator: "python3 reproduce_issue.py", "python3
// /workspace/reproduce_issue.py" and "cd /workspace && python3 reproduce_issue.py" are one
// key. Options ("-x", "--tb=short", "-out=tfplan") are left out too: a command failing the same
// way whatever its options (a real run re-ran "terraform plan" five times, twice as "terraform
// plan -out=tfplan", with the same missing variables each time) is the same experiment, and
// its options are not reaching the cause. The arguments count, an option's value given apart
// ("-k test_a") among them. A failure has to come back alike for a chain to grow, so two
// files of the same name in two places, or one command under two options, share a chain only
// while they fail the same way. ok is false when the arguments
// hold no command line; the call's own identity serves then. args are the arguments without
// their captions (see callID).
//
// places tells apart two spellings of one key that name different files: the hash of the
// command's words as written (its options aside), when no word is an absolute path and no
// "cd" step moves the command; 0 when one is, or it moves, for then two spellings may well be
// one file ("repro.py" and "/workspace/repro.py"). Two relative paths from one directory are
// one file only when they are written alike: "open fields.py" working says nothing of "open
// dandi/fields.py", which had failed fifteen times across edits and was forgotten at each
// success of the other (validation round r169b).
func commandKey(tool string, args []byte) (key, places uint64, ok bool) {
	before, line, after, ok := commandLine(args)
	if !ok {
		return 0, 0, false
	}
	var h, p textHasher // p: the places, the words as written
	h.writeBytes(before)
	atStart := true // no word of the command proper yet: a "cd DIR &&" step may come
	words, moved := 0, false
	for i := 0; i < len(line); {
		i = skipCommandSpace(line, i)
		if i >= len(line) {
			break
		}
		end := wordEnd(line, i)
		word := line[i:end]
		if atStart && (string(word) == "cd" || string(word) == "sleep") {
			// cd DIR, then && or ; (possibly glued to DIR): the step changes only where the
			// command runs. sleep N so: only when it runs; the command after the wait is the
			// same experiment as without it (a model ran `curl URL`, then `sleep 5 && curl
			// URL`, each failing alike after its edits, and each form's failures were
			// counted apart: validation round r251a).
			arg, next := leadingStep(line, end)
			if word[0] == 'c' {
				moved = true
			}
			if next > 0 && (word[0] == 'c' || isSleepDuration(arg)) {
				i = next
				continue
			}
		}
		atStart = false
		if word[0] == '-' && words > 0 {
			i = end
			continue
		}
		if string(word) == "sleep" {
			// A wait's length is no part of the experiment (sleeplessHash's reading).
			if k := skipCommandSpace(line, end); k < len(line) {
				if e := wordEnd(line, k); isSleepDuration(line[k:e]) {
					end = e
				}
			}
		}
		// A path is known by its last part; a URL is not a path of the machine, and its last
		// part may be the same for every resource it names (".../entry/2IB5/1").
		unquoted := bytes.TrimLeft(word, `"'`)
		if k := lastPathSep(word); k >= 0 && k < len(word)-1 && !bytes.Contains(word, []byte("://")) {
			if w := unquoted; len(w) > 0 && (w[0] == '/' || w[0] == '~' || w[0] == '$' || len(w) > 2 && w[1] == ':') {
				moved = true // absolute, home-relative, a variable's, or a drive's
			}
			p.writeBytes(bytes.TrimPrefix(unquoted, []byte("./")))
			word = word[k+1:]
		} else {
			p.writeBytes(unquoted)
		}
		p.writeByte(0)
		if words > 0 {
			h.writeByte(' ')
		}
		words++
		h.writeBytes(word)
		i = end
	}
	h.writeByte(0)
	h.writeBytes(after)
	if !moved {
		places = p.sum() | 1
	}
	return combine(hashString(tool), h.sum()), places, true
}

// waitsThenRuns says whether a call's command line opens with a wait of its own, "sleep N"
// then "&&" or ";", before a command.
func waitsThenRuns(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	i := skipCommandSpace(line, 0)
	end := wordEnd(line, i)
	if string(line[i:end]) != "sleep" {
		return false
	}
	arg, next := leadingStep(line, end)
	return next > 0 && isSleepDuration(arg)
}

// leadingStep reads the rest of a step that runs before a command line's command proper ("cd
// DIR &&", "sleep 5;"), its word ending at line[end]: the step's argument, and where the
// command after it starts; next is 0 when no "&&" or ";" ends the step (possibly glued to its
// argument).
func leadingStep(line []byte, end int) (arg []byte, next int) {
	k := skipCommandSpace(line, end)
	for k < len(line) && !commandSpaceAt(line, k) && line[k] != ';' && line[k] != '&' {
		k += escapeLen(line, k)
	}
	arg = bytes.TrimSpace(line[end:k])
	k = skipCommandSpace(line, k)
	switch {
	case k < len(line) && line[k] == ';':
		return arg, k + 1
	case k+1 < len(line) && line[k] == '&' && line[k+1] == '&':
		return arg, k + 2
	}
	return arg, 0
}

// movesRelatively says whether a call's command line is nothing but a change of directory
// relative to where it runs ("cd ..", "cd src", "cd -"): run twice, it lands in two places.
// A move to an absolute place ("cd /repo", "cd ~", "cd" alone) lands in the same one.
func movesRelatively(args []byte) bool {
	if !bytes.Contains(args, []byte("cd ")) {
		return false // most calls: one look rules them out
	}
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	i := skipCommandSpace(line, 0)
	if i >= len(line) {
		return false
	}
	end := wordEnd(line, i)
	if string(line[i:end]) != "cd" {
		return false
	}
	j := skipCommandSpace(line, end)
	if j >= len(line) {
		return false // cd alone: home
	}
	targetEnd := wordEnd(line, j)
	if skipCommandSpace(line, targetEnd) < len(line) {
		return false // more than cd DIR
	}
	switch line[j] {
	case '/', '~', '$', '"', '\\', '\'':
		return false
	}
	return true
}

// changesDirectory says whether a call is a tool of its own that changes directory, named
// so ("cd", "chdir", "change_directory", as function-calling harnesses such as BFCL's file
// system offer one: cd({"folder": ".."})), given one relative place: like a shell's "cd ..",
// run again from where its last run left it, it lands somewhere else. An absolute place
// ("/repo", "~", "C:\\x") lands in the same one, and stays the same call.
func changesDirectory(tool string, args []byte) bool {
	name := namespacedToolName(serverToolName(tool)) // mcp__fs__cd, fs.cd
	// compared without a lower-case copy: this runs for every call that did not fail
	if !equalFold(name, "cd") && !equalFold(name, "chdir") && !equalFold(name, "change_directory") &&
		!equalFold(name, "change_dir") && !equalFold(name, "changedirectory") {
		return false
	}
	i, more, err := jsonscan.Open(args, 0)
	if err != nil || !more {
		return false
	}
	_, _, v, err := jsonscan.Key(args, i, jsonscan.Strict)
	if err != nil || v >= len(args) || args[v] != '"' {
		return false
	}
	end, _, err := jsonscan.String(args, v, jsonscan.Strict)
	if err != nil || jsonscan.SkipSpace(args, end) >= len(args) || args[jsonscan.SkipSpace(args, end)] != '}' {
		return false // more than one argument: not a plain change of directory
	}
	place := args[v+1 : end-1]
	if len(place) == 0 {
		return false // "cd" alone: home
	}
	switch place[0] {
	case '/', '~', '$', '\\':
		return false
	}
	return !(len(place) >= 2 && place[1] == ':') // C:\x
}

// commandLine finds the command line in a call's arguments (see commandKey), as written
// (JSON escapes left in place), with what comes before and after it.
func commandLine(args []byte) (before, line, after []byte, ok bool) {
	a := bytes.TrimSpace(args)
	if len(a) == 0 || a[0] == '[' {
		return nil, nil, nil, false
	}
	if a[0] != '{' {
		return nil, a, nil, true
	}
	for _, key := range [...]string{`"command"`, `"cmd"`} {
		if start, end, ok := stringSpan(a, key); ok {
			return a[:start], a[start:end], a[end:], true
		}
	}
	return nil, nil, nil, false
}

// commandSpaceAt says whether line[i] starts white space in a command line as written in
// JSON: a space or a tab, or an escaped newline or tab (\n, \t, \r).
func commandSpaceAt(line []byte, i int) bool {
	switch line[i] {
	case ' ', '\t', '\n', '\r':
		return true
	case '\\':
		return i+1 < len(line) && (line[i+1] == 'n' || line[i+1] == 't' || line[i+1] == 'r')
	}
	return false
}

// escapeLen is how many bytes the character at line[i] takes as JSON writes it: 2 for a
// backslash escape (\\, \", \n), 1 otherwise. (\uXXXX is read as two bytes and four more
// characters; none of them is white space or a separator.)
func escapeLen(line []byte, i int) int {
	if line[i] == '\\' && i+1 < len(line) {
		return 2
	}
	return 1
}

// wordEnd returns the end of the word of a command line that starts at i: the first white
// space after it (see commandSpaceAt), or the end of the line.
func wordEnd(line []byte, i int) int {
	for i < len(line) && !commandSpaceAt(line, i) {
		i += escapeLen(line, i)
	}
	return min(i, len(line))
}

// skipCommandSpace returns the index of the first byte at or after i that is not white space
// (see commandSpaceAt).
func skipCommandSpace(line []byte, i int) int {
	for i < len(line) && commandSpaceAt(line, i) {
		i += escapeLen(line, i)
	}
	return i
}

// lastPathSep returns the index of the last byte of the word's last path separator, or -1:
// a '/', or a Windows '\' as JSON writes it (an escaped backslash) before a name of two
// bytes or more. Other escapes (\") are not separators, nor is a backslash before one
// letter or a sign: that is a pattern's escape (`\b`, `\d`, `\.`, `\|`), and three greps for
// "func.*JSON\b", "JSON\b" and "RequestEvent.*JSON\b" were one command, "b" (validation round
// r159a F1).
func lastPathSep(word []byte) int {
	last := -1
	for k := 0; k < len(word); k += escapeLen(word, k) {
		if word[k] == '/' || word[k] == '\\' && k+1 < len(word) && word[k+1] == '\\' && nameBytesAt(word, k+2) >= 2 {
			last = k + escapeLen(word, k) - 1
		}
	}
	return last
}

// nameBytesAt counts the bytes of a file's name (letters, digits, '_', '-', '.') from word[i].
func nameBytesAt(word []byte, i int) int {
	n := 0
	for ; i+n < len(word); n++ {
		c := word[i+n]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			break
		}
	}
	return n
}

// editTargetKey is the identity of an editor's replacement for the same-failure chains: the
// tool, the file and the text it was asked to replace ("old_str", Claude Code's and Gemini
// CLI's "old_string"). A replacement rejected because its target is missing or ambiguous
// fails for what it replaces, whatever it would write: new text sent again and again against
// the same target is the same failing edit. ok is false when the arguments name no target.
func editTargetKey(tool string, args []byte) (key uint64, ok bool) {
	var h textHasher
	found := false
	for _, k := range [...]string{`"old_str"`, `"old_string"`, `"path"`, `"file_path"`} {
		start, end, ok := stringSpan(args, k)
		if !ok {
			continue
		}
		if k[1] == 'o' {
			found = true
		}
		h.write(k)
		h.writeBytes(args[start:end])
	}
	if !found {
		return 0, false
	}
	return combine(hashString(tool), h.sum()), true
}

// editFileKey is the file an editor's call changes, by the string value of its path argument
// (path, file_path, filePath, absolutePath, target_file), or, for a patch in Codex's format,
// the first file it adds, deletes or updates ("*** Update File: a.py", patchFileName); false
// when it names none (an edit of the file open in the harness).
func editFileKey(args []byte) (key uint64, ok bool) {
	var h textHasher
	if path := editPathArg(args); path != nil {
		h.writeBytes(path)
		return h.sum() | 1, true
	}
	if name, escaped := patchFileName(args); len(name) > 0 {
		writePatchFileName(&h, name, escaped)
		return h.sum() | 1, true
	}
	return 0, false
}

// patchFileHeaders open the sections of a patch in Codex's format, each naming the file it
// adds, deletes or updates. A file written anew and then updated is one file: a patch adding
// it rejected four times in a row is the same edit rejected, as an update's is.
var patchFileHeaders = [...][]byte{[]byte("Update File: "), []byte("Add File: "), []byte("Delete File: ")}

// patchFileName is the file named by the first section header of a patch in Codex's format
// ("*** Update File: a.py"), as written, or nil; escaped says it is written in a JSON string
// (the arguments are a JSON object or array), where "\\" is a Windows path's separator and
// "\n" the line's end.
func patchFileName(args []byte) (name []byte, escaped bool) {
	a := bytes.TrimLeft(args, " \t\r\n")
	escaped = len(a) > 0 && (a[0] == '{' || a[0] == '[')
	for rest := args; ; {
		i := bytes.Index(rest, patchHeader)
		if i < 0 {
			return nil, escaped
		}
		rest = rest[i+len(patchHeader):]
		for _, h := range patchFileHeaders {
			if !bytes.HasPrefix(rest, h) {
				continue
			}
			name := rest[len(h):]
			end := 0
			for end < len(name) && name[end] != '\n' && name[end] != '\r' {
				if escaped && name[end] == '"' {
					break // the JSON string ends
				}
				if escaped && name[end] == '\\' {
					if end+1 < len(name) && (name[end+1] == 'n' || name[end+1] == 'r') {
						break // an escaped line end
					}
					end++ // an escaped character: "\\", "\""
				}
				end++
			}
			if name = bytes.TrimSpace(name[:min(end, len(name))]); len(name) > 0 {
				return name, escaped
			}
		}
	}
}

// writePatchFileName hashes a patch's file name as it reads once its JSON escapes, if it is
// escaped, are decoded: "C:\\repo\\a.py" in a JSON string and C:\repo\a.py in raw text are one
// file.
func writePatchFileName(h *textHasher, name []byte, escaped bool) {
	if !escaped {
		h.writeBytes(name)
		return
	}
	for len(name) > 0 {
		i := bytes.IndexByte(name, '\\')
		if i < 0 || i+1 == len(name) {
			h.writeBytes(name)
			return
		}
		h.writeBytes(name[:i])
		h.writeByte(name[i+1]) // "\\" is a backslash, "\"" a quote
		name = name[i+2:]
	}
}

var patchHeader = []byte("*** ")

// patchBegin opens a patch in Codex's format, which its apply_patch reads.
var patchBegin = []byte("*** Begin Patch")

var editFileKeys = [...]string{`"path"`, `"file_path"`, `"filePath"`, `"absolutePath"`, `"target_file"`}

// editPathArg is the file an editor's JSON arguments name: the first of editFileKeys with a
// string value that is not empty, as written (JSON escapes left in place); nil for none.
// Arguments that are a JSON object name the file in a member; a patch sent as raw text
// (Codex's custom tool) names it in its header, and its code may hold any "path" key.
func editPathArg(args []byte) []byte {
	if a := bytes.TrimLeft(args, " \t\r\n"); len(a) == 0 || a[0] != '{' {
		return nil
	}
	for _, k := range editFileKeys {
		if start, end, ok := stringSpan(args, k); ok && end > start {
			return args[start:end]
		}
	}
	return nil
}

// stringSpan finds the string value of the first member key of a JSON object by a search of
// its bytes, and returns where its text starts and ends (between the quotes, still escaped).
func stringSpan(args []byte, key string) (start, end int, ok bool) {
	i := bytes.Index(args, []byte(key))
	if i < 0 {
		return 0, 0, false
	}
	v := jsonscan.SkipSpace(args, i+len(key))
	if v >= len(args) || args[v] != ':' {
		return 0, 0, false
	}
	v = jsonscan.SkipSpace(args, v+1)
	end, _, err := jsonscan.String(args, v, jsonscan.AsWritten)
	if err != nil {
		return 0, 0, false // not a string, or not closed
	}
	return v + 1, end - 1, true
}

// screenActions are the actions of a computer-use tool (Anthropic's computer tool, Claude in
// Chrome's), as its "action" argument names them (argKeys.onScreen): what each did, or what
// the screen showed, is in an image the transcript's text does not hold. Its text is an
// acknowledgement ("Clicked at (500, 414)", "Successfully captured screenshot ... ID: ss_x"),
// the same whether the click moved a calendar on a month or did nothing: three clicks on a
// date picker's "previous month" are three months back, not one click repeated. A page read as
// text (a snapshot, the page's content) still tells. Cline's and Roo Code's browser_action is
// such a tool too: it answers every launch, click, hover, scroll and resize "The browser action
// has been executed. The console logs and screenshot have been captured for your analysis.",
// the page in the screenshot; three scrolls down an issue's page, each answered "(No new
// logs)", were told as one call stuck (validation round r249a).
var screenActions = map[string]bool{
	"left_click": true, "right_click": true, "middle_click": true, "double_click": true, "triple_click": true,
	"launch": true, "click": true, "hover": true, "scroll_down": true, "scroll_up": true, "resize": true,
	"left_click_drag": true, "left_mouse_down": true, "left_mouse_up": true, "mouse_move": true,
	"type": true, "key": true, "hold_key": true, "scroll": true, "screenshot": true, "zoom": true,
}

// stepsThrough says whether a call steps through what it shows, so that the same call made
// again shows the next part: a scroll, a page key, an arrow or Tab key ("pyautogui.scroll(-5)",
// {"action": "key", "text": "Page_Down"}, "pyautogui.press('down')").
func stepsThrough(args []byte) bool {
	for _, w := range stepWords {
		if containsFold(args, w) {
			return true
		}
	}
	return movesRelatively(args)
}

// stepWords are the words of stepsThrough, a key's name quoted as arguments quote it.
var stepWords = [...]string{"scroll", "page_down", "pagedown", "page_up", "pageup", "pgdn", "pgup",
	`'down'`, `"down"`, `'up'`, `"up"`, `'left'`, `"left"`, `'right'`, `"right"`, `'tab'`, `"tab"`}

// maxIdleAnswer is the longest answer of a command that does nothing (doesNothing): an echo's
// text. Longer answers are not looked at.
const maxIdleAnswer = 512

// doesNothing says whether a call's command does nothing but print a fixed text, or not even
// that: `true`, `:`, `exit`, `exit 0`, a comment, an `echo` or `printf` of a text with no
// substitution, redirection, pipe or second command, on one line. Such a command cannot bring
// anything the model did not already have. A model that believes it is done while its harness
// wants another command runs them one after another ("Ready for next task", "Standing by",
// `true`, `: `): none of the 25,000 calls of the label sets and the validation rounds ran
// three in a row otherwise. A sleep is a wait, not nothing: it is not one of them.
func doesNothing(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
		line = line[1:]
	}
	// Most commands are let go by their first byte, before their whole line is read.
	if len(line) == 0 || !bytes.HasPrefix(line, []byte("true")) && line[0] != ':' && !bytes.HasPrefix(line, []byte("exit")) &&
		line[0] != '#' && !bytes.HasPrefix(line, []byte("echo ")) && !bytes.HasPrefix(line, []byte("printf ")) &&
		!bytes.HasPrefix(line, []byte("python")) {
		return false
	}
	if bytes.HasPrefix(line, []byte("python")) {
		// (a heredoc's "<<", which a JSON encoder may have written as \u003c\u003c)
		return (bytes.Contains(line, []byte("<<")) || bytes.Contains(line, []byte(`\u003c\u003c`))) && printsOnlyLiterals(commandText(args))
	}
	inJSON := bytes.TrimLeft(args, " \t\r\n")[0] == '{'
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t' || line[len(line)-1] == '\n') {
		line = line[:len(line)-1]
	}
	if len(line) == 0 || bytes.IndexByte(line, '\n') >= 0 || inJSON && hasEscapedNewline(line) {
		return false
	}
	switch string(line) {
	case "true", ":", "exit", "exit 0":
		return true
	}
	if line[0] == '#' {
		return true
	}
	if bytes.HasPrefix(line, []byte("echo ")) || bytes.HasPrefix(line, []byte("printf ")) {
		return fixedText(line)
	}
	return false
}

// printsOnlyLiterals says whether cmd runs a Python script given as a heredoc (`python3 -
// <<'PY'`, its lines, `PY`) whose every statement prints a string literal: a script that does
// nothing but say a fixed text. A model that believed it had to run something ran five such
// scripts in a row, `print('placeholder script')`, then `print('done')` (openai/codex#6190;
// validation round r105a M1).
func printsOnlyLiterals(cmd string) bool {
	first, body, ok := strings.Cut(cmd, "\n")
	if !ok {
		return false
	}
	words := strings.Fields(first)
	if len(words) < 2 || words[0] != "python" && words[0] != "python3" {
		return false
	}
	tag := ""
	for k := 1; k < len(words); k++ {
		switch w := words[k]; {
		case w == "-":
		case w == "<<" && k+1 < len(words):
			k++
			tag = strings.Trim(words[k], `'"`)
		case strings.HasPrefix(w, "<<"):
			tag = strings.Trim(w[2:], `'"`)
		default:
			return false
		}
	}
	lines := strings.Split(strings.TrimRight(body, "\n "), "\n")
	if tag == "" || len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != tag {
		return false
	}
	for _, l := range lines[:len(lines)-1] {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		lit, ok := strings.CutPrefix(l, "print(")
		if !ok || !strings.HasSuffix(lit, ")") {
			return false
		}
		lit = lit[:len(lit)-1]
		if len(lit) < 2 || lit[0] != '\'' && lit[0] != '"' || lit[len(lit)-1] != lit[0] || strings.ContainsAny(lit[1:len(lit)-1], "'\"{}\\") {
			return false
		}
	}
	return true
}

// fixedText says whether an echo's command line prints only what it says: no substitution
// (`$`, a backquote, cmd.exe's `%VAR%`), redirection, pipe or second command anywhere, and no
// glob, brace or tilde outside quotes (`echo /opt/*` lists a folder).
func fixedText(line []byte) bool {
	if bytes.ContainsAny(line, "$`<>|;&%") {
		return false
	}
	var quote byte
	for _, c := range line {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '*' || c == '?' || c == '[' || c == '{' || c == '~':
			return false
		}
	}
	return true
}

// printsItsOwnText says whether a result is empty or its first line is written in the call's
// arguments, as a command that does nothing answers (nothing, or the text it echoes): most
// calls are let go by it before their command is read.
func printsItsOwnText(result string, args []byte) bool {
	r := strings.TrimSpace(result)
	if r == "" {
		return true
	}
	if nl := strings.IndexByte(r, '\n'); nl >= 0 {
		r = strings.TrimSpace(r[:nl])
	}
	return strings.Contains(unsafe.String(unsafe.SliceData(args), len(args)), r)
}

// hasEscapedNewline says whether a string as JSON writes it holds a newline (\n, its
// backslash not itself escaped).
func hasEscapedNewline(s []byte) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			if s[i+1] == 'n' {
				return true
			}
			i++ // the escaped character
		}
	}
	return false
}

// historySteps are the words of commands that step through a history, each run going one
// step further than the last: an editor's undo_edit, git's stash pop and HEAD~1.
var historySteps = [...]string{"undo", "redo", "pop", "HEAD~", "HEAD^", "revert", "rollback"}

// stepsThroughHistory says whether a call's arguments name such a step, as a word of their
// own ("undo_edit", "git stash pop"), not a method in code an edit writes (".pop()"). The same
// call made again is then the next step back, not the same change made twice.
func stepsThroughHistory(args []byte) bool {
	for _, w := range historySteps {
		for from := 0; ; {
			i := bytes.Index(args[from:], []byte(w))
			if i < 0 {
				break
			}
			i += from
			end := i + len(w)
			before := i == 0 || !isWordByte(args[i-1]) && args[i-1] != '.'
			after := end >= len(args) || !isWordByte(args[end]) || w[len(w)-1] == '~' || w[len(w)-1] == '^'
			if before && after {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// isWordByte says whether c is an ASCII letter or digit.
func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// queryKeys name the argument that says what a search looks for, as against where it looks.
var queryKeys = [...]string{"pattern", "query", "q", "regex", "search", "search_term", "keyword", "term", "name"}

// queryOf returns a hash of what a call with JSON object arguments looks for (the value of its
// first member named in queryKeys, as written), or 0 when it names none. 32 bits: it is only
// compared with the query of the call before, and a chain's snapshot keeps it. One question asked of
// one file after another (a grep for "//" comments in each changed file) keeps its query; a
// model guessing keeps changing it.
func queryOf(args []byte) uint32 {
	if len(args) == 0 || args[0] != '{' {
		return 0
	}
	i, more, err := jsonscan.Open(args, 0)
	for ; more && err == nil; i, more, err = jsonscan.Next(args, i, '}') {
		var key []byte
		var v int
		if key, _, v, err = jsonscan.Key(args, i, jsonscan.Strict); err != nil {
			return 0
		}
		if i, err = jsonscan.Skip(args, v, jsonscan.Strict, 0); err != nil {
			return 0
		}
		for _, k := range queryKeys {
			if string(key) == k {
				var h textHasher
				h.writeBytes(args[v:i])
				return uint32(h.sum()) | 1
			}
		}
	}
	return 0
}
