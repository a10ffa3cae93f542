package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OpenAI Responses API, as Codex uses it (wire_api = "responses").

func parseResponses(r *Request) {
	m := r.JSON
	r.API = APIResponses
	r.Model = str(m, "model")
	r.Stream, _ = m["stream"].(bool)
	for _, t := range list(m, "tools") {
		to, ok := t.(map[string]any)
		if !ok {
			continue
		}
		name := str(to, "name")
		if name == "" {
			name = str(to, "type") // e.g. local_shell, web_search
		}
		r.Tools = append(r.Tools, name)
	}
	if ins := str(m, "instructions"); ins != "" {
		r.Items = append(r.Items, Item{Role: "system", Type: "instructions", Text: ins})
	}
	switch in := m["input"].(type) {
	case string:
		r.Items = append(r.Items, Item{Role: "user", Type: "text", Text: in})
	case []any:
		for _, x := range in {
			it, ok := x.(map[string]any)
			if !ok {
				continue
			}
			typ := str(it, "type")
			if typ == "" && str(it, "role") != "" {
				typ = "message"
			}
			switch typ {
			case "message":
				role := str(it, "role")
				switch c := it["content"].(type) {
				case string:
					r.Items = append(r.Items, Item{Role: role, Type: "text", Text: c})
				case []any:
					for _, p := range c {
						if po, ok := p.(map[string]any); ok {
							if t := str(po, "text"); t != "" || strings.HasSuffix(str(po, "type"), "text") {
								r.Items = append(r.Items, Item{Role: role, Type: "text", Text: t})
							}
						}
					}
				}
			case "function_call":
				r.Items = append(r.Items, Item{Role: "assistant", Type: "tool_call", ToolName: str(it, "name"),
					CallID: str(it, "call_id"), Text: str(it, "arguments")})
			case "custom_tool_call":
				r.Items = append(r.Items, Item{Role: "assistant", Type: "tool_call", ToolName: str(it, "name"),
					CallID: str(it, "call_id"), Text: str(it, "input")})
			case "local_shell_call":
				r.Items = append(r.Items, Item{Role: "assistant", Type: "tool_call", ToolName: "local_shell",
					CallID: str(it, "call_id"), Text: mustJSON(it["action"])})
			case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
				r.Items = append(r.Items, Item{Role: "tool", Type: "tool_result", CallID: str(it, "call_id"),
					Text: responsesOutputText(it["output"])})
			}
		}
	}
	if len(r.Tools) > 0 {
		r.Kind = KindAgent
	} else {
		r.Kind = KindSide
	}
}

// responsesOutputText flattens a function_call_output's output (a string, a
// list of content items, or an object with "content").
func responsesOutputText(o any) string {
	switch o := o.(type) {
	case string:
		return o
	case []any:
		var parts []string
		for _, p := range o {
			if po, ok := p.(map[string]any); ok {
				if t := str(po, "text"); t != "" {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if c, ok := o["content"]; ok {
			return responsesOutputText(c)
		}
		return mustJSON(o)
	}
	return ""
}

// responsesShell picks Codex's shell tool from the offered tools and builds
// its arguments.
func responsesShell(r *Request, cmd string) *Reply {
	switch {
	case r.HasTool("exec_command"):
		return &Reply{ToolName: "exec_command", ToolInput: map[string]any{"cmd": cmd}}
	case r.HasTool("shell_command"):
		return &Reply{ToolName: "shell_command", ToolInput: map[string]any{"command": cmd}}
	case r.HasTool("shell"):
		return &Reply{ToolName: "shell", ToolInput: map[string]any{"command": []any{"bash", "-lc", cmd}}}
	}
	return nil
}

func (s *Server) responses(w http.ResponseWriter, r *Request) {
	if r.JSON == nil {
		s.errorf("request #%d %s: body is not JSON", r.Seq, r.Path)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "body is not JSON"}})
		return
	}
	parseResponses(r)
	var rep *Reply
	if r.Kind == KindAgent {
		rep = s.decide(r, responsesShell)
	} else {
		rep = &Reply{Text: s.script.SideText}
	}
	id := s.answer(r, rep, "call_e2e%06d")

	respID := fmt.Sprintf("resp_e2e%06d", id)
	model := r.Model
	created := time.Now().Unix()
	inTok := estimateTokens(len(r.Body))
	// A message item (the model's words), then the call if any.
	var items []map[string]any
	outTok := estimateTokens(len(rep.Text)) + 1
	if rep.ToolName == "" || rep.Text != "" {
		items = append(items, map[string]any{"type": "message", "id": fmt.Sprintf("msg_e2e%06d", id), "status": "completed",
			"role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}})
	}
	if rep.ToolName != "" {
		args := mustJSON(rep.ToolInput)
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_e2e%06d", id), "status": "completed",
			"call_id": rep.CallID, "name": rep.ToolName, "arguments": args}
		if rep.Namespace != "" {
			item["namespace"] = rep.Namespace
		}
		items = append(items, item)
		outTok += estimateTokens(len(args)) + 10
	}
	output := make([]any, len(items))
	for i, it := range items {
		output[i] = it
	}
	usage := map[string]any{
		"input_tokens": inTok, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": outTok, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": inTok + outTok,
	}
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "created_at": created, "status": status,
			"model": model, "output": output, "usage": usage}
	}
	if !r.Stream {
		writeJSON(w, http.StatusOK, response("completed", output, usage))
		return
	}

	e := newSSE(w)
	seq := 0
	ev := func(name string, data map[string]any) {
		data["type"] = name
		data["sequence_number"] = seq
		seq++
		e.event(name, data)
	}
	ev("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	ev("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})
	for i, item := range items {
		added := copyMap(item)
		added["status"] = "in_progress"
		if item["type"] == "function_call" {
			added["arguments"] = ""
			ev("response.output_item.added", map[string]any{"output_index": i, "item": added})
			ev("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": item["arguments"]})
			ev("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "arguments": item["arguments"]})
		} else {
			added["content"] = []any{}
			ev("response.output_item.added", map[string]any{"output_index": i, "item": added})
			part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}}
			ev("response.content_part.added", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": part})
			ev("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": rep.Text})
			ev("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": rep.Text})
			done := map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}
			ev("response.content_part.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": done})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	ev("response.completed", map[string]any{"response": response("completed", output, usage)})
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
