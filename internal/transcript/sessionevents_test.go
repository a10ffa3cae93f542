package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sessionEventsLog is a managed agent session's events as a harness logs them, each wrapped
// with its role and kind (the shape of a real transcript.jsonl on GitHub): the task, a reply
// with two calls, one failing, then a reply with one call, and the user interrupting.
const sessionEventsLog = `{"role":"system","kind":"status_running","time":"2026-08-16T09:36:02Z","raw":{"id":"sevt_01","processed_at":"2026-08-16T09:36:02Z","type":"session.status_running"}}
{"role":"user","kind":"define_outcome","time":"2026-08-16T09:36:02Z","raw":{"description":"Audit the reproducibility of this paper.","id":"sevt_02","processed_at":"2026-08-16T09:36:02Z","type":"user.define_outcome"}}
{"role":"system","kind":"model_request_start","time":"2026-08-16T09:36:02Z","raw":{"id":"sevt_03","processed_at":"2026-08-16T09:36:02Z","type":"span.model_request_start"}}
{"role":"agent","kind":"message","content":"I'll start by acquiring the paper.","time":"2026-08-16T09:36:05Z","raw":{"content":[{"text":"I'll start by acquiring the paper.","type":"text"}],"id":"sevt_04","processed_at":"2026-08-16T09:36:05Z","type":"agent.message"}}
{"role":"agent","kind":"tool_use","tool":"bash","content":"{\"command\":\"ls\"}","time":"2026-08-16T09:36:05Z","raw":{"evaluated_permission":"allow","id":"sevt_05","input":{"command":"ls"},"name":"bash","processed_at":"2026-08-16T09:36:05Z","type":"agent.tool_use"}}
{"role":"agent","kind":"tool_use","tool":"web_fetch","content":"{\"url\":\"https://doi.org/10.1145/3173574.3174227\"}","time":"2026-08-16T09:36:05Z","raw":{"id":"sevt_06","input":{"url":"https://doi.org/10.1145/3173574.3174227"},"name":"web_fetch","processed_at":"2026-08-16T09:36:05Z","type":"agent.tool_use"}}
{"role":"agent","kind":"tool_result","content":"README.md","time":"2026-08-16T09:36:06Z","raw":{"content":[{"text":"README.md","type":"text"}],"id":"sevt_07","processed_at":"2026-08-16T09:36:06Z","tool_use_id":"sevt_05","type":"agent.tool_result"}}
{"role":"agent","kind":"tool_result","content":"error: Web fetch error: url_not_accessible","time":"2026-08-16T09:36:06Z","raw":{"content":[{"text":"Web fetch error: url_not_accessible","type":"text"}],"id":"sevt_08","is_error":true,"processed_at":"2026-08-16T09:36:06Z","tool_use_id":"sevt_06","type":"agent.tool_result"}}
{"role":"system","kind":"model_request_start","time":"2026-08-16T09:36:06Z","raw":{"id":"sevt_09","processed_at":"2026-08-16T09:36:06Z","type":"span.model_request_start"}}
{"role":"agent","kind":"tool_use","tool":"web_search","content":"{\"query\":\"Offset Correction\"}","time":"2026-08-16T09:36:11Z","raw":{"id":"sevt_10","input":{"query":"Offset Correction"},"name":"web_search","processed_at":"2026-08-16T09:36:11Z","type":"agent.tool_use"}}
{"role":"user","kind":"interrupt","time":"2026-08-16T09:40:00Z","raw":{"id":"sevt_11","processed_at":"2026-08-16T09:40:00Z","type":"user.interrupt"}}
`

func TestSessionEventsReadAsRepliesOfCalls(t *testing.T) {
	for name, log := range map[string]string{
		"wrapped": sessionEventsLog,
		"bare":    bareSessionEvents(t),
	} {
		tr, err := ReadFrom("transcript.jsonl", strings.NewReader(log))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.Format != FormatSessionEvents {
			t.Fatalf("%s: read as %q", name, tr.Format)
		}
		got := describe(tr.Agents[0].Events)
		want := []string{
			`user "Audit the reproducibility of thi…"`,
			`text[model] "I'll start by acquiring the pape…"`,
			`call bash "{\"command\":\"ls\"}" => "README.md"`,
			`call web_fetch "{\"url\":\"https://doi.org/10.1145/…" => "Web fetch error: url_not_accessi…" FAILED`,
			`call web_search "{\"query\":\"Offset Correction\"}" => -`,
			`user ""`,
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if calls := tr.Agents[0].Calls(); calls[0].Turn != calls[1].Turn || calls[1].Turn == calls[2].Turn {
			t.Errorf("%s: replies %q %q %q, want the first two calls one reply", name, calls[0].Turn, calls[1].Turn, calls[2].Turn)
		}
	}
}

// bareSessionEvents is sessionEventsLog with each event unwrapped, as the API streams them.
func bareSessionEvents(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(sessionEventsLog), "\n") {
		i := strings.Index(line, `"raw":`)
		if i < 0 {
			t.Fatalf("no raw event in %s", line)
		}
		b.WriteString(strings.TrimSuffix(line[i+len(`"raw":`):], "}"))
		b.WriteByte('\n')
	}
	return b.String()
}

// Each model request's end carries its usage: the session's tokens are their sum, each event
// counted once, and the session.usage events, no total of them, are passed over (validation
// round r120b U1: three runs of 11 to 17 million tokens read as none).
func TestSessionEventsTokensAreTheModelRequestsUsage(t *testing.T) {
	end := func(id string, in, out, read, write int) string {
		return fmt.Sprintf(`{"role":"system","kind":"model_request_end","time":"2026-08-16T09:36:06Z","raw":{"id":%q,"is_error":false,"model_usage":{"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"input_tokens":%d,"output_tokens":%d},"processed_at":"2026-08-16T09:36:06Z","type":"span.model_request_end"}}`, id, write, read, in, out) + "\n"
	}
	log := sessionEventsLog + end("sevt_20", 2, 211, 0, 12866) + end("sevt_21", 1, 90, 12866, 300) + end("sevt_21", 1, 90, 12866, 300) +
		`{"role":"system","kind":"usage","time":"2026-08-16T09:41:00Z","raw":{"id":"sevt_22","processed_at":"2026-08-16T09:41:00Z","type":"session.usage","output_tokens":0}}` + "\n"
	tr, err := ReadFrom("transcript.jsonl", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := Usage{InputTokens: 3, OutputTokens: 301, CacheReadTokens: 12866, CacheWriteTokens: 13166}
	if got := tr.Usage; got != want {
		t.Errorf("usage %+v, want %+v", got, want)
	}
}

// A web search answers with search_result parts and a fetch with a document part, as the
// Messages API gives them to the model: each is read as its title, source and text, not as an
// empty answer (validation round r174a R1: 23 web calls of five sessions read as empty).
func TestSessionEventsReadSearchResultsAndDocuments(t *testing.T) {
	log := `{"id":"e0","processed_at":"2026-08-16T13:44:49Z","type":"session.status_running"}
{"id":"e1","processed_at":"2026-08-16T13:44:50Z","type":"user.message","content":[{"type":"text","text":"find the paper"}]}
{"id":"e2","processed_at":"2026-08-16T13:44:51Z","type":"agent.tool_use","name":"web_search","input":{"query":"short-form videos memory"}}
{"id":"e3","processed_at":"2026-08-16T13:44:52Z","type":"agent.tool_result","tool_use_id":"e2","content":[{"type":"search_result","title":"Short-Form Videos Degrade Our Capacity","source":"https://arxiv.org/abs/2302.03714","citations":{"enabled":true},"content":[{"type":"text","text":"We conducted a between-subjects experiment (N=60)."}]}]}
{"id":"e4","processed_at":"2026-08-16T13:44:53Z","type":"agent.tool_use","name":"web_fetch","input":{"url":"https://osf.io/x"}}
{"id":"e5","processed_at":"2026-08-16T13:44:54Z","type":"agent.tool_result","tool_use_id":"e4","content":[{"type":"document","title":"OSF","source":{"type":"text","media_type":"text/plain","data":"title: OSF project"}}]}
`
	tr, err := ReadFrom("transcript.jsonl", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 2 {
		t.Fatalf("read %d calls, want 2", len(calls))
	}
	for i, want := range []string{
		"Short-Form Videos Degrade Our Capacity\nhttps://arxiv.org/abs/2302.03714\nWe conducted a between-subjects experiment (N=60).",
		"OSF\ntitle: OSF project",
	} {
		if calls[i].Result != want {
			t.Errorf("call %d (%s): result %q, want %q", i, calls[i].Tool, calls[i].Result, want)
		}
	}
}
