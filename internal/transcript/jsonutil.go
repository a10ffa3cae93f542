package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// lineReader reads JSONL lines of any length, counting them. The returned slice is valid
// until the next call.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte
	line int
	eof  bool
}

func (lr *lineReader) next() ([]byte, error) {
	if lr.eof {
		return nil, io.EOF
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			lr.buf = append(lr.buf, chunk...)
			if len(lr.buf) > maxLineSize {
				lr.line++
				return nil, fmt.Errorf("line longer than %d bytes", maxLineSize)
			}
			continue
		}
		line := chunk
		if len(lr.buf) > 0 {
			lr.buf = append(lr.buf, chunk...)
			line = lr.buf
		}
		if err == io.EOF {
			lr.eof = true
			if len(line) == 0 {
				return nil, io.EOF
			}
			lr.line++
			return line, nil
		}
		if err != nil {
			lr.line++
			return nil, readErr(err)
		}
		lr.line++
		return line, nil
	}
}

// eachLine calls fn for every non-blank line. Any error is returned as an *Error naming the
// path and the line.
func eachLine(name string, br *bufio.Reader, fn func(line []byte) error) error {
	return eachSessionLine(name, br, nil, fn)
}

// eachSessionLine is eachLine for an agent's session log, which a crash, a copy or a
// redaction script can leave with a damaged line (cut short, a bad escape such as \*, a line
// split in two). With damaged set, a line whose strings are JSON only as written is read as
// jsonscan.Repair writes it, a line that is not JSON at all is passed over and named there,
// and the rest of the session is read; a line that is JSON but not what the format
// expects is still an error, and so is a file whose lines are mostly not JSON (it is not
// this format). With damaged nil it is eachLine: the first bad line fails the file.
func eachSessionLine(name string, br *bufio.Reader, damaged *[]*Error, fn func(line []byte) error) error {
	lr := &lineReader{br: br}
	read := 0
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &Error{Path: name, Line: lr.line, Err: err}
		}
		line = bytesTrimSpace(line)
		if len(line) == 0 {
			continue
		}
		read++
		if err := fn(line); err != nil {
			if damaged != nil && !json.Valid(line) {
				// A string that is JSON only as written (a bad escape such as \*, a raw
				// control byte) is read as written, as the walker reads it, rather than the
				// line lost.
				if fixed, ok := jsonscan.Repair(line); ok && json.Valid(fixed) && fn(fixed) == nil {
					continue
				}
			}
			e := &Error{Path: name, Line: lr.line, Err: err}
			if damaged == nil || json.Valid(line) {
				return e
			}
			*damaged = append(*damaged, e)
			if n := len(*damaged); n >= 3 && 2*n > read {
				return e
			}
		}
	}
}

// walkLine decodes one JSONL line with the walker: member gets each top-level member.
func walkLine(line []byte, member func(w *walker) memberFunc) error {
	if line[0] != '{' {
		return errors.New("invalid JSON line: not an object")
	}
	w := &walker{data: line}
	end, err := w.object(0, member(w))
	if err == nil {
		err = w.end(end)
	}
	if err != nil {
		return fmt.Errorf("invalid JSON line: %w", err)
	}
	return nil
}

// tolerable reports whether a document decode error only concerns values of unexpected types.
func tolerable(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// isoLayouts are the timestamp forms parseTime reads: RFC 3339, and the same without its zone
// as Python's datetime.isoformat() writes a naive time (OpenHands' agent SDK stamps every event
// "2026-02-05T11:24:47.142819"; validation round r131a U1), with a T or a space between date and
// time.
var isoLayouts = [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"}

// parseTime reads a timestamp of isoLayouts as Unix milliseconds; 0 when absent or unreadable.
// A time without a zone is taken as UTC: the rules need the spans between a run's events, which
// one zone for the whole run keeps, not the wall clock.
func parseTime(s string) int64 {
	if s == "" {
		return 0
	}
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli()
		}
	}
	return 0
}

// jsonOrInput returns arguments an export wrote as text: compact JSON when the text is JSON,
// else the text whole under "input".
func jsonOrInput(text string) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(text)) == nil && buf.Len() > 0 {
		return buf.Bytes()
	}
	return marshalArgs(map[string]string{"input": text})
}

// rawArgs turns a JSON value holding call arguments into the bytes the model produced: the
// content of a JSON string (arguments that are a JSON-encoded string, as in the OpenAI APIs),
// or for any other JSON value its bytes without insignificant white space (files written
// with indentation then give the same bytes as compact ones; key order is kept). null and
// absence give nil.
func rawArgs(v json.RawMessage) []byte {
	v = bytesTrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if s == "" {
				return nil
			}
			return []byte(s)
		}
	}
	var buf bytes.Buffer
	buf.Grow(len(v))
	if json.Compact(&buf, v) == nil {
		return buf.Bytes()
	}
	return append([]byte(nil), v...)
}

// contentText extracts the text of a message content value decoded into `any`: a string, a
// list of parts ({"type":"text","text":...}, {"text":...}, images), or a single part.
func contentText(c any) string {
	switch v := c.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		if len(v) == 1 {
			return partText(v[0])
		}
		var sb strings.Builder
		for _, p := range v {
			t := partText(p)
			if t == "" {
				continue
			}
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(t)
		}
		return sb.String()
	case map[string]any:
		return partText(v)
	}
	return ""
}

func partText(p any) string {
	switch v := p.(type) {
	case string:
		return v
	case map[string]any:
		switch t := v["text"].(type) {
		case string:
			return t
		case []any:
			return contentText(t) // a part whose text is itself a list of parts (exports' tool_output)
		}
		switch v["type"] {
		case "text":
			if t, ok := v["content"].(string); ok {
				return t // AgentDojo's text parts: {"type": "text", "content": "..."}
			}
		case "image", "image_url", "input_image", "inlineData":
			return "[image]"
		case "tool_result":
			return contentText(v["content"])
		case "search_result":
			// A search's result as the Messages API gives it to the model (Anthropic's managed
			// agents answer web_search so): its title, where it is from and its texts. Read as
			// no text, every search was the same empty answer (validation round r174a R1).
			return joinLines(stringField(v, "title"), stringField(v, "source"), contentText(v["content"]))
		case "document":
			// A fetched document: its title and, when the source is text, the text.
			var data string
			if src, ok := v["source"].(map[string]any); ok && src["type"] == "text" {
				data = stringField(src, "data")
			}
			return joinLines(stringField(v, "title"), data, contentText(v["content"]))
		case "tool_reference":
			// Claude Code's ToolSearch answers with the tools it loaded, by name: searches
			// that load different tools are different answers, not one empty one.
			if name, ok := v["tool_name"].(string); ok {
				return "[tool_reference " + name + "]"
			}
		}
		if _, ok := v["inlineData"]; ok {
			return "[image]"
		}
		if t, ok := v["result"].(string); ok {
			return t // Cline CLI 3's command results: {"query", "result", "success"}
		}
	}
	return ""
}

// joinLines joins the texts that are not empty, a line break between each two.
func joinLines(texts ...string) string {
	var out string
	for _, t := range texts {
		if t == "" {
			continue
		}
		if out != "" {
			out += "\n"
		}
		out += t
	}
	return out
}

// anyUnsuccessful says whether a tool result's content lists a part that says it failed
// ({"success": false}, as Cline CLI 3 reports each of a call's commands).
func anyUnsuccessful(content any) bool {
	parts, _ := content.([]any)
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			if ok, present := m["success"].(bool); present && !ok {
				return true
			}
		}
	}
	return false
}

// firstToken returns the first white-space separated word of s.
func firstToken(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexAny(s, " \t\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// marshalArgs writes a call's arguments decoded from a transcript back as JSON, as the model
// wrote them: without encoding/json's HTML escaping, which would turn a command's "2>&1" into
// "2\u003e\u00261" in every notice that quotes it. nil when v cannot be written.
func marshalArgs(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// jsonText is a JSON value as text: a string's own text, anything else as written.
func jsonText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// mcpResult reads a tool's answer kept as an MCP server returned it, as some harnesses store
// it in their logs: a CallToolResult ({"content": [...], "isError": true}), perhaps wrapped in
// the one content item that carried it ({"type": "text", "text": "<the CallToolResult>"},
// MCPMark's logs). It returns the text of the result's content and whether the server said the
// call failed; ok is false for any other text, which is then the answer as written. Read as
// written, 193 of 502 answers that said isError were no failures, and a server failing
// thirteen times in a row went untold (validation round r64a U2, M1).
func mcpResult(text string) (result string, failed, ok bool) {
	t := strings.TrimSpace(text)
	if len(t) < 2 || t[0] != '{' || !strings.Contains(t, "isError") { // (escaped, when wrapped)
		return text, false, false
	}
	var v map[string]any
	if json.Unmarshal([]byte(t), &v) != nil {
		return text, false, false
	}
	if inner, isText := v["text"].(string); isText && v["type"] == "text" {
		// the content item that carried the result: the result is its text
		if json.Unmarshal([]byte(strings.TrimSpace(inner)), &v) != nil {
			return text, false, false
		}
	}
	list, hasContent := v["content"].([]any)
	isError, hasFlag := v["isError"].(bool)
	if !hasContent || !hasFlag {
		return text, false, false
	}
	return contentText(list), isError, true
}

// answerObjectFailed says whether a tool's answer, as text, is a JSON object that reports its
// command's failure at its top level: an exit code other than 0 ("exitCode", "exit_code",
// "returncode"), as a shell tool wraps a command's run ({"stdout", "stderr", "exitCode": 1}).
// Harnesses that wrap a command's output so keep no failure flag of their own (validation
// round r148b U3: four failed lint runs of a Node agent read as successes). An answer's error
// field is left to the guard, which reads it as it reads any answer.
func answerObjectFailed(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return false
	}
	if !strings.Contains(t, `xit`) && !strings.Contains(t, "returncode") {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &top) != nil {
		return false
	}
	return exitCodeFailed(top)
}

// exitCodeFailed says whether a JSON object's members report an exit code other than 0
// ("exitCode", "exit_code", "returncode").
func exitCodeFailed(top map[string]json.RawMessage) bool {
	for _, k := range [...]string{"exitCode", "exit_code", "returncode"} {
		var code float64
		if raw, ok := top[k]; ok && json.Unmarshal(raw, &code) == nil && code != 0 {
			return true
		}
	}
	return false
}
