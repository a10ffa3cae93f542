package transcript

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestOTLPGenAIConventions(t *testing.T) {
	tr := mustRead(t, "testdata/otlp/genai-collector.jsonl")
	if tr.Format != FormatOTLP || tr.Sessions != 2 {
		t.Fatalf("format %q, %d sessions", tr.Format, tr.Sessions)
	}
	got := map[string][]string{}
	for _, a := range tr.Agents {
		key := a.ID
		if a.Session == 1 {
			key = "conv-2 " + a.ID
		}
		got[key] = describe(a.Events)
	}
	want := map[string][]string{
		"Planner": {
			`text[model] "Let me check the weather."`,
			`call get_weather "{\"city\":\"Paris\"}" => "{\"temp\":21}"`,
			`call get_weather "{\"city\":\"Pariss\"}" => "" FAILED`,
		},
		"Booker":         {`call book_hotel "{\"city\":\"Paris\",\"nights\":2}" => "booked"`},
		"conv-2 Planner": {`call get_weather "{\"city\":\"Rome\"}" => "{\"temp\":25}"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestOTLPOpenInference(t *testing.T) {
	tr := mustRead(t, "testdata/otlp/openinference.json")
	if tr.Format != FormatOTLP || tr.Sessions != 1 || len(tr.Agents) != 1 || tr.Agents[0].ID != "LangGraph" {
		t.Fatalf("format %q, %d sessions, agents %+v", tr.Format, tr.Sessions, tr.Agents)
	}
	want := []string{
		`text[model] "I will grep for it."`,
		`call grep "{\"pattern\":\"TODO\"}" => "a.py:3: TODO"`,
		`call grep "{\"pattern\":\"TODO\"}" => "a.py:3: TODO"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Grafana Tempo's trace API answers {"batches": [...]}, the resource spans of OTLP under
// another name (here with the pre-1.0 instrumentationLibrarySpans): a real kagent trace
// (testdata/real) was not recognised as a transcript.
func TestOTLPTempoBatches(t *testing.T) {
	tr := mustRead(t, "testdata/real/otlp/tempo_export_with_batches.json.gz")
	if tr.Format != FormatOTLP || tr.Sessions != 1 || len(tr.Agents) != 1 || tr.Agents[0].ID != "helm_agent" {
		t.Fatalf("format %q, %d sessions, agents %+v", tr.Format, tr.Sessions, tr.Agents)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "helm_list_releases" {
		t.Fatalf("calls %+v", calls)
	}
	// Google ADK writes the result in gcp.vertex.agent.tool_response, not gen_ai.tool.call.result.
	if c := calls[0]; !c.HasResult || !strings.HasPrefix(c.Result, `{"content": [{"type": "text", "text": "NAME`) {
		t.Errorf("the ADK tool response is not the call's result: %+v", c)
	}
}

// OpenTelemetry Python's console exporter prints each span as an indented JSON object, one
// after another, its ids under "context" and its attributes a plain object: read as OTLP.
func TestOTLPConsoleExporterSpans(t *testing.T) {
	doc := consoleSpan("0x01", "2026-03-01T20:47:19.000000Z", `{"location":"Paris"}`, "sunny", "UNSET") +
		consoleSpan("0x02", "2026-03-01T20:47:20.000000Z", `{"location":"Atlantis"}`, "no such place", "ERROR")
	tr, err := ReadFrom("traces.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOTLP {
		t.Fatalf("read as %q, want otlp", tr.Format)
	}
	want := []string{
		`call get_weather "{\"location\":\"Paris\"}" => "sunny"`,
		`call get_weather "{\"location\":\"Atlantis\"}" => "no such place" FAILED`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// consoleSpan is a tool's span as OpenTelemetry Python's console exporter prints it.
func consoleSpan(id, start, args, result, status string) string {
	return `{
    "name": "execute_tool get_weather",
    "context": {
        "trace_id": "0xe0c0afbab54efdfe2be82c2b68c1b96e",
        "span_id": "` + id + `",
        "trace_state": "[]"
    },
    "kind": "SpanKind.INTERNAL",
    "parent_id": "0xdf8466eeefd28bd5",
    "start_time": "` + start + `",
    "end_time": "` + start + `",
    "status": {
        "status_code": "` + status + `"
    },
    "attributes": {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.arguments": ` + strconv.Quote(args) + `,
        "gen_ai.tool.call.result": ` + strconv.Quote(result) + `,
        "agent_framework.function.invocation.duration": 1.5e-05
    },
    "events": [],
    "links": [],
    "resource": {
        "attributes": {
            "service.name": "agent_framework"
        },
        "schema_url": ""
    }
}
`
}

// OpenTelemetry Python's console exporters print a log record the same way as a span, an
// indented JSON object, into the same stream (an agent framework's sample that traces to the
// console logs there too). Spans read when the log record sits between them must read when it
// comes first: the same records in another order are the same trace.
func TestConsoleSpansAfterALogRecordAreRead(t *testing.T) {
	logRec := `{
    "body": "Function get_weather invoked",
    "severity_number": 9,
    "severity_text": "INFO",
    "attributes": {"code.function": "invoke"},
    "dropped_attributes": 0,
    "timestamp": "2026-03-01T20:47:19.000000Z",
    "observed_timestamp": "2026-03-01T20:47:19.000000Z",
    "trace_id": "0xe0c0afbab54efdfe2be82c2b68c1b96e",
    "span_id": "0x01",
    "trace_flags": 1,
    "resource": {"attributes": {"service.name": "agent_framework"}, "schema_url": ""}
}
`
	s1 := consoleSpan("0x01", "2026-03-01T20:47:19.000000Z", `{"location":"Paris"}`, "sunny", "UNSET")
	s2 := consoleSpan("0x02", "2026-03-01T20:47:20.000000Z", `{"location":"Rome"}`, "rain", "UNSET")
	for name, doc := range map[string]string{"log between": s1 + logRec + s2, "log first": logRec + s1 + s2} {
		t.Run(name, func(t *testing.T) {
			tr, err := ReadFrom("console.txt", strings.NewReader(doc))
			if err != nil {
				t.Fatalf("two console spans and a log record: %v", err)
			}
			if tr.Format != FormatOTLP || len(tr.Agents) != 1 || len(tr.Agents[0].Events) != 2 {
				t.Fatalf("read as %s with %d agents, want otlp with the two calls", tr.Format, len(tr.Agents))
			}
		})
	}
}
