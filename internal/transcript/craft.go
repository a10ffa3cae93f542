package transcript

import (
	"bufio"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/loopguard/loopguard"
)

// Craft Agents (a desktop agent app on the Claude Agent SDK) keeps a session as one JSON line
// of its own first, the header ({"id", "workspaceRootPath", "sdkSessionId", "model", ...}),
// then one message a line, each with its place in the conversation ("order"), which the
// file does not keep (a reply's words may be written after the calls they came before):
//
//   - "user": the user's turn (content);
//   - "assistant": the model's words (content), its reply named by turnId;
//   - "tool": a call and its answer together: toolName, toolInput, toolResult (or content),
//     failed when isError or toolStatus says so; turnId names the reply that made it, but
//     for the words of another reply written between two of its calls: a reply's calls and
//     words come together, so calls another reply's words part are calls of two replies
//     (Craft on the pi backend names every call of a user's turn by the turn, "pi-turn-2",
//     and the model's words between them "pi-turn-2__m0": 31 calls made one after another,
//     each answered before the next, were read as one reply, and the loop among them went
//     untold; validation round r119c U1);
//   - "info" (the app's notes: "response interrupted", a compaction) and "plan" (a plan the
//     model submitted, which its SubmitPlan call carries) are passed over.
//
// Written from real sessions' layout (validation round r67c U1: a Kimi-K2.6 session of 351
// calls, unread before).

// craftLine is one line of a Craft Agents session.
type craftLine struct {
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content"`
	Timestamp  int64           `json:"timestamp"`
	Order      *float64        `json:"order"`
	TurnID     string          `json:"turnId"`
	ToolName   string          `json:"toolName"`
	ToolInput  json.RawMessage `json:"toolInput"`
	ToolResult json.RawMessage `json:"toolResult"`
	ToolStatus string          `json:"toolStatus"`
	IsError    bool            `json:"isError"`
}

// isCraftHead says whether a file's first line is a Craft Agents session header.
func isCraftHead(typ string, has func(string) bool) bool {
	return typ == "" && has("sdkSessionId") && has("workspaceRootPath")
}

func readCraft(name string, br *bufio.Reader) (*built, error) {
	var lines []craftLine
	header := true
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(raw []byte) error {
		var l craftLine
		if ok, err := decodeEventLine(raw, &l); !ok {
			return err
		}
		if header {
			header = false
			if l.Type == "" {
				return nil // the session's header
			}
		}
		lines = append(lines, l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The conversation's order, where every line has one; else the file's.
	ordered := true
	for _, l := range lines {
		ordered = ordered && l.Order != nil
	}
	if ordered {
		sort.SliceStable(lines, func(i, j int) bool { return *lines[i].Order < *lines[j].Order })
	}
	b := newBuilder(FormatCraft)
	a := b.agent(MainAgent)
	var callTurn string // the turnId of the last call
	part := 0           // how many times other replies' words parted callTurn's calls
	parted := false     // another reply's words came after the last call
	for _, l := range lines {
		switch l.Type {
		case "user":
			a.user(contentText(anyJSON(l.Content)), l.Timestamp)
		case "assistant":
			if text := contentText(anyJSON(l.Content)); !isBlank(text) {
				a.add(loopguard.Event{Type: loopguard.EventText, Source: "model", Text: text, Turn: l.TurnID, Time: l.Timestamp})
				parted = parted || l.TurnID != callTurn
			}
		case "tool":
			if l.ToolName == "" {
				continue
			}
			call := loopguard.Call("", l.ToolName, rawArgs(l.ToolInput))
			switch {
			case l.TurnID != callTurn:
				callTurn, part = l.TurnID, 0
			case parted:
				part++
			}
			parted = false
			call.Turn, call.Time = l.TurnID, l.Timestamp
			if part > 0 && l.TurnID != "" {
				call.Turn = l.TurnID + "#" + strconv.Itoa(part)
			}
			// A call still running when the session was saved has no answer yet; content
			// repeats the answer where toolResult is missing.
			result, answered := l.ToolResult, true
			if len(result) == 0 || string(result) == "null" {
				result = l.Content
				answered = !isBlank(contentText(anyJSON(result)))
			}
			if answered && l.ToolStatus != "running" && l.ToolStatus != "pending" {
				failed := l.IsError || l.ToolStatus == "error" || l.ToolStatus == "failed"
				call = call.WithResult(contentText(anyJSON(result)), failed)
			}
			a.add(call)
		}
	}
	return withDamaged(b.done(), damaged), nil
}
