package hook

import (
	"encoding/json"
	"strings"

	"github.com/loopguard/loopguard"
)

// noticeText joins notices into the one block of additional context a host accepts.
func noticeText(notices []loopguard.Notice) string {
	texts := make([]string, len(notices))
	for i, n := range notices {
		texts[i] = n.Text
	}
	return strings.Join(texts, "\n\n")
}

// contextOutput is the host's JSON that adds text for the model after a tool ran.
//
// Gemini CLI appends an AfterTool hook's context to the tool's output, but when the tool failed
// the model is sent the error message instead, without it. For a failed tool the notices go
// out as the reason of a "block" decision, after the error message: Gemini CLI then sends the
// model that reason as the tool's error, so the model reads its error and the notice together.
func contextOutput(r *request, notices []loopguard.Notice) []byte {
	if len(notices) == 0 {
		return nil
	}
	if r.host == GeminiCLI {
		if text, failed := r.result(); failed {
			return marshal(map[string]any{"decision": "block", "reason": text + "\n\n" + noticeText(notices)})
		}
	}
	return marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":     r.in.Event,
		"additionalContext": noticeText(notices),
	}})
}

// denyOutput is the host's JSON that refuses a call before it runs, with the reason the model
// will read. Notices due on the refused call ride along in the reason: the host shows nothing
// else for a call that did not run.
func denyOutput(r *request, d loopguard.Denial, notices []loopguard.Notice) []byte {
	reason := d.Reason
	if len(notices) > 0 {
		reason += "\n\n" + noticeText(notices)
	}
	if r.host == GeminiCLI {
		return marshal(map[string]any{"decision": "deny", "reason": reason})
	}
	return marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            r.in.Event,
		"permissionDecision":       "deny",
		"permissionDecisionReason": reason,
	}})
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return append(b, '\n')
}
