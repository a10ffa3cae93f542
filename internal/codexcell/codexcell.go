// Package codexcell reads the cells of Codex's code mode: Codex 0.14x runs each tool call
// as a JavaScript cell, a call of its "exec" tool whose input is code that calls the real
// tools (`const r = await tools.exec_command({"cmd": "cargo test"}); text(r.output);`), and
// answers with the cell's header over what the cell printed ("Script completed", the wall
// time, "Output:"). Hosts that see such calls (the rollout reader, the proxy) read a cell
// that makes one call as that call, so that the guard compares commands, not cells.
package codexcell

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Tool is the name of the tool code mode runs cells with.
const Tool = "exec"

// The header a cell's answer opens with: the cell ran through, or it threw; the wall time on
// the line after.
const (
	completedLine = "Script completed\n"
	failedLine    = "Script failed\n"
	wallTime      = "Wall time "

	// Completed and Failed open the answer of a cell that ran through and of one that threw.
	Completed = completedLine + wallTime
	Failed    = failedLine + wallTime
)

// Call reads a code-mode cell (Codex's "exec" custom tool, whose input is JavaScript
// that calls the agent's real tools) that makes exactly one tool call as that call: the
// tool's name, and its arguments when they are written as JSON (`tools.exec_command({"cmd":
// ...})`) or, for a patch, the patch's text (`const patch = "*** Begin Patch..."`).
// Read as one tool "exec" with the cell as its argument, a file read inside it was no view
// (its source's "std::error::Error" was taken for a failure, validation round r85a U1) and
// two runs of one command differed by a timeout in the cell. A cell that calls two tools or
// more, or none, is a script and stays a call of "exec"; a call whose arguments are
// JavaScript rather than JSON keeps the cell as its arguments, under the tool's name.
func Call(cell string) (tool string, args []byte, ok bool) {
	const prefix = "tools."
	at := -1
	for i := 0; ; {
		k := strings.Index(cell[i:], prefix)
		if k < 0 {
			break
		}
		k += i
		i = k + len(prefix)
		if k > 0 && isIdentByte(cell[k-1]) {
			continue // another object's tools ("mytools.x(")
		}
		j := i
		for j < len(cell) && isIdentByte(cell[j]) {
			j++
		}
		if j == i || !strings.HasPrefix(strings.TrimLeft(cell[j:], " \t"), "(") {
			continue // a property read, not a call
		}
		if at >= 0 {
			return "", nil, false // two calls: a script
		}
		at = k
	}
	if at < 0 {
		return "", nil, false
	}
	rest := cell[at+len(prefix):]
	j := 0
	for j < len(rest) && isIdentByte(rest[j]) {
		j++
	}
	tool = rest[:j]
	arg := strings.TrimLeft(strings.TrimLeft(rest[j:], " \t")[1:], " \t\n")
	if strings.HasPrefix(arg, "{") {
		var raw json.RawMessage
		if json.NewDecoder(strings.NewReader(arg)).Decode(&raw) == nil {
			return tool, compact(raw), true
		}
	}
	if patch, found := cellPatch(cell); found {
		return tool, []byte(patch), true
	}
	return tool, []byte(cell), true
}

// cellPatch finds the patch a cell spells out as a string ("*** Begin Patch\n..."), in
// double quotes (read as a JSON string) or back quotes (as written).
func cellPatch(cell string) (string, bool) {
	k := strings.Index(cell, "*** Begin Patch")
	if k < 1 {
		return "", false
	}
	switch cell[k-1] {
	case '"':
		var s string
		if json.NewDecoder(strings.NewReader(cell[k-1:])).Decode(&s) == nil {
			return s, true
		}
	case '`':
		if end := strings.IndexByte(cell[k:], '`'); end >= 0 {
			return cell[k : k+end], true
		}
	}
	return "", false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Answer takes the header a code-mode cell's output opens with off it ("Script
// completed\nWall time 0.1 seconds\nOutput:\n"): what is left is what the cell printed. A
// cell that failed ("Script failed", then "Script error:" and the error) is a failed call. A
// cell still running ("Script running with cell ID 4") is answered as it is; what it prints
// later is the answer to a "wait".
func Answer(text string, failed bool) (string, bool) {
	var rest string
	switch {
	case strings.HasPrefix(text, completedLine):
		rest = text[len(completedLine):]
	case strings.HasPrefix(text, failedLine):
		rest, failed = text[len(failedLine):], true
	default:
		return text, failed
	}
	if !strings.HasPrefix(rest, wallTime) {
		return text, failed
	}
	if k := strings.Index(rest, "\nOutput:\n"); k >= 0 && !strings.Contains(rest[:k], "\n") {
		// (the parts of a list are joined by a line break: the header's own is enough)
		return strings.TrimPrefix(rest[k+len("\nOutput:\n"):], "\n"), failed
	}
	return text, failed
}

// compact returns a JSON value without its insignificant white space.
func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
