package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/loopguard/loopguard"
)

// Goose (block/goose) writes its conversations as messages of content blocks, the same in
// every place it keeps them:
//
//   - the session files of releases before its SQLite store (~/.local/share/goose/sessions/
//     <id>.jsonl): a first line of session metadata (working_dir, description,
//     message_count, tokens), then one message a line;
//   - what `goose run --output-format stream-json` prints: {"type": "message", "message":
//     {...}} lines, between "notification", "error" and "complete" events;
//   - a session exported as JSON ({"conversation": [...]}), read as a message list (see
//     jsondoc.go).
//
// A message is {"role": "user" | "assistant", "created", "content": [blocks]}. The model's
// calls are toolRequest blocks, {"id", "toolCall": {"status": "success", "value": {"name",
// "arguments"}}} (status "error" with an "error" text when Goose could not parse the call);
// their results come back in the next user message as toolResponse blocks, {"id",
// "toolResult": {"status", "value"}}, where value is an MCP CallToolResult ({"content":
// [...], "isError"}) or, in older sessions, the content list itself, and status "error"
// carries an "error" text. Text and thinking blocks are the model's words. addMessages reads
// the blocks; this file reads the two line formats.

// gooseLine is one line of a Goose session file or of its stream-json output.
type gooseLine struct {
	Type    string          `json:"type"`
	Message json.RawMessage `json:"message"`
	Role    string          `json:"role"`
	Content any             `json:"content"`
	Error   string          `json:"error"`
}

// isGooseHead says whether the first line of a file is Goose's: a session file's metadata
// (with more lines after it: an exported session is one document with the same keys), or a
// stream-json event.
func isGooseHead(typ string, has func(string) bool, multi bool) bool {
	switch {
	case typ == "" && multi && has("working_dir") && (has("description") || has("message_count")):
		return true
	case typ == "message" && has("message") && !has("role") && !has("parentId"):
		return true // (a pi entry has a parentId: isPiHead)
	case typ == "notification" && has("extension_id"):
		return true
	}
	return false
}

func readGoose(name string, br *bufio.Reader) (*built, error) {
	var list []msg
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l gooseLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		switch {
		case l.Type == "message" && len(l.Message) > 0:
			var m msg
			if err := json.Unmarshal(l.Message, &m); err != nil {
				return fmt.Errorf("message: %w", err)
			}
			list = append(list, m)
		case l.Role != "":
			list = append(list, msg{Role: l.Role, Content: l.Content})
		case l.Type == "error" && l.Error != "":
			list = append(list, msg{Role: "error", Content: l.Error})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(buildMessages(FormatGoose, list), damaged), nil
}

// isGooseList says whether a message list holds Goose's tool blocks.
func isGooseList(msgs []msg) bool {
	for i := range msgs {
		if blocks, ok := msgs[i].Content.([]any); ok && (hasBlock(blocks, "toolRequest") || hasBlock(blocks, "toolResponse")) {
			return true
		}
	}
	return false
}

// gooseCall reads a toolRequest block. failure is Goose's error text when it could not read
// the model's call (no name, no arguments).
func gooseCall(block map[string]any) (id, name string, args []byte, failure string) {
	id, _ = block["id"].(string)
	call, _ := block["toolCall"].(map[string]any)
	if call == nil {
		return id, "", nil, "a tool request without a call"
	}
	if call["status"] == "error" {
		failure, _ = call["error"].(string)
		if failure == "" {
			failure = "a tool request Goose could not read"
		}
		return id, "", nil, failure
	}
	value, _ := call["value"].(map[string]any)
	name, _ = value["name"].(string)
	if a, ok := value["arguments"]; ok && a != nil {
		args = marshalArgs(a)
	}
	return id, name, args, ""
}

// gooseResult reads a toolResponse block: the result's text, and whether it failed (status
// "error", or an MCP result with isError set).
func gooseResult(block map[string]any) (id, text string, failed bool) {
	id, _ = block["id"].(string)
	res, _ := block["toolResult"].(map[string]any)
	if res == nil {
		return id, "", false
	}
	if res["status"] == "error" {
		text, _ = res["error"].(string)
		return id, text, true
	}
	switch v := res["value"].(type) {
	case []any: // older sessions: the content list itself
		return id, forModel(v), false
	case map[string]any:
		failed, _ = v["isError"].(bool)
		list, _ := v["content"].([]any)
		return id, forModel(list), failed
	}
	return id, "", false
}

// forModel is the text of the content items the model reads: Goose's tools may add items
// for the user alone (annotations.audience ["user"]), often a second copy of the output.
func forModel(items []any) string {
	kept := items[:0:0]
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && !forAssistant(m) {
			continue
		}
		kept = append(kept, it)
	}
	return contentText(kept)
}

// forAssistant says whether a content item is for the model: it names no audience, or the
// assistant among it.
func forAssistant(item map[string]any) bool {
	ann, _ := item["annotations"].(map[string]any)
	audience, ok := ann["audience"].([]any)
	if !ok {
		return true
	}
	for _, a := range audience {
		if a == "assistant" {
			return true
		}
	}
	return false
}

// addGooseCall records a toolRequest block as a call of a, or as harness text when Goose
// could not read it (the error comes back as the call's result too, with no call to hold it).
func addGooseCall(a *agentBuf, p *pendingCalls, block map[string]any) {
	id, name, args, failure := gooseCall(block)
	if failure != "" {
		a.text("harness", failure, "", 0)
		return
	}
	p.add(id, a.add(loopguard.Call("", name, args)))
}
