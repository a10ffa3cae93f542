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
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// OpenTelemetry traces of agents, exported as OTLP JSON: the OTLP file exporter and the
// collector's file exporter write one {"resourceSpans": [...]} object per line (a batch);
// a single, possibly indented, document is read too, and so is Grafana Tempo's trace API
// answer, which holds the same resource spans under "batches". So are spans written as
// OpenTelemetry Python's ReadableSpan.to_json writes them (otlpConsoleSpan): one after another
// as the console exporter prints them, in a bare JSON list, or in any-agent's trace document
// {"spans": [...]}. Spans are read under two conventions:
//
//   - OpenTelemetry GenAI semantic conventions: a span with gen_ai.operation.name
//     "execute_tool" (or a gen_ai.tool.name without another operation) is a tool call:
//     gen_ai.tool.name, arguments gen_ai.tool.call.arguments, result gen_ai.tool.call.result
//     (older drafts: gen_ai.tool.arguments, gen_ai.tool.result; Google ADK without them:
//     gcp.vertex.agent.tool_call_args, gcp.vertex.agent.tool_response; any-agent:
//     gen_ai.tool.args, gen_ai.output). A chat span's
//     gen_ai.output.messages text parts are model text, and so is a model call's gen_ai.output
//     typed "text" (any-agent). The session is gen_ai.conversation.id;
//     the agent is the gen_ai.agent.name of the span or of its nearest ancestor.
//   - OpenInference: a span with openinference.span.kind "TOOL" is a call: tool.name,
//     arguments input.value (a Python dict's repr read as the dict), result output.value.
//     An LLM span's llm.output_messages.N.message.content is model text. The session is
//     session.id; the agent is agent.name, or the name of the nearest AGENT span with a
//     tool span beneath it (else of the nearest AGENT span).
//
// A tool span that holds none of its convention's argument attributes (the GenAI conventions
// make them opt-in: they may hold secrets) gets its span id as arguments, {"span_id": "..."}:
// arguments that were not recorded are unknown, not empty, and two calls whose arguments
// nobody saw are not the same call. (Read as {}, every call of a tool was the same call: six
// look-ups of six time zones, each failing alike, were told as stuck.)
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
// the console this way, and people keep what it printed. any-agent (mozilla-ai) keeps its
// spans (AgentSpan) in the same shape, but for three things: ids are integers, not "0x" hex
// strings; the parent is named by its context, "parent": {"trace_id", "span_id", ...} (ids
// null on the root), not by a "parent_id"; and the start is an integer of nanoseconds, not an
// RFC 3339 time. Both are read.
type otlpConsoleSpan struct {
	Name    string `json:"name"`
	Context *struct {
		TraceID json.RawMessage `json:"trace_id"`
		SpanID  json.RawMessage `json:"span_id"`
	} `json:"context"`
	ParentID json.RawMessage `json:"parent_id"`
	Parent   *struct {
		SpanID json.RawMessage `json:"span_id"`
	} `json:"parent"`
	StartTime  json.RawMessage            `json:"start_time"`
	Attributes map[string]json.RawMessage `json:"attributes"`
	Status     *struct {
		StatusCode  string `json:"status_code"`
		Description string `json:"description"`
	} `json:"status"`
}

// span converts a console span to an OTLP one: string attributes as they are, others as
// their JSON text. It is nil when the object names no span (no context with a span id: a log
// record the console exporter printed among the spans, any other object).
func (c *otlpConsoleSpan) span() *otlpSpan {
	if c.Context == nil {
		return nil
	}
	s := &otlpSpan{TraceID: otlpID(c.Context.TraceID), SpanID: otlpID(c.Context.SpanID), Name: c.Name}
	if s.SpanID == "" {
		return nil
	}
	s.ParentSpanID = otlpID(c.ParentID)
	if s.ParentSpanID == "" && c.Parent != nil {
		s.ParentSpanID = otlpID(c.Parent.SpanID)
	}
	s.Start = c.StartTime // nanoseconds (any-agent), as parseNanos reads them
	if len(c.StartTime) > 0 && c.StartTime[0] == '"' {
		var t string
		_ = json.Unmarshal(c.StartTime, &t)
		if ms := parseTime(t); ms > 0 {
			s.Start = json.RawMessage(strconv.FormatInt(ms*1e6, 10))
		}
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

// otlpID is a trace or span id of a console span as written: a string (the console
// exporter's "0x..." hex) as it is, an integer (any-agent's, up to 128 bits: kept as its
// digits, never converted) as its digits; null or absent is "". Ids are only compared with
// each other, and a producer writes all of its ids one way.
func otlpID(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
			return string(raw[1 : len(raw)-1]) // hex digits: no escapes to decode
		}
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	return string(raw)
}

func parseNanos(raw json.RawMessage) uint64 {
	s := strings.Trim(string(raw), `"`)
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

// otlpFileDoc is a JSON value of an OTLP file: an OTLP document, a console span, or
// any-agent's trace document (AgentTrace: {"spans": [...], "final_output": ...}).
type otlpFileDoc struct {
	otlpDoc
	otlpConsoleSpan
	Spans []otlpConsoleSpan `json:"spans"`
}

// readOTLP reads OTLP JSON: one or more {"resourceSpans": ...} (or Tempo's {"batches": ...})
// documents, or spans as ReadableSpan.to_json writes them (otlpConsoleSpan): one after another
// as a console exporter prints them, in any-agent's {"spans": [...]}, or in a bare JSON list.
func readOTLP(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var spans []*otlpSpan
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		var doc otlpFileDoc
		var list []otlpFileDoc // a bare list of spans (or documents)
		if i := jsonscan.SkipSpace(data, int(start)); i < len(data) && data[i] == '[' {
			err = dec.Decode(&list)
		} else {
			err = dec.Decode(&doc)
		}
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
		if list == nil {
			spans = appendFileDoc(spans, &doc)
		}
		for i := range list {
			spans = appendFileDoc(spans, &list[i])
		}
	}
	return buildOTLP(spans), nil
}

// appendFileDoc appends the spans of one JSON value of an OTLP file.
func appendFileDoc(spans []*otlpSpan, doc *otlpFileDoc) []*otlpSpan {
	for _, rs := range [][]otlpResourceSpans{doc.ResourceSpans, doc.Batches} {
		spans = appendOTLPSpans(spans, rs)
	}
	if s := doc.otlpConsoleSpan.span(); s != nil {
		spans = append(spans, s)
	}
	for i := range doc.Spans {
		if s := doc.Spans[i].span(); s != nil {
			spans = append(spans, s)
		}
	}
	return spans
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
	spans = lastOfEachSpan(spans)
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
	// The spans with a tool's span beneath them, for otlpAgent: an OpenInference AGENT span
	// with none is a step of the agent around it (a LangGraph node named "agent").
	callsBeneath := map[*otlpSpan]bool{}
	for _, s := range spans {
		if isCall, _, _, _, _ := otlpCall(s); !isCall {
			continue
		}
		for p, hops := otlpParent(s, byID), 0; p != nil && !callsBeneath[p] && hops < 1000; p, hops = otlpParent(p, byID), hops+1 {
			callsBeneath[p] = true
		}
	}

	b := newBuilder(FormatOTLP)
	sessions := map[string]int{}
	for n, s := range spans {
		isCall, tool, args, hasArgs, result := otlpCall(s)
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
		sn, ok := sessions[key]
		if !ok {
			sn = len(sessions)
			sessions[key] = sn
		}
		b.session = sn
		a := b.agent(otlpAgent(s, byID, callsBeneath))
		ms := int64(s.start / 1e6)
		if text != "" {
			a.text("model", text, "", ms)
		}
		if isCall {
			var raw []byte
			if hasArgs {
				raw = rawArgs(json.RawMessage(jsonOrString(args)))
			} else {
				raw = otlpUnrecordedArgs(s, n)
			}
			e := loopguard.Call("", tool, raw)
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

// lastOfEachSpan keeps one record of each span (trace and span id), the last written: an
// exporter may write a span when it starts (no end time yet) and again when it ends, or a
// file may hold two prints of the same spans; read as two, every call was made twice
// (validation round r75c U1: 11 calls of an agent read as 22). Records without a span id
// are all kept.
func lastOfEachSpan(spans []*otlpSpan) []*otlpSpan {
	at := make(map[string]int, len(spans)) // trace/span id -> index in out
	out := spans[:0:0]
	for _, s := range spans {
		if s.SpanID == "" {
			out = append(out, s)
			continue
		}
		key := s.TraceID + "/" + s.SpanID
		if i, seen := at[key]; seen {
			out[i] = s
			continue
		}
		at[key] = len(out)
		out = append(out, s)
	}
	return out
}

// jsonOrString gives the arguments as JSON: the text itself when it is a JSON object or
// list, the dict when it is a Python dict literal (OpenInference's LangChain instrumentor
// records a tool's input as the dict's repr, r152a U3: kept as a string, the guard could not
// tell which argument changed), else the text as a JSON string.
func jsonOrString(s string) []byte {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil
	}
	if (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return []byte(t)
	}
	if t[0] == '{' {
		if b, ok := pyDictJSON(t); ok {
			return b
		}
	}
	return jsonString(s)
}

func otlpSessionID(s *otlpSpan) string {
	if id := s.attrs["gen_ai.conversation.id"]; id != "" {
		return id
	}
	return s.attrs["session.id"]
}

// otlpCall reads a tool span: whether it is one, the tool, its arguments (hasArgs says
// whether the span holds an argument attribute at all, even an empty one) and its result.
func otlpCall(s *otlpSpan) (ok bool, tool, args string, hasArgs bool, result string) {
	a := s.attrs
	op := a["gen_ai.operation.name"]
	if strings.EqualFold(a["openinference.span.kind"], "TOOL") {
		tool = a["tool.name"]
		if tool == "" {
			tool = s.Name
		}
		args, hasArgs = a["input.value"]
		return true, tool, args, hasArgs, a["output.value"]
	}
	if name, has := a["gen_ai.tool.name"]; has && (op == "execute_tool" || op == "") {
		// any-agent's own names (gen_ai.tool.args, and gen_ai.output, which it writes on LLM
		// spans too) come after the conventions' names.
		args, hasArgs = firstAttr(a, "gen_ai.tool.call.arguments", "gen_ai.tool.arguments", "gcp.vertex.agent.tool_call_args", "gen_ai.tool.args")
		result, _ = firstAttr(a, "gen_ai.tool.call.result", "gen_ai.tool.result", "gcp.vertex.agent.tool_response", "gen_ai.output")
		return true, name, args, hasArgs, result
	}
	return false, "", "", false, ""
}

// firstAttr is the first of the keys with a value; found says whether any of them is there,
// empty or not.
func firstAttr(a map[string]string, keys ...string) (v string, found bool) {
	for _, k := range keys {
		val, ok := a[k]
		if val != "" {
			return val, true
		}
		found = found || ok
	}
	return "", found
}

// otlpUnrecordedArgs are the arguments of a tool span that holds none: its span id, so that
// it is the same call as no other (see the top of this file). A span without an id (OTLP
// JSON missing its spanId) is named by its place n among the file's spans in start order.
func otlpUnrecordedArgs(s *otlpSpan, n int) []byte {
	if s.SpanID == "" {
		return []byte(`{"span":` + strconv.Itoa(n) + `}`)
	}
	return append(append([]byte(`{"span_id":`), jsonString(s.SpanID)...), '}')
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

// otlpInferenceOps are the gen_ai.operation.name values of a span that calls a model: the
// conventions' own, and call_llm (any-agent, Google ADK).
var otlpInferenceOps = map[string]bool{"chat": true, "text_completion": true, "generate_content": true, "call_llm": true}

// otlpModelText is the text an LLM span's output holds: GenAI gen_ai.output.messages (a JSON
// list of messages with parts), a model call's gen_ai.output typed "text", or OpenInference
// llm.output_messages.N.message.content.
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
	// any-agent writes a model call's answer whole in gen_ai.output, typed: "json" when the
	// model asked for tools (the requests, which the tool spans hold), "text" when it spoke.
	// Tool spans write their result there too, so only a model call's counts.
	if s.attrs["gen_ai.output.type"] == "text" && otlpInferenceOps[s.attrs["gen_ai.operation.name"]] {
		return s.attrs["gen_ai.output"]
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

// otlpParent is the span s is a child of, or nil for a root (or a parent not in the file).
func otlpParent(s *otlpSpan, byID map[string]*otlpSpan) *otlpSpan {
	if s.ParentSpanID == "" {
		return nil
	}
	return byID[s.TraceID+"/"+s.ParentSpanID]
}

// otlpAgent is the agent a span belongs to: its own agent name or its nearest ancestor's.
// An OpenInference AGENT span with no tool span beneath it (callsBeneath) names the agent
// only when no agent encloses it: LangGraph writes each run of its node "agent" (the model's
// turn) as such a span inside the agent that runs the tools, and read as an agent of its
// own, the model's words were split from its calls (validation round r152a U2).
func otlpAgent(s *otlpSpan, byID map[string]*otlpSpan, callsBeneath map[*otlpSpan]bool) string {
	step := ""
	for hops := 0; s != nil && hops < 1000; hops++ {
		if n := s.attrs["gen_ai.agent.name"]; n != "" {
			return n
		}
		if n := s.attrs["agent.name"]; n != "" {
			return n
		}
		if strings.EqualFold(s.attrs["openinference.span.kind"], "AGENT") && s.Name != "" {
			if callsBeneath[s] {
				return s.Name
			}
			if step == "" {
				step = s.Name
			}
		}
		s = otlpParent(s, byID)
	}
	if step != "" {
		return step
	}
	return MainAgent
}

// isSpanListHead says whether a file's head opens a list of spans written as
// ReadableSpan.to_json writes them (isSpanHead): any-agent's trace document, {"spans":
// [span, ...], "final_output": ...}, or a bare JSON list of them. Only the list's first
// element is looked at, and it must be a span: a document with a list of "spans" of another
// kind (annotated text, a profiler's) is not a trace, nor is an empty list.
func isSpanListHead(head []byte) bool {
	i := jsonscan.SkipSpace(head, 0)
	if i >= len(head) {
		return false
	}
	if head[i] == '{' {
		list := -1
		_, _ = jsonscan.Object(head, i, jsonscan.AsWritten, func(key []byte, _ jsonscan.Flags, v int) (int, error) {
			if string(key) == "spans" {
				list = v
				return v, errSpanListFound
			}
			return jsonscan.Skip(head, v, jsonscan.AsWritten, 0)
		})
		if list < 0 {
			return false
		}
		i = list
	}
	if head[i] != '[' {
		return false
	}
	i = jsonscan.SkipSpace(head, i+1)
	return i < len(head) && head[i] == '{' && isSpanHead(head[i:])
}

// errSpanListFound stops isSpanListHead's walk of a document's members at its "spans".
var errSpanListFound = errors.New("found the spans")

// isSpanHead says whether the JSON object at b[0] (cut short, maybe, where a file's head ends)
// is a span as ReadableSpan.to_json (the console exporter) or any-agent writes it: a context
// that names the span, a parent (parent_id, or any-agent's parent object), a start time and
// attributes. The members are looked for where they are: both writers put the context, the
// parent and the start before the attributes, whose value may run past the head.
func isSpanHead(b []byte) bool {
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var context, parent, start, attributes bool
	_, _ = jsonscan.Object(b, 0, jsonscan.AsWritten, func(key []byte, _ jsonscan.Flags, v int) (int, error) {
		switch string(key) {
		case "context":
			if b[v] == '{' {
				_, context = scanTopObject(b[v:]).keys["span_id"]
			}
		case "parent", "parent_id":
			parent = true
		case "start_time":
			start = true
		case "attributes":
			attributes = b[v] == '{'
		}
		return jsonscan.Skip(b, v, jsonscan.AsWritten, 0)
	})
	return context && parent && start && attributes
}
