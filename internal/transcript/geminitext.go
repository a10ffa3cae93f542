package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Gemini CLI's conversation as its terminal draws it, which people paste into issues and keep
// in notes:
//
//	> fix the failing test
//
//	✦ I will run the tests first.
//	╭──────────────────────────────────────────╮
//	│ ✓  Shell pytest -q [current working dir… │
//	│                                          │
//	│ 2 failed, 5 passed in 0.41s              │
//	│                                          │
//	│ ✓  ReadFile tests/test_app.py            │
//	╰──────────────────────────────────────────╯
//	✦ The test expects ...
//
// A line that opens with "> " is the user's (a slash command too), the lines indented by two
// spaces under it going on with it; releases of 2025 drew the user's words in a box of their
// own ("│  > ...  │"). One that opens with "✦ " is the model's words. A box holds the calls of
// one reply: each opens with a line "│ <mark>  <Tool> <what it does>", the lines after it up to
// the next such line are its result. The mark says how it went: "✓" (releases of 2025: "✔") it
// ran, "x" it failed, "-" it was cancelled, "?" it waits for the user's yes and "⊷" it runs
// (the last three: what it brought is not known). A failed call's line shows its arguments as
// JSON; one that ran shows what the tool says it does ("Shell git status [current working
// directory /app] (Check the tree)", "ReadFile src/a.py", "Edit a.py: old... => new..."). Early
// releases drew failures with the mark of success: their result's "Error:" says so. Gemini CLI
// hides the head of a long output ("... first 33 lines hidden ..."): the lines shown are the
// result. The banner, the tips, the status lines ("ℹ ...") and the rest are passed over. A
// terminal that drew the conversation again (the banner, then the same lines) is read once.
//
// Releases of mid-2025 (and Qwen Code, drawn alike) put one space after the mark of a call
// ("│ ✔ ReadFile a.py", "│ - Shell npm run dev"; some failed ones two, "│ x  Edit {...}"), and
// indent a result's lines under it: a screen with no call that ran drawn with two spaces is
// read so, a call being a mark, one space and a tool's name (isDrawnToolName). Read with
// two spaces only, 93 of 111 calls of one paste were none, and two pastes were no transcript
// at all (validation round r126b U1). Where calls that ran have two spaces, one space after a
// mark is a result's own line (node:test's "✔ adds numbers").

// isGeminiTextHead says whether the start of a file reads as Gemini CLI's screen: a call line
// of a box ("│ ✓  ReadFile a.py") and the model's "✦ " or a box's corner, or two call lines.
func isGeminiTextHead(head []byte) bool {
	found := 0
	lines := strings.Split(string(head), "\n")
	oneSpace := !twoSpacedRuns(lines)
	for _, l := range lines {
		if _, _, _, ok := geminiCallLine(l, oneSpace); ok {
			if found++; found == 2 {
				return true // an excerpt that opens inside a box (validation round r107a U2)
			}
		}
	}
	return found > 0 && (bytes.Contains(head, []byte("✦ ")) || bytes.Contains(head, []byte("╭")))
}

// geminiMarks are the marks a call line opens with, and what each says.
var geminiMarks = map[string]byte{"✓": 'r', "✔": 'r', "x": 'f', "-": 'c', "?": 'w', "⊷": 'w'}

// twoSpacedRuns says whether a screen draws a call that ran with two spaces after its mark
// ("│ ✓  ReadFile a.py"), as releases since late 2025 do.
func twoSpacedRuns(lines []string) bool {
	for _, l := range lines {
		if mark, _, _, ok := geminiCallLine(l, false); ok && mark == 'r' {
			return true
		}
	}
	return false
}

// geminiCallLine reads a box's call line, "│ ✓  ReadFile a.py  │" (a box drawn one column in,
// " │ ✔  ..."; a call drawn outside a box, "x Shell {...}"): its mark ('r' ran, 'f' failed,
// 'c' cancelled, 'w' not done), the tool and what the line says of the call. With oneSpace, a
// call that ran may have one space after its mark in a box (see above).
func geminiCallLine(l string, oneSpace bool) (mark byte, tool, what string, ok bool) {
	l = strings.TrimRight(l, " \t")
	inBox := false
	if rest, found := strings.CutPrefix(strings.TrimPrefix(l, " "), "│ "); found {
		l, inBox = rest, true
	}
	for m, says := range geminiMarks {
		rest, found := strings.CutPrefix(l, m+" ")
		if !found {
			continue
		}
		oneSpaced := false
		if inBox {
			// two spaces after the mark in a box: "│ - `file`" is a list in a result
			if rest, found = strings.CutPrefix(rest, " "); !found {
				if !oneSpace {
					return 0, "", "", false
				}
				oneSpaced = true
			}
		} else if m != "x" && m != "✓" && m != "✔" {
			return 0, "", "", false
		}
		rest = strings.TrimSpace(strings.TrimSuffix(rest, "│"))
		tool, what, _ = strings.Cut(rest, " ")
		if !isGeminiToolName(tool) || !inBox && !strings.HasPrefix(what, "{") || oneSpaced && !isDrawnToolName(tool, what) {
			return 0, "", "", false
		}
		return says, tool, strings.TrimSpace(what), true
	}
	return 0, "", "", false
}

// geminiBuiltinTools are the names Gemini CLI and Qwen Code draw their own tools under (the
// first word of "Save Memory", "Todo Write").
var geminiBuiltinTools = [...]string{"ReadFile", "ReadFolder", "ReadManyFiles", "FindFiles", "SearchText", "Edit", "WriteFile",
	"Shell", "WebFetch", "GoogleSearch", "WebSearch", "SaveMemory", "Save", "WriteTodos", "TodoWrite", "Todo", "Task", "ExitPlanMode"}

// isDrawnToolName says whether a line drawn with one space after a call's mark names a tool:
// one of the CLI's own, or an MCP tool ("get_issue", "search (github MCP Server)"). Such a
// line is also a checklist's in a document ("│ ✓ Todas as telas documentadas"), whose first
// word is a word of prose.
func isDrawnToolName(tool, what string) bool {
	return slices.Contains(geminiBuiltinTools[:], tool) || strings.ContainsAny(tool, "_-.") ||
		tool[0] >= 'a' && tool[0] <= 'z' || strings.Contains(what, "MCP Server)")
}

// isGeminiToolName says whether s is a tool's name as Gemini CLI draws it: a word of letters,
// digits and underscores that opens with a letter (ReadFile, Shell, console_input, an MCP
// tool's own name).
func isGeminiToolName(s string) bool {
	if s == "" || len(s) > 64 || !(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// boxLine returns a box's inner line: l without its left border (and the space after it) and
// its right border, and whether l is a line of a box.
func boxLine(l string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(l, " "), "│")
	if !ok {
		return "", false
	}
	rest = strings.TrimRight(rest, " \t")
	rest = strings.TrimRight(strings.TrimSuffix(rest, "│"), " ")
	return strings.TrimPrefix(rest, " "), true
}

func readGeminiText(name string, br *bufio.Reader) (*built, error) {
	lines, err := screenLines(name, br)
	if err != nil {
		return nil, err
	}
	lines = withoutRedrawnParts(lines, partStarts(lines, isGeminiBanner), isGeminiTurnLine)
	oneSpace := !twoSpacedRuns(lines)
	b := newBuilder(FormatGeminiText)
	a := b.agent(MainAgent)
	boxes := 0
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], " \t")
		switch {
		case strings.HasPrefix(line, "> "):
			said, next := claudeTextBlock(lines, i, strings.TrimPrefix(line, "> "), "  ")
			a.user(said, 0)
			i = next
		case strings.HasPrefix(line, "✦ "):
			said, next := claudeTextBlock(lines, i, strings.TrimPrefix(line, "✦ "), "  ")
			said, next = geminiUnindentedWrap(lines, next, said, oneSpace)
			a.text("model", said, "", 0)
			i = next
		case strings.HasPrefix(strings.TrimPrefix(line, " "), "│"):
			boxes++
			i = readGeminiBox(a, lines, i, "b"+strconv.Itoa(boxes), oneSpace)
		default:
			if _, _, _, ok := geminiCallLine(line, oneSpace); ok {
				boxes++
				i = readGeminiBox(a, lines, i, "b"+strconv.Itoa(boxes), oneSpace)
				continue
			}
			i++
		}
	}
	return b.done(), nil
}

// readGeminiBox reads the box whose lines start at lines[i]: the user's words drawn in a box,
// or the calls of one reply (turn), each with the lines under it; it returns the index of the
// line after the box. oneSpace is geminiCallLine's.
func readGeminiBox(a *agentBuf, lines []string, i int, turn string, oneSpace bool) int {
	type drawn struct {
		mark       byte
		tool, what string
		body       []string
	}
	var calls []drawn
	j := i
	for ; j < len(lines); j++ {
		l := lines[j]
		if mark, tool, what, ok := geminiCallLine(l, oneSpace); ok {
			calls = append(calls, drawn{mark: mark, tool: tool, what: what})
			continue
		}
		inner, ok := boxLine(l)
		if !ok {
			t := strings.TrimSpace(l)
			if len(calls) > 0 && t != "" && !strings.HasPrefix(t, "╰") && !strings.HasPrefix(t, "╭") && !strings.HasPrefix(t, "ℹ") &&
				!isGeminiTurnLine(l) {
				// the rest of a line the paste broke past the box's border
				if t = strings.TrimSpace(strings.TrimSuffix(t, "│")); t != "" {
					calls[len(calls)-1].body = append(calls[len(calls)-1].body, t)
				}
				continue
			}
			break
		}
		if len(calls) == 0 {
			// The user's words, in a box of their own; not the input box's placeholder, which a
			// paste that runs to the prompt ends with (validation round r126b U3).
			if said, user := strings.CutPrefix(strings.TrimSpace(inner), "> "); user && strings.TrimSpace(said) != "Type your message or @path/to/file" {
				a.user(said, 0)
			}
			continue
		}
		calls[len(calls)-1].body = append(calls[len(calls)-1].body, inner)
	}
	for _, c := range calls {
		e := loopguard.Call("", c.tool, geminiTextArgs(c.tool, c.what))
		if strings.HasSuffix(c.what, "…") && !geminiFolderCut(c.tool, c.what) {
			// The box cut the line at its width ("sqlite3 ... "SELECT ZTITLE, Z…"): what the
			// call asked is not all shown, and two such calls are not known to be one made
			// twice (validation round r257b: 21 different queries, one a book, read as one
			// query run again). A refused edit's arguments are read whole below.
			e.Args = geminiTextArgs(c.tool, c.what+" #"+strconv.Itoa(a.nextNumber(c.tool)))
		}
		e.Turn = turn
		// A call that ran and shows nothing under it (a ReadFile: Gemini CLI does not draw
		// what it read) brought what the screen does not say: not known.
		if result := geminiTextResult(c.body); c.mark == 'f' || c.mark == 'r' && result != "" {
			e = e.WithResult(result, c.mark == 'f')
			if path, old, ok := geminiEditTarget(result); ok && c.mark == 'f' && strings.HasSuffix(c.what, "…") {
				// The line shows the arguments cut at the screen's width, their keys in any
				// order; the refusal names the file and the text looked for in full.
				e.Args = marshalArgs(map[string]string{"file_path": path, "old_string": old})
			}
		}
		a.add(e)
	}
	return j
}

// geminiEditTarget reads the file and the text a failed edit looked for from Gemini CLI's
// refusal: "Failed to edit, 0 occurrences found for old_string (<text>). Original old_string
// was (<text>) in <path>. No edits made. ...". A screen copy cuts a call's arguments at the
// box's width ("Edit {"file_path":"/x/commands.py","old_string":"        s…"), and draws their
// keys in any order, so one edit sent eight times read as eight edits and two different ones
// as the same (validation round r140c U1, M1); the refusal, wrapped at the box's width, says
// them whole. Runs of white space are one space in the text and none in the path, as the
// wrapping moved them.
func geminiEditTarget(result string) (path, old string, ok bool) {
	rest, ok := strings.CutPrefix(result, "Failed to edit, 0 occurrences found for old_string (")
	if !ok {
		return "", "", false
	}
	old, rest, ok = strings.Cut(rest, "). Original old_string was (")
	if !ok {
		return "", "", false
	}
	if end := strings.Index(rest, ". No edits made"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndex(rest, ") in")
	if at < 0 {
		return "", "", false
	}
	path = strings.Join(strings.Fields(rest[at+len(") in"):]), "")
	old = strings.Join(strings.Fields(old), " ")
	return path, old, path != "" && old != ""
}

// geminiTextResult is a call's result from the lines drawn under it: without the blank lines
// around it and the line that says how many lines of a long output were hidden.
func geminiTextResult(body []string) string {
	var kept []string
	for _, l := range body {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "... first ") && strings.Contains(t, " lines hidden") {
			continue
		}
		kept = append(kept, strings.TrimRight(l, " "))
	}
	return strings.Trim(strings.Join(kept, "\n"), "\n ")
}

// geminiTextArgs are a call's arguments from what its line says: the JSON a failed call shows;
// for Shell, the command, as {"command": ...}, without the folder and the caption Gemini CLI
// draws after it; else the line's words.
func geminiTextArgs(tool, what string) []byte {
	if strings.HasPrefix(what, "{") && json.Valid([]byte(what)) {
		return []byte(what)
	}
	if tool != "Shell" {
		return []byte(what)
	}
	cmd := what
	if k := strings.LastIndex(cmd, " [current working directory "); k >= 0 {
		cmd = cmd[:k]
	} else if geminiFolderCut(tool, cmd) {
		cmd = cmd[:strings.LastIndex(cmd, " [")]
	} else if k := strings.LastIndex(cmd, " ("); k > 0 && strings.HasSuffix(cmd, ")") {
		cmd = cmd[:k] // the caption, "(Check the tree)"
	}
	return marshalArgs(map[string]string{"command": strings.TrimSpace(cmd)})
}

// geminiFolderCut says whether a Shell call's line was cut in the folder drawn after its
// command ("pytest -q [current working dir…"): the command itself is whole.
func geminiFolderCut(tool, what string) bool {
	k := strings.LastIndex(what, " [")
	if tool != "Shell" || k < 0 {
		return false
	}
	shown, _ := strings.CutSuffix(what[k+1:], "…")
	const folder = "[current working directory "
	return strings.HasPrefix(folder, shown) || strings.HasPrefix(shown, folder)
}

// isGeminiBanner says whether l is the line under Gemini CLI's banner, "Tips for getting
// started:".
func isGeminiBanner(l string) bool { return strings.HasPrefix(l, "Tips for getting started") }

// geminiUnindentedWrap goes on with the model's words said, which end before lines[j], over
// the lines of a copy that lost the indent Gemini CLI wraps them with: lines right under the
// paragraph, not blank, flush left and opening nothing of the console's own (a turn, a box, a
// call, a notice). Read without them, a paragraph was its first line (validation round r152c
// U1: "I will now review <file>", the part that names the step, was on the third).
func geminiUnindentedWrap(lines []string, j int, said string, oneSpace bool) (string, int) {
	for ; j < len(lines); j++ {
		l := strings.TrimRight(lines[j], " \t")
		if l == "" || l[0] == ' ' || l[0] == '\t' || isGeminiTurnLine(l) || geminiOwnLine(l) {
			break
		}
		if _, _, _, ok := geminiCallLine(l, oneSpace); ok {
			break
		}
		said += "\n" + l
	}
	return said, j
}

// geminiOwnLine says whether a flush-left line is one the console draws: a box's border or
// side, its notices (ℹ, ✕), or the user's typed "> ".
func geminiOwnLine(l string) bool {
	for _, p := range [...]string{"╭", "│", "╰", "ℹ", "✕", ">"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// isGeminiTurnLine says whether l opens a turn: the user's "> " or the model's "✦ ".
func isGeminiTurnLine(l string) bool {
	return strings.HasPrefix(l, "> ") || strings.HasPrefix(l, "✦ ")
}
