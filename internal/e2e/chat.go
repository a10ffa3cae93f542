package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OpenAI Chat Completions, as opencode (and most OpenAI-compatible clients) use it.

// APIChat is the Chat Completions API.
const APIChat API = "openai-chat"

func parseChat(r *Request) {
	m := r.JSON
	r.API = APIChat
	r.Model = str(m, "model")
	r.Stream, _ = m["stream"].(bool)
	for _, t := range list(m, "tools") {
		if to, ok := t.(map[string]any); ok {
			r.Tools = append(r.Tools, str(obj(to, "function"), "name"))
		}
	}
	for _, x := range list(m, "messages") {
		msg, ok := x.(map[string]any)
		if !ok {
			continue
		}
		role := str(msg, "role")
		text := chatContentText(msg["content"])
		switch role {
		case "system", "developer":
			r.Items = append(r.Items, Item{Role: role, Type: "text", Text: text})
		case "user":
			r.Items = append(r.Items, Item{Role: "user", Type: "text", Text: text})
		case "assistant":
			if text != "" {
				r.Items = append(r.Items, Item{Role: "assistant", Type: "text", Text: text})
			}
			for _, tc := range list(msg, "tool_calls") {
				if tco, ok := tc.(map[string]any); ok {
					fn := obj(tco, "function")
					r.Items = append(r.Items, Item{Role: "assistant", Type: "tool_call", ToolName: str(fn, "name"),
						CallID: str(tco, "id"), Text: str(fn, "arguments")})
				}
			}
		case "tool":
			r.Items = append(r.Items, Item{Role: "tool", Type: "tool_result", CallID: str(msg, "tool_call_id"), Text: text})
		}
	}
	if len(r.Tools) > 0 {
		r.Kind = KindAgent
	} else {
		r.Kind = KindSide
	}
}

// chatContentText flattens a message's content: a string or a list of parts.
func chatContentText(c any) string {
	switch c := c.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			if po, ok := p.(map[string]any); ok && str(po, "text") != "" {
				parts = append(parts, str(po, "text"))
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// chatShell picks the client's shell tool (opencode's is "bash", Continue's "Bash", Cline
// CLI's "run_commands").
func chatShell(r *Request, cmd string) *Reply {
	for _, name := range []string{"bash", "shell", "run_shell_command", "Bash"} {
		if r.HasTool(name) {
			return &Reply{ToolName: name, ToolInput: map[string]any{"command": cmd, "description": "Run the e2e command"}}
		}
	}
	if r.HasTool("run_commands") { // Cline CLI 3: a list of commands
		return &Reply{ToolName: "run_commands", ToolInput: map[string]any{"commands": []string{cmd}}}
	}
	return nil
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *Request) {
	if r.JSON == nil {
		s.errorf("request #%d %s: body is not JSON", r.Seq, r.Path)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "body is not JSON"}})
		return
	}
	parseChat(r)
	var rep *Reply
	if r.Kind == KindAgent {
		rep = s.decide(r, chatShell)
	} else {
		rep = &Reply{Text: s.script.SideText}
	}
	id := s.answer(r, rep, "call_e2e%06d")
	cid := fmt.Sprintf("chatcmpl-e2e%06d", id)
	created := time.Now().Unix()
	inTok := estimateTokens(len(r.Body))
	message := map[string]any{"role": "assistant", "content": rep.Text}
	finish := "stop"
	if rep.ToolName != "" {
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": rep.CallID, "type": "function", "function": map[string]any{"name": rep.ToolName, "arguments": mustJSON(rep.ToolInput)}}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": inTok, "completion_tokens": 10, "total_tokens": inTok + 10}
	if !r.Stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": cid, "object": "chat.completion", "created": created, "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": cid, "object": "chat.completion.chunk", "created": created, "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if rep.ToolName != "" {
		tc := message["tool_calls"].([]any)[0].(map[string]any)
		tc["index"] = 0
		e.event("", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{tc}}, nil))
	} else {
		e.event("", chunk(map[string]any{"role": "assistant", "content": rep.Text}, nil))
	}
	e.event("", chunk(map[string]any{}, finish))
	e.event("", map[string]any{"id": cid, "object": "chat.completion.chunk", "created": created, "model": r.Model, "choices": []any{}, "usage": usage})
	fmt.Fprint(w, "data: [DONE]\n\n")
	e.f.Flush()
}
