package e2e

import (
	"fmt"
	"net/http"
	"strings"
)

// Gemini API (generativelanguage v1beta), as Gemini CLI uses it.

// geminiModelAndMethod splits ".../models/gemini-2.5-flash:streamGenerateContent".
func geminiModelAndMethod(path string) (model, method string) {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return "", ""
	}
	rest := path[i+len("/models/"):]
	model, method, _ = strings.Cut(rest, ":")
	return model, method
}

func parseGemini(r *Request) {
	m := r.JSON
	r.API = APIGemini
	for _, t := range list(m, "tools") {
		to, ok := t.(map[string]any)
		if !ok {
			continue
		}
		for _, fd := range list(to, "functionDeclarations") {
			if fdo, ok := fd.(map[string]any); ok {
				r.Tools = append(r.Tools, str(fdo, "name"))
			}
		}
	}
	if si := obj(m, "systemInstruction"); si != nil {
		for _, p := range list(si, "parts") {
			if po, ok := p.(map[string]any); ok {
				r.Items = append(r.Items, Item{Role: "system", Type: "instructions", Text: str(po, "text")})
			}
		}
	}
	for _, c := range list(m, "contents") {
		co, ok := c.(map[string]any)
		if !ok {
			continue
		}
		role := str(co, "role")
		if role == "model" {
			role = "assistant"
		}
		for _, p := range list(co, "parts") {
			po, ok := p.(map[string]any)
			if !ok {
				continue
			}
			if thought, _ := po["thought"].(bool); thought {
				continue
			}
			switch {
			case po["functionCall"] != nil:
				fc := obj(po, "functionCall")
				r.Items = append(r.Items, Item{Role: role, Type: "tool_call", ToolName: str(fc, "name"),
					CallID: str(fc, "id"), Text: mustJSON(fc["args"])})
			case po["functionResponse"] != nil:
				fr := obj(po, "functionResponse")
				resp := obj(fr, "response")
				text := str(resp, "output")
				isErr := false
				if e, ok := resp["error"]; ok {
					isErr = true
					if es, ok := e.(string); ok {
						text = es
					} else {
						text = mustJSON(e)
					}
				} else if _, ok := resp["output"].(string); !ok {
					text = mustJSON(resp)
				}
				r.Items = append(r.Items, Item{Role: "tool", Type: "tool_result", ToolName: str(fr, "name"),
					CallID: str(fr, "id"), Text: text, IsError: isErr})
			case po["text"] != nil:
				r.Items = append(r.Items, Item{Role: role, Type: "text", Text: str(po, "text")})
			}
		}
	}
	if len(r.Tools) > 0 {
		r.Kind = KindAgent
	} else {
		r.Kind = KindSide
	}
}

// geminiShell is Gemini CLI's shell tool: run_shell_command {"command": CMD}.
func geminiShell(r *Request, cmd string) *Reply {
	if !r.HasTool("run_shell_command") {
		return nil
	}
	return &Reply{ToolName: "run_shell_command", ToolInput: map[string]any{"command": cmd, "description": "Run the e2e command"}}
}

func (s *Server) gemini(w http.ResponseWriter, r *Request) {
	model, method := geminiModelAndMethod(r.Path)
	r.Model = model
	r.API = APIGemini
	if r.JSON == nil {
		s.errorf("request #%d %s: body is not JSON", r.Seq, r.Path)
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"code": 400, "message": "body is not JSON", "status": "INVALID_ARGUMENT"}})
		return
	}
	switch method {
	case "countTokens":
		r.Kind = KindCountTokens
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": estimateTokens(len(r.Body))})
		return
	case "generateContent", "streamGenerateContent":
	default:
		s.errorf("request #%d: unknown Gemini method %q", r.Seq, method)
		http.NotFound(w, nil)
		return
	}
	parseGemini(r)
	r.Stream = method == "streamGenerateContent"

	var rep *Reply
	gc := obj(r.JSON, "generationConfig")
	schema := gc["responseJsonSchema"]
	if schema == nil {
		schema = gc["responseSchema"]
	}
	switch {
	case r.Kind == KindAgent:
		rep = s.decide(r, geminiShell)
	case schema != nil || str(gc, "responseMimeType") == "application/json":
		// Structured side requests (next-speaker check, model routing, ...):
		// answer with an object that fits the schema.
		rep = &Reply{Text: mustJSON(fromSchema(schema))}
	default:
		rep = &Reply{Text: s.script.SideText}
	}
	id := s.answer(r, rep, "e2e-call-%06d")

	// A text part (the model's words), then the call if any.
	var parts []any
	outTok := estimateTokens(len(rep.Text)) + 1
	if rep.ToolName == "" || rep.Text != "" {
		parts = append(parts, map[string]any{"text": rep.Text})
	}
	if rep.ToolName != "" {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"id": rep.CallID, "name": rep.ToolName, "args": rep.ToolInput}})
		outTok += estimateTokens(len(mustJSON(rep.ToolInput))) + 10
	}
	inTok := estimateTokens(len(r.Body))
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": inTok, "candidatesTokenCount": outTok,
			"totalTokenCount": inTok + outTok},
		"modelVersion": model,
		"responseId":   fmt.Sprintf("e2e-resp-%06d", id),
	}
	if !r.Stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	e := newSSE(w)
	e.event("", resp)
}

// fromSchema builds a value that satisfies a (JSON or OpenAPI-style) schema:
// objects get their required properties, strings their first enum value
// (preferring "user", so Gemini CLI's next-speaker check says the user
// speaks next), and so on.
func fromSchema(schema any) any {
	sc, ok := schema.(map[string]any)
	if !ok {
		return map[string]any{}
	}
	typ := strings.ToLower(str(sc, "type"))
	if enum := list(sc, "enum"); len(enum) > 0 {
		for _, e := range enum {
			if e == "user" {
				return e
			}
		}
		return enum[0]
	}
	switch typ {
	case "object", "":
		out := map[string]any{}
		props := obj(sc, "properties")
		req := list(sc, "required")
		if len(req) == 0 {
			for k := range props {
				req = append(req, k)
			}
		}
		for _, k := range req {
			ks, _ := k.(string)
			out[ks] = fromSchema(props[ks])
		}
		return out
	case "array":
		return []any{}
	case "boolean":
		return false
	case "integer", "number":
		return 0
	default:
		return "e2e"
	}
}
