package install

import "testing"

func strp(s string) *string { return &s }

// Known answers: hashes `codex app-server` (0.171.0) reported for these
// hooks in hooks/list (currentHash). TestCodexTrustedHashMatchesCodex in
// internal/e2e asks the installed Codex again.
func TestCodexTrustedHashKnownAnswers(t *testing.T) {
	cases := []struct {
		event   string
		matcher *string
		h       CodexHandler
		want    string
	}{
		{"PreToolUse", strp("Bash"), CodexHandler{Command: "/tmp/explore/ch/hook.sh pre", Timeout: 10},
			"sha256:905ad85f5401d3dee1bb4a429c10bafce313de8bc6e9e671675b6ff7847f30f6"},
		{"PostToolUse", nil, CodexHandler{Command: "/tmp/explore/ch/hook.sh post"},
			"sha256:b21507a4b2d69d6d0ddaa75538c1ef3d3cf91312287a23e4a5a339e63eb357e4"},
		// Stop takes no matcher: Codex drops it before hashing.
		{"Stop", strp("ignored"), CodexHandler{Command: "echo hi", StatusMessage: "x"},
			"sha256:b29a2373a13a1c4a66bee6525ba04730282afb303f7a7b68195b0fd4d55f2750"},
		// An explicit empty matcher is kept; "timeout": 0 in hooks.json is
		// raised to 1, so it hashes like Timeout 1 (0 in Go means unset);
		// <, >, &, quotes, non-ASCII, U+2028 and a tab as serde_json writes them.
		{"PreToolUse", strp(""), CodexHandler{Command: "a <b> & \"c\" é \u2028 \t", Timeout: 1},
			"sha256:d3872894849f475466941058f7329d55d6c8c2d861f22d8e860a4bdd7566ed16"},
		{"PreToolUse", strp("*"), CodexHandler{Command: "y"},
			"sha256:779ffadebb0212a2836c34300220a6be7f017ef1e9b0f475b793e267b345acc1"},
		{"UserPromptSubmit", strp("zz"), CodexHandler{Command: "u"},
			"sha256:428174c11a917f82217b7d1d27622db1935db5b47c2f7c04bd1090beb7f8a251"},
		{"SubagentStart", nil, CodexHandler{Command: "s"},
			"sha256:093fa4855bc8330c5aa72dc78530258f20a3109982e26629bf6d4e4796e73d1f"},
		{"PreToolUse", nil, CodexHandler{Command: "x"},
			"sha256:250c1e9748c7a3130fcf12b596c40e211966274196ce0e2fec7f5eb707626bb0"},
		{"PreToolUse", nil, CodexHandler{Command: "x", Timeout: 100000},
			"sha256:b502a76b16eee6d8c012b6b1b8dd5023de1bbc889123c74c09280af0ed12dd65"},
		// SessionEnd and Interrupt: 1 s when unset, clamped to 3 s.
		{"SessionEnd", nil, CodexHandler{Command: "x"},
			"sha256:f3041eae9d0be5faed5367060d633bb905ed83825e2f4d9c7bc7f5ef19fe4bc7"},
		{"SessionEnd", nil, CodexHandler{Command: "x", Timeout: 100000},
			"sha256:b1aa6329f3a5daf36ae487200db1136f90a884bb805ddb24a6326c98dd6f29f6"},
		{"Interrupt", nil, CodexHandler{Command: "x"},
			"sha256:62ff3f22d466214a78ee1c476871d1929af10e332f3b32e22b856433017c72fe"},
		{"Interrupt", nil, CodexHandler{Command: "x", Timeout: 100000},
			"sha256:a5c004c961226f9446832ffd4713c9a952b1b2be25a24b433950f2394329255b"},
		{"SubagentStop", nil, CodexHandler{Command: "x"},
			"sha256:d5497d3559f9ebc3fb99aadc0f2f3668cc54ce47a7a1b1981f0ba9c74acaa26a"},
	}
	for _, c := range cases {
		if got := CodexTrustedHash(c.event, c.matcher, c.h); got != c.want {
			t.Errorf("CodexTrustedHash(%s, %v, %+v) = %s, want %s", c.event, c.matcher, c.h, got, c.want)
		}
	}
	if got, want := CodexHookKey("/h/hooks.json", "PostToolUse", 1, 2), "/h/hooks.json:post_tool_use:1:2"; got != want {
		t.Errorf("CodexHookKey = %q, want %q", got, want)
	}
	for in, want := range map[string]string{"PreToolUse": "pre_tool_use", "UserPromptSubmit": "user_prompt_submit",
		"SubagentStop": "subagent_stop", "Stop": "stop", "PermissionRequest": "permission_request"} {
		if got := CodexHookEventLabel(in); got != want {
			t.Errorf("CodexHookEventLabel(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := CodexTrustTable(`/a "b"/hooks.json:stop:0:0`, "sha256:00"),
		"[hooks.state.\"/a \\\"b\\\"/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:00\"\n"; got != want {
		t.Errorf("CodexTrustTable = %q, want %q", got, want)
	}
}
