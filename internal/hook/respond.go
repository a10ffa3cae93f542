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
func contextOutput(r *request, notices []loopguard.Notice) []byte {
	if len(notices) == 0 {
		return nil
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
