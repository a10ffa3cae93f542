package e2e

import (
	"fmt"
	"net/http"
	"strings"
)

// Anthropic Messages API, as Claude Code uses it.

// parseAnthropic fills the parsed fields of r from a Messages request body.
func parseAnthropic(r *Request) {
	m := r.JSON
	r.API = APIAnthropic
	r.Model = str(m, "model")
	r.Stream, _ = m["stream"].(bool)
	for _, t := range list(m, "tools") {
		if to, ok := t.(map[string]any); ok {
			r.Tools = append(r.Tools, str(to, "name"))
		}
	}
	switch sys := m["system"].(type) {
	case string:
		r.Items = append(r.Items, Item{Role: "system", Type: "instructions", Text: sys})
	case []any:
		for _, b := range sys {
			if bo, ok := b.(map[string]any); ok {
				r.Items = append(r.Items, Item{Role: "system", Type: "instructions", Text: str(bo, "text")})
			}
		}
	}
	for _, mm := range list(m, "messages") {
		msg, ok := mm.(map[string]any)
		if !ok {
			continue
		}
		role := str(msg, "role")
		switch c := msg["content"].(type) {
		case string:
			r.Items = append(r.Items, Item{Role: role, Type: "text", Text: c})
		case []any:
			for _, b := range c {
				bo, ok := b.(map[string]any)
				if !ok {
					continue
				}
				switch str(bo, "type") {
				case "text":
					r.Items = append(r.Items, Item{Role: role, Type: "text", Text: str(bo, "text")})
				case "tool_use":
					r.Items = append(r.Items, Item{Role: role, Type: "tool_call", ToolName: str(bo, "name"),
						CallID: str(bo, "id"), Text: mustJSON(bo["input"])})
				case "tool_result":
					isErr, _ := bo["is_error"].(bool)
					r.Items = append(r.Items, Item{Role: "tool", Type: "tool_result", CallID: str(bo, "tool_use_id"),
						IsError: isErr, Text: anthropicContentText(bo["content"])})
				}
			}
		}
	}
	if len(r.Tools) > 0 {
		r.Kind = KindAgent
	} else {
		r.Kind = KindSide
	}
}

// anthropicContentText flattens a tool_result content (string or blocks).
func anthropicContentText(c any) string {
	switch c := c.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			if bo, ok := b.(map[string]any); ok && str(bo, "type") == "text" {
				parts = append(parts, str(bo, "text"))
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func (s *Server) anthropicCountTokens(w http.ResponseWriter, r *Request) {
	r.API = APIAnthropic
	r.Kind = KindCountTokens
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": estimateTokens(len(r.Body))})
}

// anthropicShell is the Claude Code shell tool: Bash {"command": CMD}.
func anthropicShell(r *Request, cmd string) *Reply {
	if !r.HasTool("Bash") {
		return nil
	}
	return &Reply{ToolName: "Bash", ToolInput: map[string]any{"command": cmd, "description": "Run the e2e command"}}
}

func (s *Server) anthropicMessages(w http.ResponseWriter, r *Request) {
	if r.JSON == nil {
		s.errorf("request #%d %s: body is not JSON", r.Seq, r.Path)
		writeJSON(w, http.StatusBadRequest, map[string]any{"type": "error",
			"error": map[string]any{"type": "invalid_request_error", "message": "body is not JSON"}})
		return
	}
	parseAnthropic(r)
	var rep *Reply
	if r.Kind == KindAgent {
		rep = s.decide(r, anthropicShell)
	} else {
		rep = &Reply{Text: s.script.SideText}
	}
	id := s.answer(r, rep, "toolu_e2e%06d")

	msgID := fmt.Sprintf("msg_e2e%06d", id)
	model := r.Model
	if model == "" {
		model = "claude-e2e"
	}
	inTok := estimateTokens(len(r.Body))
	outTok := estimateTokens(len(rep.Text)) + 1
	var blocks []map[string]any // a text block (the model's words), then the call if any
	stop := "end_turn"
	if rep.ToolName == "" || rep.Text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": rep.Text})
	}
	if rep.ToolName != "" {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": rep.CallID, "name": rep.ToolName, "input": rep.ToolInput})
		stop = "tool_use"
		outTok += estimateTokens(len(mustJSON(rep.ToolInput))) + 10
	}
	usage := map[string]any{
		"input_tokens": inTok, "output_tokens": outTok,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}

	if !r.Stream {
		content := make([]any, len(blocks))
		for i, b := range blocks {
			content[i] = b
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}

	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": inTok, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	for i, b := range blocks {
		if b["type"] == "tool_use" {
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": rep.CallID, "name": rep.ToolName, "input": map[string]any{}}})
			e.event("ping", map[string]any{"type": "ping"})
			// Stream the arguments in two pieces, as the real API does.
			args := mustJSON(rep.ToolInput)
			half := len(args) / 2
			for _, part := range []string{args[:half], args[half:]} {
				e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		} else {
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			e.event("ping", map[string]any{"type": "ping"})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": rep.Text}})
		}
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": outTok}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
