package transcript

import "bufio"

// `opencode run --format json` prints the run as events, one a line, each with the session's
// id and one part of a message as opencode's storage keeps it (see opencode.go):
//
//	{"type": "step_start", "timestamp": ..., "sessionID": "ses_...", "part": {"type": "step-start", ...}}
//	{"type": "text", ..., "part": {"type": "text", "text": "I'll check the branch first."}}
//	{"type": "tool_use", ..., "part": {"type": "tool", "callID": "call_1", "tool": "bash",
//	    "state": {"status": "completed", "input": {...}, "output": "..."}}}
//	{"type": "step_finish", ..., "part": {"type": "step-finish", "tokens": {...}, "cost": 0.01}}
//
// A tool part may come once for each state it passes through (pending, running, then completed
// or error); its last state is the call, where it first came. The parts are read as one
// assistant message's, by buildOpencode; a new session id opens a session of its own. Events of
// other types (the server's bus events some
// builds print too: "message.part.updated", "session.status", "log") are passed over.
// Validation round r82b U2: an issue solver's logs of such runs, 114 calls, were not read.

type ocRunEvent struct {
	Type      string  `json:"type"`
	SessionID string  `json:"sessionID"`
	Part      *ocPart `json:"part"`
}

// isOpencodeRunHead says whether a line is one of `opencode run --format json`'s events.
func isOpencodeRunHead(typ string, has func(string) bool) bool {
	switch typ {
	case "tool_use", "text", "step_start", "step_finish", "reasoning":
		return has("sessionID") && has("part")
	}
	return false
}

func readOpencodeRun(name string, br *bufio.Reader) (*built, error) {
	// Runs appended to one file (a pipeline running opencode again) are sessions of their own,
	// told apart by their session ids (validation round r83a U2: three runs read as one).
	var runs [][]ocPart
	var parts []ocPart
	session := ""
	byCall := map[string]int{} // callID -> index in parts
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var ev ocRunEvent
		if ok, err := decodeEventLine(line, &ev); !ok {
			return err
		}
		if ev.Part == nil {
			return nil
		}
		if ev.SessionID != "" && ev.SessionID != session {
			if session != "" && len(parts) > 0 {
				runs, parts = append(runs, parts), nil
				clear(byCall)
			}
			session = ev.SessionID
		}
		switch ev.Type {
		case "tool_use":
			if i, ok := byCall[ev.Part.CallID]; ok && ev.Part.CallID != "" {
				parts[i] = *ev.Part // a later state of the same call
				return nil
			}
			byCall[ev.Part.CallID] = len(parts)
			parts = append(parts, *ev.Part)
		case "text", "reasoning", "step_start":
			parts = append(parts, *ev.Part)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	runs = append(runs, parts)
	b := newBuilder(FormatOpencode)
	for i, run := range runs {
		b.session = i
		addOpencode(b, []ocMessage{{Info: ocMessageInfo{Role: "assistant"}, Parts: run}})
	}
	t := b.done()
	t.Sessions = len(runs)
	return withDamaged(t, damaged), nil
}
