package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
)

// responsesOutput finds the response id and output items in a Responses API response body:
// a JSON response object, or the SSE stream (the final response.completed event carries the
// whole response; a stream cut short still gives the items announced by output_item.done).
func responsesOutput(body []byte) (id string, items []json.RawMessage) {
	type response struct {
		ID     string            `json:"id"`
		Output []json.RawMessage `json:"output"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var r response
		if json.Unmarshal(trimmed, &r) != nil {
			return "", nil
		}
		return r.ID, r.Output
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	var done []json.RawMessage
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		if !ok {
			continue
		}
		var ev struct {
			Type     string          `json:"type"`
			Response *response       `json:"response"`
			Item     json.RawMessage `json:"item"`
		}
		if json.Unmarshal(bytes.TrimSpace(data), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "response.created", "response.in_progress":
			if ev.Response != nil && id == "" {
				id = ev.Response.ID
			}
		case "response.output_item.done":
			done = append(done, ev.Item)
		case "response.completed", "response.incomplete":
			if ev.Response != nil {
				return ev.Response.ID, ev.Response.Output
			}
		}
	}
	return id, done
}
