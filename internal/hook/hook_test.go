package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/store"
)

// sample reads a hook event that a real CLI sent (saved by the end-to-end tests).
func sample(t *testing.T, host Host, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "e2e", "testdata", "hook-stdin", string(host), name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// with returns a copy of a sample event with fields replaced.
func with(t *testing.T, raw []byte, fields map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return b
}

func TestParseRealEvents(t *testing.T) {
	tests := []struct {
		host      Host
		file      string
		act       action
		agentSub  bool // the agent id names a subagent
		tool      string
		resultHas string
		failed    bool
	}{
		{ClaudeCode, "PreToolUse", actCheck, false, "Bash", "", false},
		{ClaudeCode, "PreToolUse.subagent", actCheck, true, "Bash", "", false},
		{ClaudeCode, "PostToolUse", actObserve, false, "Bash", "hi", false},
		{ClaudeCode, "PostToolUseFailure.failed-command", actObserve, false, "Bash", "E2E-STDERR", true},
		{ClaudeCode, "UserPromptSubmit", actUserSpoke, false, "", "", false},
		{ClaudeCode, "SubagentStop", actForget, true, "", "", false},
		{ClaudeCode, "SessionEnd", actForget, false, "", "", false},
		{ClaudeCode, "SessionStart", actNone, false, "", "", false},
		{ClaudeCode, "PostToolBatch", actBatch, false, "", "", false},
		{Codex, "PreToolUse", actCheck, false, "Bash", "", false},
		{Codex, "PreToolUse.subagent", actCheck, true, "Bash", "", false},
		{Codex, "PostToolUse", actObserve, false, "Bash", "hi", false},
		{Codex, "UserPromptSubmit", actUserSpoke, false, "", "", false},
		{GeminiCLI, "BeforeTool", actCheck, false, "run_shell_command", "", false},
		{GeminiCLI, "AfterTool", actObserve, false, "run_shell_command", "Output: hi", false},
		{GeminiCLI, "BeforeAgent", actUserSpoke, false, "", "", false},
		{GeminiCLI, "SessionEnd", actForget, false, "", "", false},
	}
	for _, tt := range tests {
		t.Run(string(tt.host)+"/"+tt.file, func(t *testing.T) {
			r, err := parse(tt.host, sample(t, tt.host, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if r.act != tt.act {
				t.Fatalf("action %v, want %v", r.act, tt.act)
			}
			if tt.act == actNone {
				return
			}
			if !strings.HasPrefix(r.agent, string(tt.host)+":"+r.in.SessionID) || strings.Contains(r.agent, "/") != tt.agentSub {
				t.Errorf("agent id %q (subagent: %v)", r.agent, tt.agentSub)
			}
			if tt.tool == "" {
				return
			}
			ev := r.event(time.Unix(0, 0))
			if ev.Tool != tt.tool || len(ev.Args) == 0 {
				t.Errorf("call %q %s", ev.Tool, ev.Args)
			}
			if tt.act == actObserve && (!strings.Contains(ev.Result, tt.resultHas) || ev.Failed != tt.failed) {
				t.Errorf("result %q failed=%v, want it to contain %q, failed=%v", ev.Result, ev.Failed, tt.resultHas, tt.failed)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	post := sample(t, ClaudeCode, "PostToolUse")
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"empty input", nil, "empty hook input"},
		{"truncated JSON", post[:len(post)/2], "hook input is not a claude-code hook event: line"},
		{"not an object", []byte(`[1,2]`), "hook input is not a claude-code hook event"},
		{"no event name", with(t, post, map[string]any{"hook_event_name": nil}), `no "hook_event_name"`},
		{"an unknown event", with(t, post, map[string]any{"hook_event_name": "PostToolUsage"}), `unknown claude-code hook event "PostToolUsage"`},
		{"no session", with(t, post, map[string]any{"session_id": nil}), `PostToolUse event has no "session_id"`},
		{"no tool name", with(t, post, map[string]any{"tool_name": nil}), `PostToolUse event has no "tool_name"`},
		{"a wrong type", with(t, post, map[string]any{"session_id": 7}), `field "session_id"`},
		{"deep nesting", []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)), "hook input is not a claude-code hook event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(ClaudeCode, tt.input)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func newHandler(t *testing.T, cfg loopguard.Config) *Handler {
	t.Helper()
	st, err := store.Open(context.Background(), "memory", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Handler{Config: cfg, Store: st, Now: func() time.Time { return time.Unix(1700000000, 0) }}
}

func handle(t *testing.T, h *Handler, host Host, input []byte) map[string]any {
	t.Helper()
	out, err := h.Handle(context.Background(), host, input)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return m
}

func additionalContext(m map[string]any) string {
	hso, _ := m["hookSpecificOutput"].(map[string]any)
	s, _ := hso["additionalContext"].(string)
	return s
}

func TestRemindersReachEachHost(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	for _, host := range Hosts() {
		t.Run(string(host), func(t *testing.T) {
			post := map[Host]string{ClaudeCode: "PostToolUse", Codex: "PostToolUse", GeminiCLI: "AfterTool"}[host]
			h := newHandler(t, cfg)
			ev := sample(t, host, post)
			var got []string
			for i := 0; i < 5; i++ {
				got = append(got, additionalContext(handle(t, h, host, ev)))
			}
			if got[0] != "" || got[1] != "" || !strings.HasPrefix(got[2], "You are repeating") || got[3] != "" ||
				!strings.Contains(got[4], "consecutive_calls: 5") {
				t.Errorf("contexts after 5 identical calls: %q", got)
			}
		})
	}
}

func TestSubagentsAndSessionsDoNotMix(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	h := newHandler(t, cfg)
	main := sample(t, ClaudeCode, "PostToolUse")
	sub := with(t, main, map[string]any{"agent_id": "a1686ff5d0ca18b72"})
	other := with(t, main, map[string]any{"session_id": "another-session"})
	for _, ev := range [][]byte{main, sub, other, main, sub, other} {
		if ctx := additionalContext(handle(t, h, ClaudeCode, ev)); ctx != "" {
			t.Fatalf("a reminder after two calls per agent: %q", ctx)
		}
	}
	if ctx := additionalContext(handle(t, h, ClaudeCode, main)); !strings.HasPrefix(ctx, "You are repeating") {
		t.Errorf("the main agent's third call: %q", ctx)
	}
}

func TestUserPromptResetsAndSubagentStopForgets(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	h := newHandler(t, cfg)
	post := sample(t, ClaudeCode, "PostToolUse")
	handle(t, h, ClaudeCode, post)
	handle(t, h, ClaudeCode, post)
	handle(t, h, ClaudeCode, sample(t, ClaudeCode, "UserPromptSubmit"))
	if ctx := additionalContext(handle(t, h, ClaudeCode, post)); ctx != "" {
		t.Errorf("a reminder right after the user spoke: %q", ctx)
	}

	sub := with(t, post, map[string]any{"agent_id": "sub-1"})
	handle(t, h, ClaudeCode, sub)
	key := string(ClaudeCode) + ":" + "d9797868-c53c-481b-a003-4b7400c17310/sub-1"
	if v, _ := h.Store.Get(context.Background(), key); v == nil {
		t.Fatalf("no state stored for the subagent under %q", key)
	}
	stop := with(t, sample(t, ClaudeCode, "SubagentStop"), map[string]any{"session_id": "d9797868-c53c-481b-a003-4b7400c17310", "agent_id": "sub-1"})
	handle(t, h, ClaudeCode, stop)
	if v, _ := h.Store.Get(context.Background(), key); v != nil {
		t.Error("a finished subagent's state was kept")
	}
}

// The hook hands the user's prompt to the engine, as every host does: with the default preset a
// prompt that repeats the last one ("continue", "continue") is no new turn, so the same call
// with the same answer on either side of it is still counted; another prompt starts afresh.
func TestUserPromptGoesThroughTheEngine(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	call := func(i int) []byte {
		return with(t, sample(t, ClaudeCode, "PostToolUse"), map[string]any{
			"tool_name": "Grep", "tool_input": map[string]any{"pattern": "parseConfig", "path": "src"},
			"tool_response": "src/config.go:12: func parseConfig()", "tool_use_id": fmt.Sprintf("toolu_%d", i)})
	}
	prompt := func(text string) []byte {
		return with(t, sample(t, ClaudeCode, "UserPromptSubmit"), map[string]any{"prompt": text})
	}
	for _, tc := range []struct {
		second string
		want   bool
	}{{"continue", true}, {"now look at the tests", false}} {
		h := newHandler(t, cfg)
		handle(t, h, ClaudeCode, prompt("continue"))
		handle(t, h, ClaudeCode, call(1))
		handle(t, h, ClaudeCode, call(2))
		handle(t, h, ClaudeCode, prompt(tc.second))
		ctx := additionalContext(handle(t, h, ClaudeCode, call(3)))
		if got := strings.Contains(ctx, "3 times"); got != tc.want {
			t.Errorf("second prompt %q: reminded %v, want %v (%q)", tc.second, got, tc.want, ctx)
		}
	}
}

func TestDenyMode(t *testing.T) {
	for _, host := range Hosts() {
		t.Run(string(host), func(t *testing.T) {
			cfg := loopguard.Config{DSHBrake: loopguard.DefaultDSHBrake()}
			cfg.DSHBrake.Mode, cfg.DSHBrake.CallWarnCount, cfg.DSHBrake.CallDenyCount = loopguard.ModeDeny, 2, 3
			h := newHandler(t, cfg)
			pre := sample(t, host, map[Host]string{ClaudeCode: "PreToolUse", Codex: "PreToolUse", GeminiCLI: "BeforeTool"}[host])
			post := sample(t, host, map[Host]string{ClaudeCode: "PostToolUse", Codex: "PostToolUse", GeminiCLI: "AfterTool"}[host])
			for i := 0; i < 3; i++ {
				if out := handle(t, h, host, pre); out != nil {
					t.Fatalf("call %d refused before the threshold: %v", i+1, out)
				}
				handle(t, h, host, post)
			}
			out := handle(t, h, host, pre)
			var reason string
			if host == GeminiCLI {
				if out["decision"] != "deny" {
					t.Fatalf("gemini deny output: %v", out)
				}
				reason, _ = out["reason"].(string)
			} else {
				hso, _ := out["hookSpecificOutput"].(map[string]any)
				if hso["permissionDecision"] != "deny" {
					t.Fatalf("deny output: %v", out)
				}
				reason, _ = hso["permissionDecisionReason"].(string)
			}
			if !strings.HasPrefix(reason, "dsh-brake: ") || !strings.Contains(reason, "3 times") {
				t.Errorf("reason %q", reason)
			}
			// If the host reports the refused call after the tool step, it is not counted twice:
			// the next refusal still says 4.
			handle(t, h, host, post)
			out = handle(t, h, host, pre)
			if b, _ := json.Marshal(out); !strings.Contains(string(b), "4 times") {
				t.Errorf("second refusal: %s", b)
			}
		})
	}
}

func TestRemindModeNeverTouchesTheStoreBeforeATool(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	h := &Handler{Config: cfg, Store: nil} // a nil store would panic if used
	out, err := h.Handle(context.Background(), ClaudeCode, sample(t, ClaudeCode, "PreToolUse"))
	if err != nil || out != nil {
		t.Errorf("PreToolUse in remind mode: %q %v", out, err)
	}
}

func FuzzHandle(f *testing.F) {
	for _, host := range Hosts() {
		dir := filepath.Join("..", "e2e", "testdata", "hook-stdin", string(host))
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, p := range files {
			b, _ := os.ReadFile(p)
			f.Add(string(host), b)
		}
	}
	f.Add("claude-code", []byte(`{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"x","tool_response":{"stdout":1}}`))
	// Every detector at once, all in deny mode: the progress detector and both seeds.
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	cfg.Progress.Mode = loopguard.ModeDeny
	cfg.RepeatToolReminder = loopguard.DefaultRepeatToolReminder()
	cfg.DSHBrake = loopguard.DefaultDSHBrake()
	cfg.DSHBrake.Mode = loopguard.ModeDeny
	st, _ := store.Open(context.Background(), "memory", store.Options{})
	h := &Handler{Config: cfg, Store: st}
	f.Fuzz(func(t *testing.T, hostName string, input []byte) {
		host, err := ParseHost(hostName)
		if err != nil {
			return
		}
		out, err := h.Handle(context.Background(), host, input)
		if err != nil && out != nil {
			t.Fatalf("output with an error: %q", out)
		}
		if len(out) > 0 && !json.Valid(out) {
			t.Fatalf("invalid JSON output: %q", out)
		}
	})
}

// State that this build cannot read (another version's snapshot, or damaged bytes) must not make
// every later call fail: the agent starts afresh, one warning says so, and counting resumes.
func TestUnreadableStateStartsAfresh(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	post := sample(t, ClaudeCode, "PostToolUse")
	r, err := parse(ClaudeCode, post)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		stored []byte
		warns  string
	}{
		{"a snapshot of an older format", append([]byte{stateVersion, 0}, "LG\x01"...), "bad snapshot: version 1"},
		{"a state of an unknown version", []byte{0xff, 1, 2, 3}, "stored hook state is damaged: version 255"},
		{"a truncated refusal list", []byte{stateVersion, 5, 10, 'x'}, "stored hook state is damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandler(t, cfg)
			var warnings []string
			h.Warn = func(line string) { warnings = append(warnings, line) }
			if err := h.Store.Update(context.Background(), r.agent, func([]byte) ([]byte, error) { return tc.stored, nil }); err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := 0; i < 3; i++ {
				got = append(got, additionalContext(handle(t, h, ClaudeCode, post)))
			}
			if got[0] != "" || got[1] != "" || !strings.HasPrefix(got[2], "You are repeating") {
				t.Errorf("contexts after 3 identical calls on unreadable state: %q", got)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], tc.warns) || !strings.Contains(warnings[0], "starts again from nothing") {
				t.Errorf("warnings = %q, want one that says %q", warnings, tc.warns)
			}
		})
	}
}

// Gemini CLI sends the model a failed tool's error message, without an AfterTool hook's
// context: for a failed tool the notice goes out as a block decision's reason, after the error.
func TestGeminiFailedToolNoticeRidesWithTheError(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	h := newHandler(t, cfg)
	const errText = "Could not find an exact match for 'old_string' in '/w/settings.py'."
	var outs []map[string]any
	for i := 0; i < 4; i++ {
		ev := with(t, sample(t, GeminiCLI, "AfterTool"), map[string]any{
			"tool_name":     "replace",
			"tool_input":    map[string]any{"file_path": "/w/settings.py", "old_string": "TIME_OUT = " + string(rune('1'+i)), "new_string": "X"},
			"tool_response": map[string]any{"llmContent": errText, "returnDisplay": "Error", "error": map[string]any{"message": errText, "type": "edit_no_occurrence_found"}},
		})
		outs = append(outs, handle(t, h, GeminiCLI, ev))
	}
	for i, o := range outs[:3] {
		if o != nil {
			t.Errorf("failed edit %d: output %v, want none", i+1, o)
		}
	}
	reason, _ := outs[3]["reason"].(string)
	if outs[3]["decision"] != "block" || !strings.HasPrefix(reason, errText+"\n\n") || !strings.Contains(reason, "has failed 4 times in a row") {
		t.Errorf("4th failed edit: output %v, want a block whose reason is the error, then the notice", outs[3])
	}
	// A tool that ran still gets its notice as additional context.
	h = newHandler(t, cfg)
	var last map[string]any
	for i := 0; i < 3; i++ {
		last = handle(t, h, GeminiCLI, sample(t, GeminiCLI, "AfterTool"))
	}
	if last["decision"] != nil || !strings.Contains(additionalContext(last), "You have made the same call") {
		t.Errorf("3rd identical call that ran: output %v, want the reminder as additional context", last)
	}
}

// Claude Code rejects a call whose input fails the tool's own checks (an edit whose old text is
// not in the file) without any per-tool event, and reports it only in PostToolBatch: those
// calls are counted there, and a batch of calls already reported one by one changes nothing.
func TestPostToolBatchCountsCallsNoPerToolEventReported(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	h := newHandler(t, cfg)
	batch := func(i int, response string) []byte {
		return with(t, sample(t, ClaudeCode, "PostToolBatch"), map[string]any{"tool_calls": []any{map[string]any{
			"tool_name":     "Edit",
			"tool_input":    map[string]any{"file_path": "/w/settings.py", "old_string": "TIME_OUT = " + string(rune('1'+i)), "new_string": "X"},
			"tool_use_id":   "toolu_" + string(rune('a'+i)),
			"tool_response": response,
		}}})
	}
	var contexts []string
	for i := 0; i < 4; i++ {
		contexts = append(contexts, additionalContext(handle(t, h, ClaudeCode,
			batch(i, "<tool_use_error>String to replace not found in file.\nString: TIME_OUT = "+string(rune('1'+i))+"</tool_use_error>"))))
	}
	if contexts[0] != "" || contexts[1] != "" || contexts[2] != "" || !strings.Contains(contexts[3], "Edit has failed 4 times in a row") {
		t.Errorf("contexts after 4 rejected edits: %q", contexts)
	}

	// Reported one by one (PostToolUse ran for it): the batch leaves the store alone.
	h = newHandler(t, cfg)
	if out := handle(t, h, ClaudeCode, sample(t, ClaudeCode, "PostToolBatch")); out != nil {
		t.Errorf("a batch of reported calls answered %v", out)
	}
	var in struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(sample(t, ClaudeCode, "PostToolBatch"), &in)
	if v, err := h.Store.Get(context.Background(), "claude-code:"+in.SessionID); err != nil || v != nil {
		t.Errorf("the store holds %q (%v) after a batch of reported calls", v, err)
	}
}

// Claude Code runs a hook per call, also for the parallel calls of one message: the message id
// read from the transcript makes them one reply, so four reads of one message failing alike
// are not an error loop, while four messages each failing so are.
func TestParallelCallsOfOneMessageAreOneReply(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	failed := sample(t, ClaudeCode, "PostToolUseFailure.failed-command")
	run := func(t *testing.T, messageOf func(i int) int) []string {
		h := newHandler(t, cfg)
		transcript := filepath.Join(t.TempDir(), "t.jsonl")
		var lines []string
		var got []string
		for i := 0; i < 4; i++ {
			id := "toolu_p" + string(rune('0'+i))
			lines = append(lines, `{"type":"assistant","uuid":"a`+id+`","sessionId":"s","message":{"id":"msg_`+string(rune('0'+messageOf(i)))+
				`","role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"Read","input":{"file_path":"/c/Users/m/part`+string(rune('0'+i))+`.py"}}]}}`)
			if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ev := with(t, failed, map[string]any{"transcript_path": transcript, "tool_use_id": id, "tool_name": "Read",
				"tool_input": map[string]any{"file_path": "/c/Users/m/part" + string(rune('0'+i)) + ".py"},
				"error":      "File does not exist. Note: your current working directory is /c/Users/m."})
			got = append(got, additionalContext(handle(t, h, ClaudeCode, ev)))
		}
		return got
	}
	t.Run("one message", func(t *testing.T) {
		if got := run(t, func(int) int { return 1 }); strings.Join(got, "") != "" {
			t.Errorf("a notice for the parallel calls of one message: %q", got)
		}
	})
	t.Run("four messages", func(t *testing.T) {
		if got := run(t, func(i int) int { return i }); got[3] == "" || strings.Join(got[:3], "") != "" {
			t.Errorf("contexts after four messages failing alike: %q", got)
		}
	})
}

// A PostToolUse without its tool_response (a collector that names the field otherwise) has an
// unknown result: the default preset does not take six such calls for the same answer six
// times, while the same calls with their (unchanging) response are stuck.
func TestAMissingToolResponseIsUnknownNotEmpty(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	for _, tt := range []struct {
		name   string
		fields map[string]any
		notice bool
	}{
		{"the response missing", map[string]any{"tool_response": nil, "tool_output": "step 1 of 40 done"}, false},
		{"the response given, the same each time", map[string]any{"tool_response": map[string]any{"stdout": "step 1 of 40 done", "stderr": "", "interrupted": false}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHandler(t, cfg)
			ev := with(t, sample(t, ClaudeCode, "PostToolUse"), tt.fields)
			said := false
			for i := 0; i < 6; i++ {
				if additionalContext(handle(t, h, ClaudeCode, ev)) != "" {
					said = true
				}
			}
			if said != tt.notice {
				t.Errorf("a notice after six calls: %v, want %v", said, tt.notice)
			}
		})
	}
}
