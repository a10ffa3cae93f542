package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// OpenTelemetry traces of agents, exported as OTLP JSON: the OTLP file exporter and the
// collector's file exporter write one {"resourceSpans": [...]} object per line (a batch);
// a single, possibly indented, document is read too, and so is Grafana Tempo's trace API
// answer, which holds the same resource spans under "batches". Spans are read under two
// conventions:
//
//   - OpenTelemetry GenAI semantic conventions: a span with gen_ai.operation.name
//     "execute_tool" (or a gen_ai.tool.name without another operation) is a tool call:
//     gen_ai.tool.name, arguments gen_ai.tool.call.arguments, result gen_ai.tool.call.result
//     (older drafts: gen_ai.tool.arguments, gen_ai.tool.result; Google ADK without them:
//     gcp.vertex.agent.tool_call_args, gcp.vertex.agent.tool_response). A chat span's
//     gen_ai.output.messages text parts are model text. The session is gen_ai.conversation.id;
//     the agent is the gen_ai.agent.name of the span or of its nearest ancestor.
//   - OpenInference: a span with openinference.span.kind "TOOL" is a call: tool.name,
//     arguments input.value, result output.value. An LLM span's
//     llm.output_messages.N.message.content is model text. The session is session.id; the
//     agent is agent.name, or the name of the nearest AGENT span.
//
// A call failed when its span's status is an error (code 2 or "STATUS_CODE_ERROR") or it has
// an error.type. Sessions: one per conversation or session id; spans of a trace without one
// take the id of another span of the trace that has one, else form a session of their own
// (per trace). Sessions are numbered in the order of their first span; within a session,
// events are in order of span start time. User turns are not read: an LLM span's input
// repeats the whole conversation so far. Other spans (HTTP, database, the agent's own) are
// ignored.

type otlpValue struct {
	StringValue *string         `json:"stringValue"`
	IntValue    json.RawMessage `json:"intValue"`
	DoubleValue *float64        `json:"doubleValue"`
	BoolValue   *bool           `json:"boolValue"`
	ArrayValue  *struct {
		Values []otlpValue `json:"values"`
	} `json:"arrayValue"`
	KvlistValue *struct {
		Values []otlpAttr `json:"values"`
	} `json:"kvlistValue"`
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

type otlpSpan struct {
	TraceID      string          `json:"traceId"`
	SpanID       string          `json:"spanId"`
	ParentSpanID string          `json:"parentSpanId"`
	Name         string          `json:"name"`
	Start        json.RawMessage `json:"startTimeUnixNano"`
	Attributes   []otlpAttr      `json:"attributes"`
	Status       *otlpStatus     `json:"status"`

	attrs map[string]string
	start uint64
}

// otlpStatus is a span's status: its code (a number or a name) and message.
type otlpStatus struct {
	Code    any    `json:"code"`
	Message string `json:"message"`
}

type otlpResourceSpans struct {
	ScopeSpans []struct {
		Spans []otlpSpan `json:"spans"`
	} `json:"scopeSpans"`
	// OTLP before 1.0 called them instrumentationLibrarySpans.
	LibrarySpans []struct {
		Spans []otlpSpan `json:"spans"`
	} `json:"instrumentationLibrarySpans"`
}

type otlpDoc struct {
	ResourceSpans []otlpResourceSpans `json:"resourceSpans"`
	// Grafana Tempo's trace API (/api/traces/<id>) returns the resource spans as batches.
	Batches []otlpResourceSpans `json:"batches"`
}

// otlpConsoleSpan is a span as OpenTelemetry Python's ConsoleSpanExporter prints it
// (ReadableSpan.to_json): one indented JSON object a span, its ids in "context", its
// attributes a plain object. Agent frameworks' samples (Microsoft Agent Framework's) trace to
// the console this way, and people keep what it printed.
type otlpConsoleSpan struct {
	Name    string `json:"name"`
	Context *struct {
		TraceID string `json:"trace_id"`
		SpanID  string `json:"span_id"`
	} `json:"context"`
	ParentID   *string                    `json:"parent_id"`
	StartTime  string                     `json:"start_time"`
	Attributes map[string]json.RawMessage `json:"attributes"`
	Status     *struct {
		StatusCode  string `json:"status_code"`
		Description string `json:"description"`
	} `json:"status"`
}

// span converts a console span to an OTLP one: string attributes as they are, others as
// their JSON text.
func (c *otlpConsoleSpan) span() *otlpSpan {
	s := &otlpSpan{TraceID: c.Context.TraceID, SpanID: c.Context.SpanID, Name: c.Name}
	if c.ParentID != nil {
		s.ParentSpanID = *c.ParentID
	}
	if ms := parseTime(c.StartTime); ms > 0 {
		s.Start = json.RawMessage(strconv.FormatInt(ms*1e6, 10))
	}
	for k, raw := range c.Attributes {
		var text string
		if json.Unmarshal(raw, &text) != nil {
			text = string(raw)
		}
		s.Attributes = append(s.Attributes, otlpAttr{Key: k, Value: otlpValue{StringValue: &text}})
	}
	if c.Status != nil {
		s.Status = &otlpStatus{Code: c.Status.StatusCode, Message: c.Status.Description}
	}
	return s
}

// text renders an attribute value as a string: strings as they are, other scalars as JSON,
// arrays and lists as JSON.
func (v *otlpValue) text() string {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case len(v.IntValue) > 0:
		var s string
		if json.Unmarshal(v.IntValue, &s) == nil {
			return s
		}
		return string(v.IntValue)
	case v.DoubleValue != nil:
		return strconv.FormatFloat(*v.DoubleValue, 'g', -1, 64)
	case v.BoolValue != nil:
		return strconv.FormatBool(*v.BoolValue)
	case v.ArrayValue != nil:
		parts := make([]string, len(v.ArrayValue.Values))
		for i := range v.ArrayValue.Values {
			b, _ := json.Marshal(v.ArrayValue.Values[i].text())
			parts[i] = string(b)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return ""
}

func parseNanos(raw json.RawMessage) uint64 {
	s := strings.Trim(string(raw), `"`)
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

// readOTLP reads OTLP JSON: one or more {"resourceSpans": ...} (or Tempo's {"batches": ...})
// documents, or the spans a console exporter printed one after another (otlpConsoleSpan).
func readOTLP(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var spans []*otlpSpan
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		var doc struct {
			otlpDoc
			otlpConsoleSpan
		}
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil && !tolerable(err) {
			off := start
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = se.Offset
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				off = int64(len(data))
				err = errors.New("unexpected end of data (truncated file?)")
			}
			return nil, &Error{Path: name, Line: lineOf(data, int(min(max(off, 0), int64(len(data))))), Err: fmt.Errorf("invalid OTLP JSON: %w", err)}
		}
		for _, rs := range [][]otlpResourceSpans{doc.ResourceSpans, doc.Batches} {
			spans = appendOTLPSpans(spans, rs)
		}
		if doc.Context != nil && doc.Context.SpanID != "" {
			spans = append(spans, doc.otlpConsoleSpan.span())
		}
	}
	return buildOTLP(spans), nil
}

func appendOTLPSpans(spans []*otlpSpan, resourceSpans []otlpResourceSpans) []*otlpSpan {
	for i := range resourceSpans {
		rs := &resourceSpans[i]
		for j := range rs.ScopeSpans {
			for k := range rs.ScopeSpans[j].Spans {
				spans = append(spans, &rs.ScopeSpans[j].Spans[k])
			}
		}
		for j := range rs.LibrarySpans {
			for k := range rs.LibrarySpans[j].Spans {
				spans = append(spans, &rs.LibrarySpans[j].Spans[k])
			}
		}
	}
	return spans
}

func buildOTLP(spans []*otlpSpan) *built {
	byID := map[string]*otlpSpan{}
	traceSession := map[string]string{}
	for _, s := range spans {
		s.attrs = make(map[string]string, len(s.Attributes))
		for i := range s.Attributes {
			a := &s.Attributes[i]
			s.attrs[a.Key] = a.Value.text()
		}
		s.start = parseNanos(s.Start)
		byID[s.TraceID+"/"+s.SpanID] = s
		if id := otlpSessionID(s); id != "" && traceSession[s.TraceID] == "" {
			traceSession[s.TraceID] = id
		}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })

	b := newBuilder(FormatOTLP)
	sessions := map[string]int{}
	for _, s := range spans {
		isCall, tool, args, result := otlpCall(s)
		text := otlpModelText(s)
		if !isCall && text == "" {
			continue
		}
		key := otlpSessionID(s)
		if key == "" {
			key = traceSession[s.TraceID]
		}
		if key == "" {
			key = "trace:" + s.TraceID
		}
		n, ok := sessions[key]
		if !ok {
			n = len(sessions)
			sessions[key] = n
		}
		b.session = n
		a := b.agent(otlpAgent(s, byID))
		ms := int64(s.start / 1e6)
		if text != "" {
			a.text("model", text, "", ms)
		}
		if isCall {
			e := loopguard.Call("", tool, rawArgs(json.RawMessage(jsonOrString(args))))
			e.Time = ms
			failed := otlpFailed(s)
			if result != "" || failed {
				e = e.WithResult(result, failed)
			}
			a.add(e)
		}
	}
	t := b.done()
	t.Sessions = max(len(sessions), 1)
	return t
}

// jsonOrString gives the arguments as JSON: the text itself when it is a JSON object or
// list, else the text as a JSON string.
func jsonOrString(s string) []byte {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil
	}
	if (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return []byte(t)
	}
	return jsonString(s)
}

func otlpSessionID(s *otlpSpan) string {
	if id := s.attrs["gen_ai.conversation.id"]; id != "" {
		return id
	}
	return s.attrs["session.id"]
}

func otlpCall(s *otlpSpan) (ok bool, tool, args, result string) {
	a := s.attrs
	op := a["gen_ai.operation.name"]
	if strings.EqualFold(a["openinference.span.kind"], "TOOL") {
		tool = a["tool.name"]
		if tool == "" {
			tool = s.Name
		}
		return true, tool, a["input.value"], a["output.value"]
	}
	if name, has := a["gen_ai.tool.name"]; has && (op == "execute_tool" || op == "") {
		args = firstAttr(a, "gen_ai.tool.call.arguments", "gen_ai.tool.arguments", "gcp.vertex.agent.tool_call_args")
		result = firstAttr(a, "gen_ai.tool.call.result", "gen_ai.tool.result", "gcp.vertex.agent.tool_response")
		return true, name, args, result
	}
	return false, "", "", ""
}

// firstAttr is the first of the keys with a value.
func firstAttr(a map[string]string, keys ...string) string {
	for _, k := range keys {
		if v := a[k]; v != "" {
			return v
		}
	}
	return ""
}

func otlpFailed(s *otlpSpan) bool {
	if _, ok := s.attrs["error.type"]; ok {
		return true
	}
	if s.Status == nil {
		return false
	}
	switch c := s.Status.Code.(type) {
	case float64:
		return c == 2
	case string:
		return c == "STATUS_CODE_ERROR" || c == "2" || strings.EqualFold(c, "error")
	}
	return false
}

// otlpModelText is the text an LLM span's output holds: GenAI gen_ai.output.messages (a JSON
// list of messages with parts) or OpenInference llm.output_messages.N.message.content.
func otlpModelText(s *otlpSpan) string {
	if out := s.attrs["gen_ai.output.messages"]; out != "" {
		var msgs []struct {
			Parts []struct {
				Type    string `json:"type"`
				Content any    `json:"content"`
			} `json:"parts"`
		}
		if json.Unmarshal([]byte(out), &msgs) == nil {
			var texts []string
			for _, m := range msgs {
				for _, p := range m.Parts {
					if c, ok := p.Content.(string); ok && (p.Type == "text" || p.Type == "reasoning") {
						texts = append(texts, c)
					}
				}
			}
			return strings.Join(texts, "\n")
		}
	}
	var texts []string
	for i := 0; ; i++ {
		c, ok := s.attrs["llm.output_messages."+strconv.Itoa(i)+".message.content"]
		if !ok {
			break
		}
		texts = append(texts, c)
	}
	return strings.Join(texts, "\n")
}

// otlpAgent is the agent a span belongs to: its own agent name or its nearest ancestor's.
func otlpAgent(s *otlpSpan, byID map[string]*otlpSpan) string {
	for hops := 0; s != nil && hops < 1000; hops++ {
		if n := s.attrs["gen_ai.agent.name"]; n != "" {
			return n
		}
		if n := s.attrs["agent.name"]; n != "" {
			return n
		}
		if strings.EqualFold(s.attrs["openinference.span.kind"], "AGENT") && s.Name != "" {
			return s.Name
		}
		if s.ParentSpanID == "" {
			break
		}
		s = byID[s.TraceID+"/"+s.ParentSpanID]
	}
	return MainAgent
}
