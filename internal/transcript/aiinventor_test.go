package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// Written for this test in the layout of AI Inventor's transcripts: two calls made together
// answered by tool, one answered with [ERROR], a result holding fences of its own in a longer
// fence, and a retry opening a second session.
const aiInventorTranscript = "# gen_plan_dataset_1 — test_idea\n\n> Full, verbatim transcript of this agent task.\n\n" +
	"## Task: `gen_plan_dataset_1` (sdk_openhands_agent, openai/z-ai/glm-5.2)\n\n" +
	"### [1] CONFIG · 2026-08-20 19:56:19 UTC\n\n```\nModel: openai/z-ai/glm-5.2 | Session: c5e3\n```\n\n" +
	"### [2] SYSTEM PROMPT · 2026-08-20 19:56:21 UTC\n\n```\nYou are one of many LLMs.\n```\n\n" +
	"### [3] HUMAN-USER prompt · 2026-08-20 19:56:21 UTC\n\n```\nPlan the dataset.\n```\n\n" +
	"### [4] THINKING · 2026-08-20 19:56:30 UTC\n\n```\nI should load the web skill.\n```\n\n" +
	"### [5] TOOL CALL — file_editor · 2026-08-20 19:59:41 UTC\n\n```\n{\n  \"command\": \"view\",\n  \"path\": \"/w\"\n}\n```\n\n" +
	"### [6] TOOL CALL — invoke_skill · 2026-08-20 19:59:41 UTC\n\n```\n{\n  \"name\": \"aii-web-tools\"\n}\n```\n\n" +
	"### [7] TOOL RESULT — invoke_skill · 2026-08-20 19:59:41 UTC\n\n````\n## Web tools\n```bash\nsearch q\n```\n````\n\n" +
	"### [8] TOOL RESULT — file_editor · 2026-08-20 19:59:41 UTC\n\n```\nHere's the files in /w\n```\n\n" +
	"### [9] TOOL CALL — WebSearch · 2026-08-20 20:09:59 UTC\n\n```\n{\"query\": \"founder fade\"}\n```\n\n" +
	"### [10] TOOL RESULT — WebSearch [ERROR] · 2026-08-20 20:09:59 UTC\n\n```\nTool not found: WebSearch\n```\n\n" +
	"### [11] HOOK — PostToolUse · 2026-08-20 20:10:00 UTC\n\n```\n<system-reminder>51 minutes remaining</system-reminder>\n```\n\n" +
	"### [12] RETRY (attempt 1) · 2026-08-20 20:01:43 UTC\n\n```\nAgent result indicates failure\n```\n\n" +
	"### [13] CONFIG · 2026-08-20 20:01:44 UTC\n\n```\nModel: gemini/gemini-3.5-flash\n```\n\n" +
	"### [14] ASSISTANT · 2026-08-20 20:01:50 UTC\n\n```\nStarting again.\n```\n\n" +
	"### [15] TOOL CALL — terminal · 2026-08-20 20:01:51 UTC\n\n```\n{\"command\": \"ls\"}\n```\n\n" +
	"### [16] TOOL RESULT — terminal · 2026-08-20 20:01:52 UTC\n\n```\n{\"content\": [{\"cache_prompt\": false, \"type\": \"text\", \"text\": \"a.txt\\nb.txt\"}], \"is_error\": false}\n```\n\n" +
	"### [17] TOOL CALL — terminal · 2026-08-20 20:01:53 UTC\n\n```\n{\"command\": \"cat c.txt\"}\n```\n\n" +
	"### [18] TOOL RESULT — terminal · 2026-08-20 20:01:54 UTC\n\n```\n{\"content\": [{\"cache_prompt\": false, \"type\": \"text\", \"text\": \"cat: c.txt: No such file\"}], \"is_error\": true}\n```\n"

// A transcript's user turn, thinking, calls answered by tool (the order of answers need not be
// the calls'), an [ERROR] a failure, the harness's hooks and retries passed over, and each
// CONFIG after the first a session of its own.
func TestAIInventorTranscript(t *testing.T) {
	tr := expectEvents(t, "messages.md", aiInventorTranscript, FormatAIInventor, []string{
		`user "Plan the dataset."`,
		`text[model] "I should load the web skill."`,
		`call file_editor "{\"command\":\"view\",\"path\":\"/w\"}" => "Here's the files in /w"`,
		"call invoke_skill \"{\\\"name\\\":\\\"aii-web-tools\\\"}\" => \"## Web tools\\n```bash\\nsearch q\\n``…\"",
		`call WebSearch "{\"query\":\"founder fade\"}" => "Tool not found: WebSearch" FAILED`,
	})
	if tr.Sessions != 2 || len(tr.Agents) != 2 || len(tr.Agents[1].Calls()) != 2 {
		t.Errorf("%d sessions, %d agents: want the retry a second session", tr.Sessions, len(tr.Agents))
	}
	second := describe(tr.Agents[1].Events)
	if want := []string{`text[model] "Starting again."`, `call terminal "{\"command\":\"ls\"}" => "a.txt\nb.txt"`,
		`call terminal "{\"command\":\"cat c.txt\"}" => "cat: c.txt: No such file" FAILED`}; strings.Join(second, "\n") != strings.Join(want, "\n") {
		t.Errorf("the retry's events:\n%s\nwant (OpenHands' observations read out of their records):\n%s", strings.Join(second, "\n"), strings.Join(want, "\n"))
	}
	if r := tr.Agents[0].Calls()[1].Result; !strings.HasSuffix(r, "```") {
		t.Errorf("the skill's text lost its own fence: %q", r)
	}
}

// Calls headed one after the other, before any answer, are one reply; a call after an answer
// is a reply of its own. A terminal's exit code above 0 fails it; -1 (no code yet) does not.
func TestAIInventorRepliesAndExitCodes(t *testing.T) {
	tr, err := ReadFrom("messages.md", strings.NewReader(aiInventorTranscript))
	if err != nil {
		t.Fatal(err)
	}
	first := tr.Agents[0].Calls()
	if first[0].Turn == "" || first[0].Turn != first[1].Turn || first[2].Turn == first[1].Turn {
		t.Errorf("turns %q, %q, %q: want the first two calls one reply, the third another", first[0].Turn, first[1].Turn, first[2].Turn)
	}
	// A harness that answers each call at once heads call and answer in turn: under one time,
	// no words of the model's between, they are still one reply; a call after the model's
	// words, or at another time, is another.
	doc := "## Task: `t` (sdk_openhands_agent, hy3)\n\n### [1] CONFIG · 2026-08-20 19:07:22 UTC\n\n```\nx\n```\n\n" +
		"### [2] ASSISTANT · 2026-08-20 19:07:42 UTC\n\n```\nSearching.\n```\n\n"
	for i, at := range []string{"19:07:42", "19:07:42", "19:07:42", "19:07:50"} {
		doc += fmt.Sprintf("### [%d] TOOL CALL — web_search · 2026-08-20 %s UTC\n\n```\n{\"query\": \"q%d\"}\n```\n\n", 3+2*i, at, i) +
			fmt.Sprintf("### [%d] TOOL RESULT — web_search [ERROR] · 2026-08-20 %s UTC\n\n```\nERROR: Tool 'web_search' not found.\n```\n\n", 4+2*i, at)
	}
	doc += "### [11] ASSISTANT · 2026-08-20 19:07:50 UTC\n\n```\nAgain.\n```\n\n" +
		"### [12] TOOL CALL — web_search · 2026-08-20 19:07:50 UTC\n\n```\n{\"query\": \"q4\"}\n```\n\n"
	tr, err = ReadFrom("messages.md", strings.NewReader("# t\n\n"+doc))
	if err != nil {
		t.Fatal(err)
	}
	var turns []string
	for _, c := range tr.Agents[0].Calls() {
		turns = append(turns, c.Turn)
	}
	if len(turns) != 5 || turns[0] != turns[1] || turns[1] != turns[2] || turns[3] == turns[2] || turns[4] == turns[3] {
		t.Errorf("turns %q: want the first three one reply, then two replies of their own", turns)
	}
	observation := func(text string, exit int) string {
		return fmt.Sprintf(`{"content": [{"type": "text", "text": %q}], "is_error": false, "exit_code": %d, "kind": "TerminalObservation"}`, text, exit)
	}
	tests := []struct {
		name   string
		body   string
		failed bool
	}{
		{"exited 1", observation("ModuleNotFoundError: No module named 'ijson'", 1), true},
		{"killed by SIGTERM", observation("Terminated", 143), true},
		{"exited 0", observation("Found: 10 results", 0), false},
		{"no code yet", observation("[The command timed out after 120.0 seconds.]", -1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, failed := aiInventorResult(tt.body); failed != tt.failed {
				t.Errorf("failed %v, want %v", failed, tt.failed)
			}
		})
	}
}
