package transcript

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// mini-swe-agent .traj.json: {info, messages, trajectory_format}.
//
// messages[] is system prompt, task (the first user message), then alternating assistant
// replies and the harness's answers. Every assistant reply is one call (tool "bash"), whatever
// it holds, so that call indices count assistant replies:
//
//   - exactly one ```bash block: the harness ran it. Args is the command (the block's content,
//     trimmed, as the harness runs it), Result the next user message (<returncode>/<output>,
//     a timeout notice, or the submission); Failed when the return code is not 0 or the
//     command timed out.
//   - zero or several blocks: the harness refused the reply with a format error and ran
//     nothing. The reply is still one call, Failed, with the harness's reprompt as Result.
//     Several blocks: Args is the first, an attempted command that was refused, and a model
//     that keeps re-sending it is retrying. No block: the call "(no action)" with no Args,
//     since the reply attempted nothing, whatever it said (its words are the model's text).
//
// A harness of the same trajectory format may ask for calls in a textual protocol of its own
// instead (a ReAct agent built on mini-swe-agent for a course, Berkeley's CS 264 of 2025):
//
//	----BEGIN_FUNCTION_CALL----
//	<tool name>
//	----ARG----
//	<argument name>
//	----VALUE----
//	<its value, perhaps many lines>
//	----END_FUNCTION_CALL----
//
// Such a reply is a call of that tool with those arguments (miniFunctionCall), answered by the
// next message, a tool's or a user's, without the harness's echo of the call ("name(args=...)"
// then "----RESULT----" or "----TOOL RESULT BEGIN----"; or "Tool 'name' returned:").
//
// The reply's text around the command is the model's THOUGHT (EventText, Source "model").
// Times come from the API response's creation time, when the message records it.
// The hand labels (labels.jsonl) count calls this way: their format_retry rows span the
// refused replies and the accepted one that follows.

const miniDefaultActionRegex = "```bash\\s*\\n(.*?)\\n```"

// miniDefaultRegexp is compiled on first use: hooks link this package but never read transcripts.
var miniDefaultRegexp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)" + miniDefaultActionRegex) })

// miniExtra is what is read of a message's `extra`, which also repeats the whole API
// response (skipped).
type miniExtra struct {
	Response *miniResponse
}

type miniResponse struct {
	Created float64 // Unix seconds
	Model   string
	Usage   *miniTokens
}

type miniTokens struct {
	PromptTokens        int64            `json:"prompt_tokens"`
	CompletionTokens    int64            `json:"completion_tokens"`
	PromptTokensDetails *miniTokenDetail `json:"prompt_tokens_details"`
}

type miniTokenDetail struct {
	CachedTokens int64 `json:"cached_tokens"`
}

// tokens decodes a response's usage as std would, without encoding/json for the usual plain
// object: a call of it for every message was a twentieth of the reading of mini-swe-agent
// files.
func (w *walker) tokens(i int, dst **miniTokens) (int, error) {
	end, found, ok := w.stdMembers(i, "prompt_tokens", "completion_tokens", "prompt_tokens_details")
	if !ok {
		return w.std(i, dst)
	}
	if *dst == nil {
		*dst = &miniTokens{}
	}
	u := *dst
	for _, m := range found {
		var err error
		switch m.name {
		case "prompt_tokens":
			_, err = w.stdInt(m.v, &u.PromptTokens)
		case "completion_tokens":
			_, err = w.stdInt(m.v, &u.CompletionTokens)
		case "prompt_tokens_details":
			_, err = w.tokenDetail(m.v, &u.PromptTokensDetails)
		}
		if err != nil {
			return i, err
		}
	}
	return end, nil
}

func (w *walker) tokenDetail(i int, dst **miniTokenDetail) (int, error) {
	end, found, ok := w.stdMembers(i, "cached_tokens")
	if !ok {
		return w.std(i, dst)
	}
	if *dst == nil {
		*dst = &miniTokenDetail{}
	}
	for _, m := range found {
		if _, err := w.stdInt(m.v, &(*dst).CachedTokens); err != nil {
			return i, err
		}
	}
	return end, nil
}

func (x *miniExtra) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		if string(key) != "response" {
			return w.skip(v)
		}
		r := &miniResponse{}
		x.Response = r
		return w.object(v, func(key []byte, v int) (int, error) {
			switch string(key) {
			case "created":
				return w.stdFloat(v, &r.Created)
			case "model":
				return w.str(v, &r.Model)
			case "usage":
				return w.tokens(v, &r.Usage)
			}
			return w.skip(v)
		})
	}
}

func buildMini(d *docObject) *built {
	msgs := d.Messages
	if historyHasToolCalls(msgs) {
		// mini-swe-agent 2 keeps tool calls as structured calls, each answered as 1.x answers
		// an action: a non-zero <returncode> is the call failing (validation round r75b: a
		// harness's "[policy error]" refusals, each with return code 1, were successes, and
		// nine of them in ten calls went untold).
		out := buildMessages(FormatMiniSWEAgent, msgs)
		for ai := range out.Agents {
			for ei := range out.Agents[ai].Events {
				if e := &out.Agents[ai].Events[ei]; e.Type == loopguard.EventCall && e.HasResult && !e.Failed && miniFailed(e.Result) {
					e.Failed = true
				}
			}
		}
		miniUsage(d, out)
		return out
	}
	re := miniDefaultRegexp()
	if d.Info != nil && d.Info.Config != nil && d.Info.Config.Agent != nil {
		if r := d.Info.Config.Agent.ActionRegex; r != "" && r != miniDefaultActionRegex {
			// The harness applies its regex with re.DOTALL; Python syntax Go lacks falls back
			// to the default.
			if c, err := regexp.Compile("(?s)" + r); err == nil && c.NumSubexp() >= 1 {
				re = c
			}
		}
	}

	b := newBuilder(FormatMiniSWEAgent)
	a := b.agent(MainAgent)
	var usage Usage
	for i := 0; i < len(msgs); i++ {
		m := &msgs[i]
		text := contentText(m.Content)
		switch m.Role {
		case "system":
			a.text("system", text, "", 0)
		case "user":
			a.taskOrHarness(text)
		case "assistant":
			var ms int64
			if x := m.Extra; x != nil && x.Response != nil && x.Response.Created > 0 && x.Response.Created < 1e11 {
				ms = int64(x.Response.Created * 1000)
			}
			// (Counted for every reply, whichever way it made its call.)
			if x := m.Extra; x != nil && x.Response != nil {
				if u := x.Response.Usage; u != nil {
					cached := int64(0)
					if u.PromptTokensDetails != nil {
						cached = u.PromptTokensDetails.CachedTokens
					}
					usage.InputTokens += u.PromptTokens - cached
					usage.CacheReadTokens += cached
					usage.OutputTokens += u.CompletionTokens
				}
				if x.Response.Model != "" {
					usage.Model = x.Response.Model
				}
			}
			if thought, call, ok := miniFunctionCall(text); ok {
				a.text("model", thought, "", ms)
				call.Time = ms
				if i+1 < len(msgs) && (msgs[i+1].Role == "tool" || msgs[i+1].Role == "user") {
					i++
					call = call.WithResult(miniFunctionResult(contentText(msgs[i].Content)), false)
				}
				a.add(call)
				continue
			}
			var blocks [][]int
			if re == miniDefaultRegexp() {
				blocks = miniDefaultBlocks(text)
			} else {
				blocks = re.FindAllStringSubmatchIndex(text, -1)
			}
			thought, args := text, ""
			answer, answered := "", i+1 < len(msgs) && msgs[i+1].Role == "user" // the harness's answer
			if answered {
				answer = contentText(msgs[i+1].Content)
			}
			// A harness that runs the reply itself (the CaM fork's: the reply is Python that
			// calls exec_bash_cmd) answers it with a return code, as any command run: the reply
			// is the call, not one refused for its form (validation round r122b U1: every call
			// of such runs read as refused and failed, 68 of 69 of one run having exited 0).
			ran := len(blocks) == 0 && answered && strings.HasPrefix(strings.TrimSpace(answer), "<returncode>")
			refused := len(blocks) != 1 && !ran // the harness refused the reply for its form and ran nothing
			if ran {
				thought = ""
			}
			if len(blocks) > 0 {
				blk := blocks[0]
				thought = text[:blk[0]] + text[blk[1]:]
				if blk[2] >= 0 {
					args = strings.TrimSpace(text[blk[2]:blk[3]])
				}
			}
			a.text("model", strings.TrimSpace(thought), "", ms)
			call := loopguard.Call("", "bash", nil)
			call.Time = ms
			switch {
			case ran:
				call.Tool, call.Args = "python", []byte(strings.TrimSpace(text))
			case args != "":
				call.Args = []byte(args)
			case len(blocks) == 0:
				// No action found (the harness answers with a format error): the reply
				// attempted nothing, whatever it said, and its words are the model's text
				// (above). Each such reply is the same call, "(no action)" as SWE-agent's
				// reader names it, answered the same: three in a row are the model stuck at
				// the form. Taken as an attempt of its own, each reply's prose masked the
				// harness's one answer apart, and a model that sent a plan in words four
				// times running, nothing run, was never told (validation rounds r132a,
				// r139a; found again in r154a).
				call.Tool, call.Args = noActionTool, nil
			}
			if answered {
				i++
				result, failed := answer, miniFailed(answer)
				if out, code, ok := miniPyDictObservation(result); ok {
					result, failed = out, code != 0
				}
				call = call.WithResult(result, refused || failed)
			} else if len(blocks) != 1 {
				call.Failed = true
			}
			if refused {
				call.Source = loopguard.SourceHarness
			}
			a.add(call)
		default:
			a.text(m.Role, text, "", 0)
		}
	}
	a.usage = usage
	out := b.done()
	miniUsage(d, out)
	return out
}

// The marks of the textual call protocol (see the top of this file).
const (
	miniCallBegin = "----BEGIN_FUNCTION_CALL----"
	miniCallEnd   = "----END_FUNCTION_CALL"
	miniCallArg   = "----ARG----"
	miniCallValue = "----VALUE----"
)

// miniFunctionCall reads a reply that makes its call in the textual protocol: the text before
// the call's block (the model's thought) and the call, its arguments a JSON object of the
// argument names and values. A value keeps its lines, less the line break before the next
// mark; a block cut short (no end mark) ends with the reply.
func miniFunctionCall(text string) (thought string, call loopguard.Event, ok bool) {
	at := strings.LastIndex(text, miniCallBegin)
	if at < 0 {
		return "", call, false
	}
	body := text[at+len(miniCallBegin):]
	if end := strings.Index(body, miniCallEnd); end >= 0 {
		body = body[:end]
	}
	name, rest, _ := strings.Cut(strings.TrimLeft(body, "\r\n"), miniCallArg)
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \n") {
		return "", call, false
	}
	args := map[string]string{}
	for _, part := range strings.Split(rest, miniCallArg) {
		key, value, found := strings.Cut(part, miniCallValue)
		if key = strings.TrimSpace(key); !found || key == "" {
			continue
		}
		value = strings.TrimPrefix(strings.TrimPrefix(value, "\r"), "\n")
		value = strings.TrimSuffix(strings.TrimSuffix(value, "\n"), "\r")
		args[key] = value
	}
	return strings.TrimSpace(text[:at]), loopguard.Call("", name, marshalArgs(args)), true
}

// miniFunctionResult is a textual-protocol harness's answer without its echo of the call.
func miniFunctionResult(result string) string {
	for _, mark := range []string{"----TOOL RESULT BEGIN----", "----RESULT----"} {
		if head, body, ok := strings.Cut(result, mark); ok && !strings.Contains(head, "\n\n") {
			body, _, _ = strings.Cut(body, "----TOOL RESULT END----")
			return strings.Trim(body, "\r\n")
		}
	}
	if strings.HasPrefix(result, "Tool '") {
		if first, body, ok := strings.Cut(result, "\n"); ok && strings.HasSuffix(strings.TrimSpace(first), "returned:") {
			return body
		}
	}
	return result
}

// miniDefaultBlocks is miniDefaultRegexp().FindAllStringSubmatchIndex(text, -1), without
// the regexp engine, which was a tenth of the time spent reading mini-swe-agent files. The
// regexp, "(?s)```bash\s*\n(.*?)\n```", matches at an occurrence of "```bash": its greedy \s*
// takes the longest run of white space that ends with a newline, and the lazy (.*?) the
// shortest command followed by "\n```"; when no "\n```" follows, \s* gives back up to an
// earlier newline (which only helps when the run itself ends in "\n```"). FuzzMiniBlocks
// checks it against the regexp.
func miniDefaultBlocks(text string) [][]int {
	const open, closing = "```bash", "\n```"
	var blocks [][]int
	for pos := 0; ; {
		k := strings.Index(text[pos:], open)
		if k < 0 {
			return blocks
		}
		start := pos + k
		pos = start + 1 // no match here: the next occurrence may still match
		ws := start + len(open)
		end := ws
		for end < len(text) && isRegexpSpace(text[end]) {
			end++
		}
		for nl := end - 1; nl >= ws; nl-- {
			if text[nl] != '\n' {
				continue
			}
			cmd := nl + 1
			if c := strings.Index(text[cmd:], closing); c >= 0 {
				blocks = append(blocks, []int{start, cmd + c + len(closing), cmd, cmd + c})
				pos = cmd + c + len(closing)
				break
			}
		}
	}
}

// isRegexpSpace is the regexp package's \s: [\t\n\f\r ].
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// miniUsage adds the run's cost and configured model to the main agent.
func miniUsage(d *docObject, out *built) {
	if len(out.Agents) == 0 || d.Info == nil {
		return
	}
	u := &out.Agents[0].Usage
	if d.Info.ModelStats != nil {
		u.CostUSD = d.Info.ModelStats.InstanceCost
	}
	if c := d.Info.Config; c != nil && c.Model != nil && c.Model.ModelName != "" {
		u.Model = c.Model.ModelName
	}
}

// miniFailed reads a harness answer: a non-zero <returncode>, or a timeout notice.
func miniFailed(result string) bool {
	const rc = "<returncode>"
	if strings.HasPrefix(result, rc) {
		rest := result[len(rc):]
		if end := strings.Index(rest, "</returncode>"); end >= 0 {
			n, err := strconv.Atoi(strings.TrimSpace(rest[:end]))
			return err != nil || n != 0
		}
	}
	return strings.HasPrefix(result, "The last command ") && strings.Contains(result, "timed out")
}

// miniPyDictObservation reads an answer that an observation template wrote as the Python
// dict of the command's outcome, one line ("Observation: {'output': 'a\\nb\\n', 'returncode':
// 1}"): its output, its escapes decoded, and its return code. Left as it is, the whole output
// is one line, and what names a failure cannot be told from the rest of it.
func miniPyDictObservation(result string) (output string, code int, ok bool) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(result), "Observation:"))
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") || !strings.Contains(s, "returncode") {
		return "", 0, false
	}
	i := 1
	haveOut, haveCode := false, false
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == ',') {
			i++
		}
		if i < len(s) && s[i] == '}' {
			break
		}
		key, n, okKey := pyString(s[i:])
		if !okKey {
			return "", 0, false
		}
		i += n
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) || s[i] != ':' {
			return "", 0, false
		}
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i < len(s) && (s[i] == '\'' || s[i] == '"') {
			v, n, okVal := pyString(s[i:])
			if !okVal {
				return "", 0, false
			}
			i += n
			if key == "output" {
				output, haveOut = v, true
			}
			continue
		}
		j := i
		for j < len(s) && s[j] != ',' && s[j] != '}' {
			j++
		}
		v := strings.TrimSpace(s[i:j])
		if key == "returncode" {
			c, err := strconv.Atoi(v)
			if err != nil {
				return "", 0, false
			}
			code, haveCode = c, true
		}
		i = j
	}
	return output, code, haveOut && haveCode
}
