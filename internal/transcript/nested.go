package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// A document of no known format may still hold chats: a dataset row ({"instance_id",
// "trajectory": [messages]}), a wrapper ({"data": {"messages": [...]}}), a list of runs
// ([{"instance_id", "conversations": [...]}, ...]) or a JSONL file of such rows. Rather than
// a reader per wrapper, the document is searched, in order, for lists of chat messages; each
// list found is a session.
//
// A list is a chat when at least two of its first elements (listSampleSize), and at least
// half of them, are objects with a role and something said (content, text, tool calls or
// parts). A chat is not searched
// further. Its messages are read as OpenAI- or Anthropic-style messages (roles "ai" and
// "human" as LangChain writes them, "text" for content as some datasets do); a chat without
// structured tool calls is read for the calls its model wrote in its text (addWrittenCalls).
// A chat that a later one starts with is dropped (dropRepeatedHistories): logs of model
// requests, and lists of training episodes, repeat the history before each step.

// maxNestedDepth bounds the search: chats sit a few levels down, not thirty.
const maxNestedDepth = 12

// chatsIn searches the JSON value at w.data[i] for chats, in document order.
func (w *walker) chatsIn(i, depth int, out *[][]msg) (int, error) {
	i = w.ws(i)
	if i >= len(w.data) {
		return i, nil
	}
	switch w.data[i] {
	case '[':
		end, err := w.skip(i)
		if err != nil {
			return end, err
		}
		sample := listSample(w.data[i:end])
		if isChatList(sample) {
			if list := decodeChat(w.data[i:end]); len(list) > 0 {
				*out = append(*out, list)
			}
			return end, nil
		}
		if isADPList(sample) {
			if list := decodeADP(w.data[i:end]); len(list) > 0 {
				*out = append(*out, list)
			}
			return end, nil
		}
		if isRoundList(sample) {
			if list := decodeRounds(w.data[i:end]); len(list) > 0 {
				*out = append(*out, list)
			}
			return end, nil
		}
		if isStepList(sample) {
			if list := decodeSteps(w.data[i:end]); len(list) > 0 {
				*out = append(*out, list)
			}
			return end, nil
		}
		if depth >= maxNestedDepth {
			return end, nil
		}
		// A list whose first elements hold no run holds none further on: its elements are
		// alike (records of data), and the rest is not searched.
		found, seen := len(*out), 0
		return w.array(i, func(e int) (int, error) {
			if seen++; seen > listSampleSize && len(*out) == found {
				return w.skip(e)
			}
			return w.chatsIn(e, depth+1, out)
		})
	case '{':
		if depth >= maxNestedDepth {
			return w.skip(i)
		}
		var query string     // the task of a run kept as parallel lists, which comes before them
		untasked := -1       // where a run read from such lists is in *out while no task was read for it
		searched := false    // a ToolBench search tree was read: the answer's chain is part of it
		answered := -1       // where the chats of an answer_generation read before the tree start
		emptyRun := false    // a run's list of messages was empty
		failedInference := 0 // BFCL's failed entry: a "result" saying so, and a "traceback" (see below)
		var tried []msg      // a ToolBench run's tries (triesChat): the run when nothing else holds it
		initialObs := ""     // the run's first observation, before any step (see seenBeforeActing)
		before := len(*out)
		end, err := w.object(i, func(key []byte, v int) (int, error) {
			if v = w.ws(v); v >= len(w.data) {
				return w.chatsIn(v, depth+1, out)
			}
			var list []msg
			end := v
			var err error
			switch k, c := string(key), w.data[v]; {
			case (k == "initial_observation" || k == "initial_obs") && c == '"':
				return w.str(v, &initialObs)
			case k == "children" && c == '[':
				// A search tree's nodes (Moatless' SWE-Search: {"root": {"children": [{...,
				// "children": [...]}]}}) nest each step two levels below the one before it,
				// and each holds the chat its model was sent: the tree's depth is the run's
				// length, not a wrapper's, so it does not count toward maxNestedDepth
				// (validation round r133b U1: only the chats of the first four steps were
				// searched, and the run's last steps, its tests and its finish, were lost).
				return w.array(v, func(e int) (int, error) { return w.chatsIn(e, depth, out) })
			case k == "initial_state":
				// A task's starting point (tau2-bench's tasks: the history a simulation opens
				// with), not a run: where a run began from it, the run holds it; where none
				// did, it was read as a run of its own, its calls made by no one.
				return w.skip(v)
			case k == "query" && c == '"':
				end, err := w.str(v, &query)
				if err == nil && untasked >= 0 && query != "" {
					// the task written after its lists: it still comes first
					(*out)[untasked] = append([]msg{{Role: "user", Content: query}}, (*out)[untasked]...)
					untasked = -1
				}
				return end, err
			case searched && (k == "answer_generation" || k == "compare_candidates"):
				return w.skip(v)
			case k == "answer_generation" && answered < 0:
				answered = len(*out)
				return w.chatsIn(v, depth+1, out)
			case k == "trys" && c == '[':
				// the tries of a ToolBench run, read only when nothing else holds the run
				end, err := w.skip(v)
				if err == nil {
					tried = triesChat(w.data[v:end])
				}
				return end, err
			case k == "answer_details" && c == '[':
				end, err = w.skip(v)
				list = answerDetailsChat(w.data[v:end])
			case k == "tree" && c == '{':
				// ToolBench's DFS search tree: every call the run made, in the order made; the
				// answer's chain, if read already, is part of it
				end, err = w.skip(v)
				if list = searchTreeChat(w.data[v:end]); len(list) > 0 {
					searched = true
					if answered >= 0 {
						*out = (*out)[:answered]
					}
				}
			case (k == "messages" || k == "traj" || k == "inference_log") && isEmptyRunValue(w.data, v):
				// A run that made no message (tau2-bench keeps a simulation its infrastructure
				// failed as "messages": [], the Berkeley Function Calling Leaderboard an entry
				// whose inference failed as "inference_log": null): still a session, so that the
				// runs after it keep their places in the list, as session_index numbers them;
				// passed over, the runs after it were named one place early (validation rounds
				// r61b U1, r62c U1, r64a U1). (Kept once the object is read, and only if it held
				// no other run.)
				emptyRun = true
				return w.skip(v)
			case (k == "result" || k == "traceback") && c == '"':
				// The Berkeley Function Calling Leaderboard writes an entry whose inference
				// failed as its id, a "result" that says "Error during inference: ..." and the
				// "traceback", with no inference_log: a run that made nothing, kept in its place
				// as an empty one is (r64a U1). Both are needed: a traceback alone is any
				// record's.
				var text string
				end, err := w.str(v, &text)
				if k == "traceback" || strings.HasPrefix(text, "Error during inference") {
					failedInference++
				}
				if failedInference == 2 {
					emptyRun = true
				}
				return end, err
			case k == "inference_log" && c == '[':
				// the Berkeley Function Calling Leaderboard's multi-turn log
				end, err = w.skip(v)
				list = inferenceLogChat(w.data[v:end])
			case k == "turn_history" && c == '{':
				// InterCode's parallel lists, the query before them as the task
				end, err = w.skip(v)
				if list = turnHistoryChat(w.data[v:end]); len(list) > 0 {
					if query != "" {
						list = append([]msg{{Role: "user", Content: query}}, list...)
					} else if err == nil {
						untasked = len(*out) // appended below; its task may come after it
					}
				}
			case k == "traj" && c == '"':
				// a ReAct run kept as one text (FireAct's runs of fine-tuned models)
				var text string
				end, err = w.str(v, &text)
				list = reactTextChat(text)
			default:
				return w.chatsIn(v, depth+1, out)
			}
			if err != nil {
				return end, err
			}
			if len(list) == 0 {
				return w.chatsIn(v, depth+1, out) // not a run of that kind: look inside as for any value
			}
			*out = append(*out, list)
			return end, nil
		})
		if err == nil && len(*out)-before > 1 {
			*out = append((*out)[:before], withoutCallsRecordedTwice((*out)[before:])...)
		}
		if err == nil && initialObs != "" {
			for r := before; r < len(*out); r++ {
				(*out)[r] = seenBeforeActing((*out)[r], initialObs)
			}
		}
		if err == nil && len(tried) > 0 && len(*out) == before {
			*out = append(*out, tried)
		}
		if err == nil && emptyRun && len(*out) == before {
			*out = append(*out, []msg{})
		}
		return end, err
	}
	return w.skip(i)
}

// isEmptyRunValue says whether the JSON value at data[i], under a key that holds a run, holds
// none: an empty list, or null.
func isEmptyRunValue(data []byte, i int) bool {
	return isEmptyList(data, i) || i+4 <= len(data) && string(data[i:i+4]) == "null"
}

// isEmptyList says whether the JSON value at data[i] is a list with nothing in it.
func isEmptyList(data []byte, i int) bool {
	if i >= len(data) || data[i] != '[' {
		return false
	}
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case ' ', '\t', '\n', '\r':
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

// hasChat says whether any of chats holds a message: a document whose only runs are empty
// is no transcript.
func hasChat(chats [][]msg) bool {
	for _, c := range chats {
		if len(c) > 0 {
			return true
		}
	}
	return false
}

// turnHistoryChat reads a run kept as parallel lists, InterCode's "turn_history": the model's
// "actions" (a command, a query or code, or a ReAct action such as execute[ls -la]), the
// "observations" that answered them, "thoughts" before each action (its ReAct agents) and
// "valid_action", false where the action failed. Each action is a call: a ReAct action is the
// tool it names with what it holds, anything else the call of a tool named "action". Nil
// when the lists hold no answered action. (The run's task, its "query" beside the lists, is
// put before them by chatsIn, wherever it is written: without it, two runs on one database
// that began alike would read as one run and its repetition.)
func turnHistoryChat(raw []byte) []msg {
	var h struct {
		Thoughts     []json.RawMessage `json:"thoughts"`
		Actions      []json.RawMessage `json:"actions"`
		Observations []json.RawMessage `json:"observations"`
		Valid        []json.RawMessage `json:"valid_action"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Actions) == 0 || len(h.Observations) == 0 {
		return nil
	}
	var list []msg
	for k, a := range h.Actions {
		if k >= len(h.Observations) {
			break
		}
		action := strings.TrimSpace(jsonText(a))
		name, args := "action", action
		if m := turnAction().FindStringSubmatch(action); m != nil {
			name, args = m[1], m[2]
		}
		id := "a" + strconv.Itoa(k)
		said := ""
		if k < len(h.Thoughts) {
			said = jsonText(h.Thoughts[k])
		}
		list = append(list, answeredCall(said, id, name, args, jsonText(h.Observations[k]), k < len(h.Valid) && string(h.Valid[k]) == "false")...)
	}
	return list
}

// inferenceLogChat reads the Berkeley Function Calling Leaderboard's log of a multi-turn entry:
// a list of the environment's state (lists of "state_info" records, passed over) and of turns,
// each {"begin_of_turn_query": [user messages], "step_0": [...], "step_1": [...], ...}. A step
// is the model's message (content a list of {"function": "<JSON arguments>"}, one a call, or
// text), the handler's note on decoding it, then one "tool" message a call, in order. A turn
// the model answered in words alone is a turn all the same. Nil when the log holds no turn.
func inferenceLogChat(raw []byte) []msg {
	var log []json.RawMessage
	if json.Unmarshal(raw, &log) != nil {
		return nil
	}
	type stepMsg struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	var list []msg
	for t, entry := range log {
		var turn map[string]json.RawMessage
		if json.Unmarshal(entry, &turn) != nil {
			continue // the environment's state
		}
		var query []stepMsg
		_ = json.Unmarshal(turn["begin_of_turn_query"], &query)
		for _, q := range query {
			list = append(list, msg{Role: q.Role, Content: jsonText(q.Content)})
		}
		for k := 0; ; k++ {
			stepRaw, ok := turn["step_"+strconv.Itoa(k)]
			if !ok {
				break
			}
			var step []stepMsg
			_ = json.Unmarshal(stepRaw, &step)
			var ids []string
			answered := 0
			for _, m := range step {
				switch m.Role {
				case "assistant":
					var fns []map[string]json.RawMessage
					if json.Unmarshal(m.Content, &fns) != nil {
						list = append(list, msg{Role: "assistant", Content: jsonText(m.Content)})
						continue
					}
					a := msg{Role: "assistant"}
					for _, fn := range fns {
						// one function a dict; were there more, their order is lost with the
						// map: sorted, so that a file always reads the same
						for _, name := range slices.Sorted(maps.Keys(fn)) {
							id := "t" + strconv.Itoa(t) + "s" + strconv.Itoa(k) + "c" + strconv.Itoa(len(ids))
							ids = append(ids, id)
							a.ToolCalls = append(a.ToolCalls, oaToolCall{ID: id, Function: oaFunction{Name: name, Arguments: fn[name]}})
						}
					}
					list = append(list, a)
				case "tool":
					if answered < len(ids) {
						list = append(list, msg{Role: "tool", ToolCallID: ids[answered], Content: jsonText(m.Content)})
						answered++
					}
				}
			}
		}
	}
	return list
}

// toolBenchNode is a node of ToolBench's search tree (DFSDT): a "Thought" (the model's words),
// an "Action" (description: the tool's name) and its child "Action Input" (description: the
// arguments; observation: the answer; observation_code: 0 when the call went through).
type toolBenchNode struct {
	NodeType        string          `json:"node_type"`
	Description     string          `json:"description"`
	Observation     string          `json:"observation"`
	ObservationCode *int            `json:"observation_code"`
	Children        []toolBenchNode `json:"children"`
}

// searchTreeChat reads ToolBench's search tree ({"size", "max_length", "tree": root}) as the
// run it was: a depth-first search makes its calls in the tree's preorder, a branch given up
// ("Finish" with "give_up_and_restart") followed by the next one from where it forks. The
// first Action Input below an Action (Thoughts may stand between) is its call, failed when
// its code is not 0 (a timeout, an API's error); Thoughts are the model's words. Nil when the
// tree holds no call. (encoding/json refuses trees deeper than its limit, far past any run's.)
func searchTreeChat(raw []byte) []msg {
	var t struct {
		Tree *toolBenchNode `json:"tree"`
	}
	if json.Unmarshal(raw, &t) != nil || t.Tree == nil {
		return nil
	}
	return toolBenchChat([]toolBenchNode{*t.Tree})
}

// triesChat reads the tries of a ToolBench run that did not finish (StableToolBench's CoT
// answers: {"trys": [{"chain": [nodes]}]}, its answer's train_messages left empty): each try's
// chain is its steps in order, an "Action" node followed by its "Action Input" (validation
// round r67a U1). The tries are one run, one after the other.
func triesChat(raw []byte) []msg {
	var tries []struct {
		Chain []toolBenchNode `json:"chain"`
	}
	if json.Unmarshal(raw, &tries) != nil {
		return nil
	}
	var nodes []toolBenchNode
	for _, t := range tries {
		nodes = append(nodes, t.Chain...)
	}
	return toolBenchChat(nodes)
}

// toolBenchChat reads ToolBench nodes, each followed by its children (the branches of a
// search tree, each taking its parent's action); a node after another in the list takes the
// action the one before left pending, as in a try's chain. Nil when no call was made.
func toolBenchChat(nodes []toolBenchNode) []msg {
	var list []msg
	calls := 0
	// walk reads n and its children, and returns the action n leaves pending.
	var walk func(n *toolBenchNode, tool string) string
	walk = func(n *toolBenchNode, tool string) string {
		switch n.NodeType {
		case "Thought":
			if strings.TrimSpace(n.Description) != "" {
				list = append(list, msg{Role: "assistant", Content: n.Description})
			}
		case "Action":
			tool = n.Description
		case "Action Input":
			if tool != "" {
				calls++
				id := "n" + strconv.Itoa(calls)
				list = append(list, answeredCall("", id, tool, n.Description, n.Observation, n.ObservationCode != nil && *n.ObservationCode != 0 && tool != "Finish")...)
			}
			tool = ""
		}
		for i := range n.Children {
			walk(&n.Children[i], tool)
		}
		return tool
	}
	tool := ""
	for i := range nodes {
		tool = walk(&nodes[i], tool)
	}
	if calls == 0 {
		return nil
	}
	return list
}

// answerDetailsChat reads ToolEval's converted predictions (StableToolBench's
// model_predictions_converted, the layout its leaderboard is scored on): a run is a chain of
// {"role", "message", "next": [...]} nodes, a "tool" node's message the call ({"name",
// "arguments", "response"}), an "assistant" node's the model's words (validation round r67a
// U2). Nodes are read in preorder. Nil when no call was made.
func answerDetailsChat(raw []byte) []msg {
	var roots []answerDetail
	if json.Unmarshal(raw, &roots) != nil {
		return nil
	}
	var list []msg
	calls := 0
	var walk func(n *answerDetail)
	walk = func(n *answerDetail) {
		switch n.Role {
		case "tool":
			var call struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
				Response  string `json:"response"`
			}
			if json.Unmarshal(n.Message, &call) == nil && call.Name != "" {
				calls++
				list = append(list, answeredCall("", "d"+strconv.Itoa(calls), call.Name, call.Arguments, call.Response, false)...)
			}
		case "assistant", "user":
			if text := jsonText(n.Message); strings.TrimSpace(text) != "" {
				list = append(list, msg{Role: n.Role, Content: text})
			}
		}
		for i := range n.Next {
			walk(&n.Next[i])
		}
	}
	for i := range roots {
		walk(&roots[i])
	}
	if calls == 0 {
		return nil
	}
	return list
}

// answerDetail is a node of ToolEval's converted chain (answerDetailsChat).
type answerDetail struct {
	Role    string          `json:"role"`
	Message json.RawMessage `json:"message"`
	Next    []answerDetail  `json:"next"`
}

// answeredCall is a call kept as data in a run of another shape (parallel lists, a search
// tree) written as the chat messages the builders read: the model's words and the call,
// its arguments given as text, then the tool's answer to it.
func answeredCall(said, id, tool, args, answer string, failed bool) []msg {
	argJSON, _ := json.Marshal(args)
	return []msg{{Role: "assistant", Content: said, ToolCalls: []oaToolCall{{ID: id, Function: oaFunction{Name: tool, Arguments: argJSON}}}},
		{Role: "tool", ToolCallID: id, Content: answer, Failed: failed}}
}

// turnAction matches a ReAct action as InterCode's agents write it: a tool's name and what it
// is given in brackets, execute[ls -la].
var turnAction = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$`) })

// reactStep matches the line that opens a step of a ReAct run written as one text: "Thought:",
// "Action:" or "Observation:", numbered as ReAct's prompts number them ("Action 2:") or not.
var reactStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(Thought|Action|Observation)(?: (\d+))?:`) })

// reactTextChat reads a ReAct run kept as one text (the prompt, then "Thought: …", "Action:
// search[q]", "Observation: …" lines) as the chat it was: the prompt is the user's, each
// thought and action the model's message, each observation the harness's answer. When the
// steps are numbered, a step line opens a step only with the number due (an observation's
// own text may hold "Thought:" lines); an observation answers only a message with an action.
// A text with no action answered by an observation is not a run (nil).
func reactTextChat(text string) []msg {
	var list []msg
	var cur []string
	role := "user"
	answered, acted := false, false
	decided, numbered, step := false, false, 0 // the numbering, once the first step shows it; the step under way
	flush := func() {
		if t := strings.TrimSpace(strings.Join(cur, "\n")); t != "" {
			list = append(list, msg{Role: role, Content: t})
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		m := reactStep().FindStringSubmatch(line)
		if m != nil && !decided && m[1] != "Observation" {
			decided, numbered = true, m[2] != ""
		}
		if m != nil && numbered {
			n, _ := strconv.Atoi(m[2])
			// within step n: its action, or step n+1; after its observation: step n+1 only
			due := m[2] != "" && (m[1] == "Observation" && n == step || m[1] != "Observation" && (n == step && role == "assistant" || n == step+1))
			if !due {
				m = nil
			} else if m[1] != "Observation" {
				step = n
			}
		}
		switch {
		case m == nil:
		case m[1] == "Observation":
			if role != "assistant" || !acted {
				m = nil // an observation of nothing asked: text of the step before
				break
			}
			flush()
			answered, acted = true, false
			role = "user"
		default:
			if role != "assistant" {
				flush()
				role = "assistant"
			}
			acted = acted || m[1] == "Action"
		}
		if m != nil {
			line = m[1] + ":" + line[len(m[0]):] // the step's number is not part of the call
		}
		cur = append(cur, line)
	}
	flush()
	if !answered {
		return nil
	}
	return list
}

// listSampleSize is how many of a list's first elements decide what the list holds: chats
// and step lists are uniform, and a data file's long lists are not decoded whole to learn
// they are neither.
const listSampleSize = 16

// listSample returns the top-level keys of the first listSampleSize elements of a JSON array
// (nil for an element that is not an object), read without decoding their values.
func listSample(arr []byte) []map[string]string {
	var out []map[string]string
	i, more, err := jsonscan.Open(arr, 0)
	for err == nil && more && len(out) < listSampleSize {
		if i >= len(arr) {
			break
		}
		var keys map[string]string
		if arr[i] == '{' {
			keys = scanTopObject(arr[i:]).keys
		}
		out = append(out, keys)
		var end int
		if end, err = jsonscan.Skip(arr, i, jsonscan.AsWritten, jsonscan.MaxDepth); err != nil {
			break
		}
		i, more, err = jsonscan.Next(arr, end, ']')
	}
	return out
}

// isChatList says whether a list holds chat messages, from its sample (listSample).
func isChatList(sample []map[string]string) bool {
	chat := 0
	for _, keys := range sample {
		_, role := keys["role"]
		_, from := keys["from"] // ShareGPT's {"from", "value"}
		_, source := keys["source"]
		_, agentChat := autogenTypes[keys["type"]] // AutoGen AgentChat's {"source", "type"} (autogenMessages)
		if !role && !from && !(source && agentChat) {
			continue
		}
		if _, tool := keys["tool"]; tool && (keys["role"] == "tool_call" || keys["role"] == "tool_result") {
			chat++ // a call or its answer as a message of its own (toolRoleMessage)
			continue
		}
		for _, k := range []string{"content", "text", "tool_calls", "function_call", "parts", "value"} {
			if _, ok := keys[k]; ok {
				chat++
				break
			}
		}
	}
	return chat >= 2 && chat*2 >= len(sample)
}

// decodeChat reads a chat list as messages, mapping the variants above onto what
// addMessages reads.
func decodeChat(arr []byte) []msg {
	var raw []map[string]any
	if err := json.Unmarshal(arr, &raw); err != nil && !tolerable(err) {
		return nil
	}
	for _, m := range raw {
		if m == nil {
			continue
		}
		if _, ok := m["content"]; !ok {
			if t, ok := m["text"]; ok {
				m["content"] = t
			} else if t, ok := m["value"]; ok {
				m["content"] = t
			}
		}
		if _, ok := m["role"]; !ok {
			m["role"] = shareGPTRole(m["from"])
		}
		if m["from"] == "function_call" {
			shareGPTCalls(m)
		}
		toolRoleMessage(m)
		if e, ok := m["error"].(string); ok {
			m["error_text"] = e // (see msg.ErrText)
		}
		switch m["role"] {
		case "ai", "bot":
			m["role"] = "assistant"
		case "human":
			m["role"] = "user"
		}
	}
	raw = splitParallelObservations(raw)
	norm, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var list []msg
	if err := json.Unmarshal(norm, &list); err != nil && !tolerable(err) {
		return nil
	}
	// The failure flags msg.member reads, which encoding/json leaves alone (msg.Failed).
	if len(list) == len(raw) {
		for i, m := range raw {
			list[i].Failed = m["error"] == true || m["is_error"] == true
		}
	}
	return list
}

// toolRoleMessage turns a call or its answer that a harness logs as a message of its own, beside
// the model's reply, into an assistant's call or a tool's answer:
//
//	{"role": "assistant", "content": ["ToolUseBlock(id='toolu_01', input={...}, name='execute_sql', type='tool_use')"]}
//	{"role": "tool_call", "tool": "execute_sql", "input": {"query": "SELECT ..."}}
//	{"role": "tool_result", "tool": "execute_sql", "result": {"success": false, "error": "no such column", ...}}
//
// (Letta's leaderboard harness: 334 calls of three real traces read as none; validation round
// r118b U2). The answer's own success flag or error field fails it. The SDK's printed call
// objects in the reply are the call the next message gives, not the model's words, and are
// dropped from it.
func toolRoleMessage(m map[string]any) {
	tool, _ := m["tool"].(string)
	switch {
	case m["role"] == "tool_call" && tool != "":
		m["role"] = "assistant"
		m["tool_calls"] = []any{map[string]any{"function": map[string]any{"name": tool, "arguments": string(stepArgs(m["input"]))}}}
	case m["role"] == "tool_result" && tool != "":
		m["role"] = "tool"
		m["content"] = stepText(m["result"])
		if r, ok := m["result"].(map[string]any); ok {
			if e := r["error"]; r["success"] == false || e != nil && e != "" && e != false {
				m["is_error"] = true
			}
		}
	case m["role"] == "assistant":
		if parts, ok := m["content"].([]any); ok {
			kept := parts[:0]
			for _, p := range parts {
				if t, ok := p.(string); !ok || !strings.HasPrefix(t, "ToolUseBlock(") {
					kept = append(kept, p)
				}
			}
			m["content"] = kept
		}
	}
}

// shareGPTRole maps the speaker of a ShareGPT message ({"from", "value"}, the layout of most
// agent fine-tuning datasets) onto a chat role: "human" and "gpt" as the format has them,
// "observation" (LLaMA-Factory's tool output) as a tool's answer.
func shareGPTRole(from any) any {
	switch from {
	case "gpt", "assistant", "model", "function_call":
		return "assistant"
	case "human", "user":
		return "user"
	case "observation", "tool", "function", "ipython":
		return "tool"
	}
	return from
}

// shareGPTCalls turns a ShareGPT "function_call" turn (LLaMA-Factory's layout for tool use:
// its value the call as JSON, {"name", "arguments"}, or a list of them for parallel calls, and
// the "observation" turn after it their answer) into the model's structured calls. A value that
// is no such JSON stays the model's text.
func shareGPTCalls(m map[string]any) {
	text, _ := m["content"].(string)
	var calls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "{") {
		trimmed = "[" + trimmed + "]"
	}
	if json.Unmarshal([]byte(trimmed), &calls) != nil || len(calls) == 0 {
		return
	}
	var tcs []any
	for _, c := range calls {
		if c.Name == "" {
			return
		}
		tcs = append(tcs, map[string]any{"type": "function", "function": map[string]any{"name": c.Name, "arguments": string(rawArgs(c.Arguments))}})
	}
	m["tool_calls"], m["content"] = tcs, ""
}

// valueParts reads the content parts of a chat's messages written {"type", "value"}
// (LLaMA-Factory's newer layout): "text" parts are text, "reasoning" parts the model's
// thinking, and "tool_call" parts, their value the call as JSON {"name", "arguments"}, the
// message's calls. Messages of other layouts are left as they are.
func valueParts(list []msg) {
	for i := range list {
		m := &list[i]
		parts, ok := m.Content.([]any)
		if !ok || len(parts) == 0 || len(m.ToolCalls) > 0 {
			continue
		}
		var blocks []any
		var calls []oaToolCall
		ours := true
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			value, isText := pm["value"].(string)
			if pm == nil || !isText || pm["text"] != nil {
				ours = false
				break
			}
			switch pm["type"] {
			case "text":
				blocks = append(blocks, map[string]any{"type": "text", "text": value})
			case "reasoning":
				blocks = append(blocks, map[string]any{"type": "thinking", "thinking": value})
			case "tool_call":
				var c struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}
				if json.Unmarshal([]byte(value), &c) != nil || c.Name == "" {
					ours = false
					break
				}
				args, _ := json.Marshal(string(rawArgs(c.Arguments)))
				calls = append(calls, oaToolCall{ID: "p" + strconv.Itoa(i) + "c" + strconv.Itoa(len(calls)), Function: oaFunction{Name: c.Name, Arguments: args}})
			default:
				ours = false
			}
			if !ours {
				break
			}
		}
		if ours {
			m.Content, m.ToolCalls = blocks, calls
		}
	}
}

// splitParallelObservations gives each of a ShareGPT function_call turn's parallel calls its own
// answer where the observation after them is a JSON list of one answer a call, in order
// (ToolACE's layout); otherwise the observation stays one message, the first call's answer.
func splitParallelObservations(raw []map[string]any) []map[string]any {
	var out []map[string]any
	for i := 0; i < len(raw); i++ {
		out = append(out, raw[i])
		calls, _ := raw[i]["tool_calls"].([]any)
		if raw[i]["from"] != "function_call" || len(calls) < 2 || i+1 >= len(raw) || raw[i+1] == nil ||
			raw[i+1]["role"] != "tool" || raw[i+1]["tool_call_id"] != nil {
			continue // a native tool answer is the whole answer to the call it names
		}
		text, _ := raw[i+1]["content"].(string)
		var answers []json.RawMessage
		if json.Unmarshal([]byte(text), &answers) != nil || len(answers) != len(calls) {
			continue
		}
		for _, a := range answers {
			out = append(out, map[string]any{"role": "tool", "content": jsonText(a)})
		}
		i++
	}
	return out
}

// buildChats makes each chat a session of one agent.
func buildChats(chats [][]msg) *built {
	for _, c := range chats {
		valueParts(c) // before comparing histories: a history is compared by what it says
	}
	return buildRuns(dropRepeatedHistories(chats))
}

// buildRuns builds chats as they are, each a session: runs that a log names one by one, which
// are no histories repeated, however alike they start.
func buildRuns(chats [][]msg) *built {
	b := newBuilder(FormatMessages)
	for i, list := range chats {
		b.session = i
		addChat(b, list, false)
	}
	t := b.done()
	t.Sessions = max(len(chats), 1)
	return t
}

// hasStructuredCalls says whether a chat holds tool calls as data rather than as text.
func hasStructuredCalls(list []msg) bool {
	for i := range list {
		m := &list[i]
		if len(m.ToolCalls) > 0 || m.FunctionCall != nil {
			return true
		}
		if blocks, ok := m.Content.([]any); ok && (hasBlock(blocks, "tool_use") || hasBlock(blocks, "tool_result")) {
			return true
		}
	}
	return false
}

// addWrittenCalls reads a chat whose model writes its calls in its text and whose next
// message answers them: Hermes-style <tool_call>{"name", "arguments"}</tool_call> blocks
// (the answer holding a <tool_response> block for each), as models trained for function
// calling write them into the text of SFT traces, or else one fenced command block, as
// SWE-agent's protocol has it. It reads nothing and returns false unless a call so written
// is answered, and for code blocks, unless two are. With explicitOnly, a chat whose only
// written calls are code blocks is not read for them (a plain chat log shows code without
// running it), unless the harness answers them with their exit status.
func addWrittenCalls(b *builder, list []msg, explicitOnly bool) bool {
	list = withoutEchoedAnswers(list)
	// A call in a tool-call syntax says what it is; a code block says so only when the
	// harness answers it turn after turn.
	answered, explicit, syntax := 0, false, false // syntax: some call is written in a tool-call syntax
	written := make([][]textCall, len(list))      // each assistant message's calls, read once
	for i := range list {
		if list[i].Role != "assistant" {
			continue
		}
		calls := writtenCalls(contentText(list[i].Content))
		if len(calls) > 0 && calls[0].react && !(i+1 < len(list) && (observes(&list[i+1]) || calls[0].tagged && isAnswer(&list[i+1])) || promptedFirst(list, i)) {
			continue // an "Action:" no "Observation" answers is prose (one in a tool's syntax, answered at all, is not)
		}
		written[i] = calls
		if len(calls) > 0 && !calls[0].fenced {
			explicit, syntax = true, true
		}
		if len(calls) > 0 && i+1 < len(list) && isAnswer(&list[i+1]) {
			answered++
			if strings.HasPrefix(strings.TrimSpace(contentText(list[i+1].Content)), "<returncode>") {
				// mini-swe-agent's harness answers a command block with its exit status:
				// the block was run, as a tool-call syntax says it was.
				explicit = true
			}
		}
	}
	if answered < 2 && !(explicit && answered > 0) || explicitOnly && !explicit {
		return false
	}
	if syntax {
		// A model that writes its calls in a tool-call syntax shows code in a fenced block
		// without running it: a final answer's example, a snippet of what it wrote
		// (validation round r162a U2: six OpenClaw runs' last answers, a `git clone` offered
		// to the user among them, read as unanswered shell commands).
		for i, calls := range written {
			if len(calls) > 0 && calls[0].fenced {
				written[i] = nil
			}
		}
	}
	a := b.agent(MainAgent)
	for i := 0; i < len(list); i++ {
		m := &list[i]
		text := contentText(m.Content)
		switch m.Role {
		case "system":
			a.text("system", text, "", 0)
		case "user":
			a.taskOrHarness(text)
		case "assistant":
			calls := written[i]
			if len(calls) == 0 {
				a.text("model", text, "", 0)
				continue
			}
			said := text
			for _, c := range calls {
				if c.block != "" {
					said = strings.Replace(said, c.block, "", 1)
				}
			}
			a.text("model", strings.TrimSpace(said), "", 0)
			var results []string
			prompt := -1 // the harness's own prompt before the observation (see promptedFirst)
			if calls[0].react && promptedFirst(list, i) {
				i++
				prompt = i
			}
			if i+1 < len(list) && isAnswer(&list[i+1]) {
				i++
				answer := contentText(list[i].Content)
				if strings.HasPrefix(answer, "EXECUTION RESULT of [") {
					// OpenHands' header of an answer to a call written in its text (textCalls)
					_, answer, _ = strings.Cut(answer, "\n")
				}
				if calls[0].react {
					answer = reactAnswer(answer)
				}
				if results = tagged(answer, "<tool_response>", "</tool_response>"); len(results) != len(calls) {
					results = []string{answer} // one answer: the first call's
					// Several calls answered by as many messages in a row, one each, in
					// order (Harbor's episode exports of OpenClaw runs: validation round
					// r162a U1, where every call of a reply but its first had no answer).
					for !calls[0].react && len(results) < len(calls) && i+1 < len(list) && list[i+1].Role == list[i].Role &&
						len(tagged(contentText(list[i+1].Content), "<tool_response>", "</tool_response>")) == 0 {
						i++
						results = append(results, contentText(list[i].Content))
					}
				}
			}
			for k, c := range calls {
				call := loopguard.Call("", c.name, c.args)
				if k < len(results) && !omittedAnswer(results[k]) {
					r := toolResponseContent(strings.TrimSpace(results[k]))
					call = call.WithResult(r, miniFailed(r) || webVoyagerRefusal(r))
				}
				a.add(call)
			}
			if prompt >= 0 {
				a.harnessUser(contentText(list[prompt].Content)) // written after the action ran
			}
		default:
			a.text(m.Role, text, "", 0)
		}
	}
	return true
}

// omittedAnswer says whether an answer is a harness's stand-in for one it left out of the
// model's context to save room: WebVoyager keeps the last three observations and writes every
// earlier one as "Observation: A screenshot and some texts. (Omitted in context.)". The
// stand-in is the same whatever the page showed: read as the answer, three scrolls through
// new products were one call answered alike three times (validation round r70a U4, F1-F3).
// Such a call's answer is unknown.
func omittedAnswer(answer string) bool {
	return strings.Contains(answer, "(Omitted in context.)")
}

// toolResponseContent returns what a <tool_response> block says the tool answered: Hermes-style
// harnesses wrap the answer as {"name", "content"} (with a "tool_call_id" in some), and the
// answer is the content, a string or a JSON value (where a failure's own fields say it failed:
// {"error_type": "tool:execution_failed", ...}). An object with any other key (a GitHub
// contents answer has "name" and "content" among others) is the answer as written.
func toolResponseContent(body string) string {
	if !strings.HasPrefix(body, "{") {
		return body
	}
	var r map[string]json.RawMessage
	if json.Unmarshal([]byte(body), &r) != nil || r["content"] == nil {
		return body
	}
	for k := range r {
		if k != "name" && k != "content" && k != "tool_call_id" {
			return body
		}
	}
	if _, named := r["name"]; !named {
		if _, id := r["tool_call_id"]; !id {
			return body
		}
	}
	return jsonText(r["content"])
}

// observes says whether m answers a ReAct action: a harness's message opening "Observation",
// or holding one after the harness's own advice (WebVoyager's forks write "Please do not
// repeat the same action if the webpage remains unchanged ... Observation: ..."), or
// WebVoyager's answer that it could not run the action.
func observes(m *msg) bool {
	if !isAnswer(m) {
		return false
	}
	t := strings.TrimSpace(contentText(m.Content))
	return strings.HasPrefix(t, "Observation") || strings.Contains(t, "Observation:") || webVoyagerRefusal(t) ||
		strings.HasPrefix(t, "API output:") // tau-bench's ReAct and Act agents
}

// promptedFirst says whether the ReAct action of list[i] is answered by an observation that
// comes after a user message of the harness's own, not before it: a WebVoyager fork asks the
// model to reflect on its strategy in a message of its own after every step, then gives the
// observation (validation round r70a U1: 37 actions of 17 runs unread).
func promptedFirst(list []msg, i int) bool {
	return i+2 < len(list) && list[i+1].Role == "user" && !observes(&list[i+1]) && observes(&list[i+2])
}

// webVoyagerRefusal says whether an answer is WebVoyager's word that it could not run the
// action the model chose (its own spelling: "cannot be exected").
func webVoyagerRefusal(answer string) bool {
	return strings.HasPrefix(answer, "The action you have chosen cannot be exe")
}

// reactAnswer is the observation a ReAct harness's answer holds: the text from its last
// "Observation:" on, where the harness put its own advice first (validation round r70a U1);
// tau-bench's without its "API output:" label.
func reactAnswer(answer string) string {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(answer), "API output:"); ok {
		return strings.TrimSpace(rest) // tau-bench's label over what the tool returned
	}
	if strings.HasPrefix(strings.TrimSpace(answer), "Observation") {
		return answer
	}
	if k := strings.LastIndex(answer, "Observation:"); k > 0 {
		return answer[k:]
	}
	return answer
}

// reactCall reads the last "Action:" of a ReAct agent's text (ETO's and AgentBench's WebShop and
// ALFWorld runs, LangChain's agents): "Action: search[query]" (the tool and its argument),
// "Action: tool" then "Action Input: input" (LangChain's text agents), "Action:" then a JSON
// blob {"action", "action_input"} (LangChain's chat agents), or an action in words ("go to
// cabinet 1", named by its first word as SWE-agent's commands are).
func reactCall(text string) (textCall, bool) {
	i := strings.LastIndex(text, "Action:")
	upper := strings.LastIndex(text, "ACTION:")
	if upper > i {
		i = upper // AgentBench's ALFWorld and OS tasks write THOUGHT: and ACTION:
	}
	// The label in Markdown bold ("**Action:** Click [22]", as some models write it, and
	// WebVoyager's parser takes) is the label.
	bold := i >= 2 && text[i-2:i] == "**" && (i == 2 || text[i-3] == '\n') && strings.HasPrefix(text[i+len("Action:"):], "**")
	if i < 0 || !atLineStart(text, i) && !bold {
		return textCall{}, false
	}
	block, rest := text[i:], text[i+len("Action:"):]
	if bold {
		block, rest = text[i-2:], rest[len("**"):]
	}
	rest = strings.TrimSpace(rest)
	line, after, _ := strings.Cut(rest, "\n")
	line = strings.TrimSpace(line)
	c := textCall{block: block, react: true, tagged: i == upper}
	switch {
	case line == "" || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "{"):
		// A JSON blob: LangChain's {"action", "action_input"}, or tau-bench's ReAct and Act
		// agents' {"name", "arguments"}, answered "API output: ..." (observes); their
		// "respond" action speaks to the user, whose reply is no observation.
		var blob struct {
			Action      string          `json:"action"`
			ActionInput json.RawMessage `json:"action_input"`
			Name        string          `json:"name"`
			Arguments   json.RawMessage `json:"arguments"`
		}
		body := strings.TrimSpace(strings.Trim(strings.TrimSpace(rest), "`"))
		body = strings.TrimSpace(strings.TrimPrefix(body, "json"))
		if json.Unmarshal([]byte(body), &blob) != nil || blob.Action == "" && blob.Name == "" {
			return textCall{}, false
		}
		if blob.Action != "" {
			c.name, c.args, c.tagged = blob.Action, rawArgs(blob.ActionInput), true
		} else {
			c.name, c.args = blob.Name, rawArgs(blob.Arguments)
		}
	case strings.HasPrefix(strings.TrimSpace(after), "Action Input:"):
		input, _, _ := strings.Cut(strings.TrimSpace(after)[len("Action Input:"):], "\nObservation")
		c.name, c.args = line, []byte(strings.TrimSpace(input))
	case strings.HasSuffix(line, "]") && strings.IndexByte(line, '[') > 0:
		open := strings.IndexByte(line, '[')
		c.name, c.args = strings.TrimSpace(line[:open]), []byte(line[open+1:len(line)-1])
		c.tagged = reactToolName().MatchString(c.name)
	case reactFunctionCall().MatchString(line):
		// get_relations(Gas-generator cycle): a function's name, its arguments in parentheses
		open := strings.IndexByte(line, '(')
		c.name, c.args, c.tagged = line[:open], []byte(strings.TrimSpace(line[open+1:len(line)-1])), true
	default:
		name, args, _ := strings.Cut(line, " ")
		c.name, c.args = name, []byte(strings.TrimSpace(args))
	}
	if c.name == "" {
		return textCall{}, false
	}
	return c, true
}

// codeTagCall reads a block of code a model wrote between <code> and </code> tags, each at a
// line's start, as smolagents' CodeAgent and ARIA's planner write the code their harness runs:
// a call to "code", its argument the code. It is a ReAct action (react): a call only when the
// harness answers it with an observation, as those do ("Observation:" and what the code
// printed), since prose and HTML hold <code> too. An "Action:" line in the same text names the
// step in words ("Action: Write a Python script to execute query ..."): the code is what ran,
// and reading that line as a call to "Write" made up a call (validation round r168b U1).
func codeTagCall(text string) (textCall, bool) {
	i := strings.Index(text, "<code>")
	for i >= 0 && !atLineStart(text, i) {
		next := strings.Index(text[i+1:], "<code>")
		if next < 0 {
			return textCall{}, false
		}
		i += 1 + next
	}
	if i < 0 {
		return textCall{}, false
	}
	body, _, ok := strings.Cut(text[i+len("<code>"):], "</code>")
	code := strings.TrimSpace(body)
	if !ok || code == "" {
		return textCall{}, false
	}
	return textCall{block: text[i : i+len("<code>")+len(body)+len("</code>")], name: "code", args: marshalArgs(map[string]string{"code": code}), react: true}, true
}

// atLineStart says whether text[i] opens a line, spaces and tabs before it aside: AgentTuning's
// ALFWorld rows write "THOUGHT: ...\n ACTION: go to countertop 1", and 9 of 79 calls of five
// real runs, the first move of four of them, were not read (validation round r122a U1).
func atLineStart(text string, i int) bool {
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	return i == 0 || text[i-1] == '\n'
}

// reactFunctionCall matches an action written as a function call: a name, then its arguments
// in parentheses to the end of the line.
var reactFunctionCall = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*\(.*\)$`) })

// reactToolName matches a tool's name as ReAct agents write it before their brackets: one word
// (search, click, Finish), not a phrase ("review [the diff]").
var reactToolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`) })

// isAnswer says whether a message can answer the model's calls: the harness speaks as the
// user or as a tool.
func isAnswer(m *msg) bool { return m.Role == "user" || m.Role == "tool" }

// textCall is a call written in a model's text.
type textCall struct {
	block  string // the text that holds it
	name   string
	args   []byte
	fenced bool // a code block taken for a shell command, not a call in a tool-call syntax
	// react: a ReAct "Action:" line, a call only when the answer opens with "Observation"
	// (prose may say "Action:" too; a ReAct harness always answers so), or, tagged, when it
	// is written in a tool's syntax (search[q], get(x), a JSON blob, AgentBench's upper-case
	// ACTION:) and answered at all (AgentBench's environments answer without the word)
	react  bool
	tagged bool
}

// withoutEchoedAnswers leaves out of a chat the assistant messages that are copies of the user
// message right after them and hold no written call: an export that writes each tool's answer
// twice, once as the model's message and once as the message that carries it to the model
// (Harbor's episode exports of OpenClaw runs: `<tool_call>` blocks, then the command's output
// as an assistant message and again as a user message; validation round r161b U1: 2,530 such
// files read with no call), writes one answer. The list is copied only when it changes.
func withoutEchoedAnswers(list []msg) []msg {
	echo := func(i int) bool {
		if list[i].Role != "assistant" || i+1 >= len(list) || list[i+1].Role != "user" {
			return false
		}
		text := contentText(list[i].Content)
		return strings.TrimSpace(text) != "" && text == contentText(list[i+1].Content) && len(writtenCalls(text)) == 0
	}
	var out []msg
	for i := range list {
		if echo(i) {
			if out == nil {
				out = append(make([]msg, 0, len(list)), list[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, list[i])
		}
	}
	if out == nil {
		return list
	}
	return out
}

// writtenCalls finds the calls a model wrote in its text: its <tool_call> blocks, or else
// OpenHands' <function=...> blocks, or else Terminus's answer, or else its last fenced block
// as a shell command.
func writtenCalls(text string) []textCall {
	var calls []textCall
	// ARIA's planner (TheAgentCompany) writes a stored script's run as <run_script> with the
	// same JSON body: its harness lists "<tool_call>, <code>, or <run_script>" as the actions
	// it takes (validation round r168b U2).
	for _, tag := range [...]string{"tool_call", "run_script"} {
		open, close := "<"+tag+">", "</"+tag+">"
		for _, body := range tagged(text, open, close) {
			var c struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if json.Unmarshal([]byte(strings.TrimSpace(body)), &c) != nil || c.Name == "" {
				if name, args, ok := taggedCallBody(body); ok {
					calls = append(calls, textCall{block: open + body + close, name: name, args: args})
				}
				continue
			}
			calls = append(calls, textCall{block: open + body + close, name: c.Name, args: rawArgs(c.Arguments)})
		}
	}
	if len(calls) > 0 {
		return calls
	}
	for _, body := range tagged(text, "<invoke name=\"", "</invoke>") {
		// Anthropic's <function_calls> of the models before tool use, and MiniMax-M2's
		// <minimax:tool_call>: <invoke name="X"><parameter name="k">v</parameter></invoke>
		name, params, ok := strings.Cut(body, "\">")
		if !ok || name == "" || strings.ContainsAny(name, "<>\"\n") {
			continue
		}
		args := map[string]string{}
		for _, p := range tagged(params, "<parameter name=\"", "</parameter>") {
			if k, v, ok := strings.Cut(p, "\">"); ok && k != "" {
				args[k] = strings.TrimSpace(v)
			}
		}
		calls = append(calls, textCall{block: "<invoke name=\"" + body + "</invoke>", name: name, args: marshalArgs(args)})
	}
	if len(calls) > 0 {
		return calls
	}
	if i := strings.Index(text, "<function="); i >= 0 {
		// OpenHands' calls for models without function calling (see textCalls)
		for _, tc := range textCalls(msg{Content: text}).ToolCalls {
			calls = append(calls, textCall{name: tc.Function.Name, args: rawArgs(tc.Function.Arguments)})
		}
		if len(calls) > 0 {
			calls[0].block = text[i:]
			return calls
		}
	}
	if calls := executeCalls(text); len(calls) > 0 {
		return calls
	}
	if c, ok := terminusCall(text); ok {
		return []textCall{c}
	}
	if c, ok := codeTagCall(text); ok {
		return []textCall{c}
	}
	if c, ok := reactCall(text); ok {
		return []textCall{c}
	}
	if f, ok := fencedCommand(text); ok {
		return []textCall{{block: f.block, name: "bash", args: []byte(f.command), fenced: true}}
	}
	return nil
}

// taggedCallBody reads a <tool_call> block written in a dialect other than Hermes' JSON:
//   - the name and the arguments in tags of their own, the arguments as JSON or as one tag each
//     ("<name>run_cmd</name><arguments>{"command": "ls"}</arguments>", or
//     "<arguments><command>ls</command></arguments>");
//   - GLM-4.5's: the name, then each argument as a key and a value
//     ("run_cmd\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>").
//
// Qwen3-Coder's <function=...> inside the block is read by textCalls.
func taggedCallBody(body string) (name string, args []byte, ok bool) {
	if n := tagged(body, "<name>", "</name>"); len(n) > 0 {
		name = strings.TrimSpace(n[0])
		a := tagged(body, "<arguments>", "</arguments>")
		if name == "" || strings.ContainsAny(name, "<>\n") {
			return "", nil, false
		}
		if len(a) == 0 {
			return name, []byte("{}"), true
		}
		inner := strings.TrimSpace(a[0])
		if json.Valid([]byte(inner)) {
			return name, rawArgs(json.RawMessage(inner)), true
		}
		fields := map[string]string{}
		for rest := inner; ; {
			open := strings.IndexByte(rest, '<')
			if open < 0 {
				break
			}
			end := strings.IndexByte(rest[open:], '>')
			if end < 0 {
				break
			}
			key := rest[open+1 : open+end]
			closing := "</" + key + ">"
			v, after, found := strings.Cut(rest[open+end+1:], closing)
			if key == "" || strings.ContainsAny(key, " /\"") || !found {
				break
			}
			fields[key] = strings.TrimSpace(v)
			rest = after
		}
		return name, marshalArgs(fields), true
	}
	if !strings.Contains(body, "<arg_key>") {
		return "", nil, false
	}
	head, _, _ := strings.Cut(body, "<arg_key>")
	name = strings.TrimSpace(head)
	if name == "" || strings.ContainsAny(name, "<>\n") {
		return "", nil, false
	}
	fields := map[string]string{}
	keys := tagged(body, "<arg_key>", "</arg_key>")
	values := tagged(body, "<arg_value>", "</arg_value>")
	for i := range min(len(keys), len(values)) {
		fields[strings.TrimSpace(keys[i])] = strings.TrimSpace(values[i])
	}
	return name, marshalArgs(fields), true
}

// executeTags are CodeAct's ways of running code: <execute> in CodeActInstruct (Python, run
// in IPython), <execute_bash>, <execute_ipython> and <execute_browse> in OpenHands' CodeAct
// agent before function calling. The tag names the tool.
var executeTags = [...]string{"execute", "execute_bash", "execute_ipython", "execute_browse"}

// executeCalls finds the code a model wrote in CodeAct's execute tags, in the order they come in
// the text.
func executeCalls(text string) []textCall {
	if !strings.Contains(text, "<execute") {
		return nil
	}
	type placed struct {
		at   int
		call textCall
	}
	var found []placed
	for _, tag := range executeTags {
		open, close := "<"+tag+">", "</"+tag+">"
		from := 0
		for _, body := range tagged(text, open, close) {
			block := open + body + close
			at := strings.Index(text[from:], block) + from
			from = at + len(block)
			found = append(found, placed{at, textCall{block: block, name: tag, args: []byte(strings.TrimSpace(body))}})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].at < found[j].at })
	calls := make([]textCall, len(found))
	for i, f := range found {
		calls[i] = f.call
	}
	return calls
}

// tagged returns what each open ... close pair in text holds, in order.
func tagged(text, open, close string) []string {
	var out []string
	for {
		i := strings.Index(text, open)
		if i < 0 {
			return out
		}
		text = text[i+len(open):]
		j := strings.Index(text, close)
		if j < 0 {
			return out
		}
		out = append(out, text[:j])
		text = text[j+len(close):]
	}
}

type fenced struct {
	block   string // the whole block, fences included
	command string // what it holds
}

// dataFence are the info strings of fenced blocks that hold data, not a command.
var dataFence = map[string]bool{"json": true, "jsonc": true, "json5": true, "yaml": true, "yml": true, "toml": true,
	"xml": true, "html": true, "csv": true, "markdown": true, "md": true}

// fencedCommand finds the last fenced block of a model's turn (the action follows the
// discussion) and what it holds; a block with no command in it is none.
func fencedCommand(text string) (fenced, bool) {
	end := strings.LastIndex(text, "```")
	if end < 0 {
		return fenced{}, false
	}
	start := strings.LastIndex(text[:end], "```")
	if start < 0 {
		return fenced{}, false
	}
	body := text[start+3 : end]
	if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(strings.TrimSpace(body[:nl]), " \t") {
		if dataFence[strings.ToLower(strings.TrimSpace(body[:nl]))] {
			// A block of data (```json, a final answer's object) is no command: a model
			// answering a verification prompt with its JSON answer each turn was read as
			// running it (validation round r164b U2).
			return fenced{}, false
		}
		body = body[nl+1:] // the info string: ```bash
	}
	body = strings.TrimSpace(body)
	if body == "" || (body[0] == '{' || body[0] == '[') && json.Valid([]byte(body)) {
		return fenced{}, false // nothing, or a JSON value in an untagged block: data
	}
	return fenced{block: text[start : end+3], command: body}, true
}

// dropRepeatedHistories keeps, of chats that one later chat starts with, only the later one:
// a log of model requests holds each conversation once per request, its history repeated.
func dropRepeatedHistories(chats [][]msg) [][]msg {
	keys := make([][]uint64, len(chats))
	for i, c := range chats {
		keys[i] = make([]uint64, len(c))
		for j := range c {
			keys[i][j] = messageKey(&c[j])
		}
	}
	out := chats[:0:0]
	for i := range chats {
		if len(chats[i]) == 0 {
			out = append(out, chats[i]) // an empty run keeps its place (see chatsIn)
			continue
		}
		repeated := false
		for j := i + 1; j < len(chats) && !repeated; j++ {
			repeated = len(keys[i]) <= len(keys[j]) && slices.Equal(keys[i], keys[j][:len(keys[i])])
		}
		if !repeated {
			out = append(out, chats[i])
		}
	}
	return out
}

// messageKey hashes what a message says: its role, text and calls.
func messageKey(m *msg) uint64 {
	h := fnv.New64a()
	h.Write([]byte(m.Role))
	h.Write([]byte{0})
	h.Write([]byte(contentText(m.Content)))
	h.Write([]byte{0})
	h.Write([]byte(m.ToolCallID))
	for _, tc := range m.ToolCalls {
		h.Write([]byte{0})
		h.Write([]byte(tc.ID + "\x00" + tc.Function.Name + tc.Name))
		h.Write(tc.Function.Arguments)
		h.Write(tc.Arguments)
	}
	return h.Sum64()
}

// terminusCall reads the answer of Terminus, terminal-bench's agent: a JSON object
// ({"analysis", "plan", "commands": [{"keystrokes", "duration"}], "task_complete"}), perhaps
// with text around it, or the same as XML (<response><commands><keystrokes duration="0.1">
// ...</keystrokes></commands>...). The turn's commands are typed one after another and the
// screen that follows is their one result, so the turn is one call, bash_command, whose
// arguments are the list of commands (as Harbor's ATIF trajectories give it, see atif.go);
// a turn that only says the task is complete is mark_task_complete. The block taken is the
// whole answer: analysis and plan are left for the model's words.
func terminusCall(text string) (textCall, bool) {
	if i := strings.Index(text, "<commands>"); i >= 0 && strings.Contains(text, "<keystrokes") {
		var cmds []map[string]any
		for _, k := range tagged(text[i:], "<keystrokes", "</keystrokes>") {
			gt := strings.IndexByte(k, '>')
			if gt < 0 {
				continue
			}
			cmds = append(cmds, map[string]any{"keystrokes": k[gt+1:]})
		}
		if len(cmds) > 0 {
			return textCall{name: "bash_command", args: marshalArgs(cmds)}, true
		}
	}
	for from := 0; ; {
		i := strings.IndexByte(text[from:], '{')
		if i < 0 {
			return textCall{}, false
		}
		from += i
		var answer struct {
			Commands     json.RawMessage `json:"commands"`
			TaskComplete *bool           `json:"task_complete"`
		}
		dec := json.NewDecoder(strings.NewReader(text[from:]))
		if dec.Decode(&answer) == nil && (answer.Commands != nil || answer.TaskComplete != nil) {
			var cmds []json.RawMessage
			json.Unmarshal(answer.Commands, &cmds)
			if len(cmds) > 0 {
				return textCall{name: "bash_command", args: rawArgs(answer.Commands)}, true
			}
			if answer.TaskComplete != nil && *answer.TaskComplete {
				return textCall{name: "mark_task_complete", args: []byte("{}")}, true
			}
			return textCall{}, false
		}
		from++
	}
}

// A run may also be logged as a list of steps rather than a chat: each step an action and
// what it gave back, as ReAct-style agents, smolagents (its steps' tool_calls and
// observations) and LangChain's intermediate steps ({"tool", "tool_input", "log"} and the
// observation) log them. A list is one when at least two of its elements, and at least half,
// pair a call (tool_calls, tool, tool_name or action) with an outcome (observation(s),
// output, result, tool_output, a shell's stdout (with its stderr after it), or an error); a
// step flagged "is_error": true, or whose exit code is not 0, failed. Each step is read into the message list addMessages reads:
// the step's thought, its calls, then their results.

var (
	stepCallKeys    = []string{"tool_calls", "tool", "tool_name", "action", "action_taken"}
	stepOutcomeKeys = []string{"observation", "observations", "output", "result", "action_output", "tool_output", "error", "tool_results", "next_observation", "stdout"}
)

// isStepList says whether a list holds steps, from its sample (listSample).
func isStepList(sample []map[string]string) bool {
	steps := 0
	for _, keys := range sample {
		if _, role := keys["role"]; role {
			continue
		}
		if hasAnyKey(keys, stepCallKeys) && hasAnyKey(keys, stepOutcomeKeys) {
			steps++
		}
	}
	return steps >= 2 && steps*2 >= len(sample)
}

func hasAnyKey(keys map[string]string, names []string) bool {
	for _, k := range names {
		if _, ok := keys[k]; ok {
			return true
		}
	}
	return false
}

// decodeSteps turns a step list into messages: the step's thought as the assistant's words
// with its calls, then one tool message per call (the step's outcome goes to its first call;
// an error fails it).
func decodeSteps(arr []byte) []msg {
	var raw []map[string]any
	if err := json.Unmarshal(arr, &raw); err != nil && !tolerable(err) {
		return nil
	}
	var list []msg
	for k, st := range raw {
		if st == nil {
			continue
		}
		var calls []oaToolCall
		switch tc := st["tool_calls"].(type) {
		case []any:
			for _, c := range tc {
				cm, _ := c.(map[string]any)
				if cm == nil {
					continue
				}
				name, _ := cm["name"].(string)
				args := cm["arguments"]
				if fn, ok := cm["function"].(map[string]any); ok {
					name, _ = fn["name"].(string)
					args = fn["arguments"]
				}
				// A call sent with no name is a call all the same when the step answers it
				// (Trae's "Tool 'undefined' not found"): it failed.
				if id, _ := cm["id"].(string); name != "" || id != "" {
					calls = append(calls, oaToolCall{ID: id, Name: name, Arguments: stepArgs(args)})
				}
			}
		}
		if len(calls) == 0 {
			name, args := stepCall(st)
			if name != "" {
				calls = append(calls, oaToolCall{Name: name, Arguments: args})
			}
		}
		if len(calls) == 0 {
			continue
		}
		// A step's tool_results answer its calls by id, each with its own success (the
		// TypeScript port of Trae Agent: {"success", "result", "error", "tool_call_id"}; its
		// steps' messages are the history before the step, which lacks a run's last call:
		// validation round r99a U1).
		answers := stepToolResults(st["tool_results"])
		own := make([]string, len(calls)) // each call's id in the step's tool_results
		for i := range calls {
			own[i] = calls[i].ID
			calls[i].ID = fmt.Sprintf("step%d.%d", k, i)
		}
		thought := ""
		for _, key := range []string{"thought", "model_output", "llm_output", "log", "reasoning", "llm_response_content", "model_response"} {
			if t, ok := st[key].(string); ok && t != "" {
				thought = t
				break
			}
		}
		list = append(list, msg{Role: "assistant", Content: thought, ToolCalls: calls})
		outcome, kept := "", false // what the step's action brought, and whether the log keeps it
		// (A step that keeps the observation it was chosen in beside the one its action
		// brought, "next_observation", is answered by the latter.)
		for _, key := range []string{"next_observation", "observation", "observations", "output", "result", "action_output", "tool_output", "stdout"} {
			if v, ok := st[key]; ok && v != nil {
				outcome, kept = stepText(v), true
				if stderr, _ := st["stderr"].(string); key == "stdout" && stderr != "" {
					outcome += "\n" + stderr // a shell step's two streams, as a terminal shows them
				}
				break
			}
		}
		status := ""
		if e, ok := st["error"]; ok && e != nil && e != false && e != "" {
			status, kept = "error", true
			if outcome == "" {
				outcome = stepText(e)
			}
		}
		// A step's own flag of failure, as tool results carry it. (Not a step's "success":
		// a run's steps may carry whether the task succeeded so far.)
		if failed, _ := st["is_error"].(bool); failed {
			status = "error"
		}
		if late, _ := st["timed_out"].(bool); late {
			status = "error" // stopped for running out of time
		}
		for _, key := range [...]string{"exit_code", "exitCode", "returncode", "return_code"} {
			if code, ok := st[key].(float64); ok {
				if code != 0 {
					status = "error" // a shell step's command exited with a failure
				}
				break
			}
		}
		// A call the step keeps no answer for has an unknown result, not an empty one: a log
		// of calls that keeps only whether each failed ({"tool_name", "arguments", "error":
		// null, "result_size_chars"}) would make every two calls alike answered alike.
		for i, c := range calls {
			m := msg{Role: "tool", ToolCallID: c.ID}
			switch a, ok := answers[own[i]]; {
			case ok && own[i] != "":
				m.Content, m.Status = a.text, a.status
			case i == 0 && answers == nil && kept:
				m.Content, m.Status = outcome, status
			default:
				continue
			}
			list = append(list, m)
		}
	}
	return list
}

// CAMEL's role-playing sessions, as OWL's examples save them (chat_history.json), keep a run as
// a list of rounds: the user agent's instruction, the assistant's reply, and the calls the
// assistant made to write it, each with its result:
//
//	[{"user": "Instruction: ...", "assistant": "Solution: ...",
//	  "tool_calls": [{"tool_name": "search_baidu", "args": "{'query': ...}", "result": "...", "tool_call_id": "call_0_..."}]}]
//
// A list is one when at least two of its elements, and at least half, hold a user's and an
// assistant's words, and one of them calls. Searched as any list is, a round's own calls were
// read as the whole run: the first round's two calls of one file, none of another whose
// rounds each made one (validation round r118b U1).

// isRoundList says whether a list holds such rounds, from its sample (listSample).
func isRoundList(sample []map[string]string) bool {
	rounds, calls := 0, false
	for _, keys := range sample {
		_, user := keys["user"]
		_, assistant := keys["assistant"]
		if _, role := keys["role"]; user && assistant && !role {
			rounds++
			_, tc := keys["tool_calls"]
			calls = calls || tc
		}
	}
	return calls && rounds >= 2 && rounds*2 >= len(sample)
}

// decodeRounds turns a round list into messages: the instruction, the assistant's calls and
// their results (made before it wrote its reply), then the reply.
func decodeRounds(arr []byte) []msg {
	var raw []map[string]any
	if err := json.Unmarshal(arr, &raw); err != nil && !tolerable(err) {
		return nil
	}
	var list []msg
	for k, r := range raw {
		if r == nil {
			continue
		}
		if u := stepText(r["user"]); u != "" && r["user"] != nil {
			list = append(list, msg{Role: "user", Content: u})
		}
		tc, _ := r["tool_calls"].([]any)
		var calls []oaToolCall
		var results []msg
		for i, c := range tc {
			cm, _ := c.(map[string]any)
			name, args := stepCall(cm)
			if name == "" {
				name, _ = cm["name"].(string)
				args = stepArgs(cm["arguments"])
			}
			if name == "" {
				continue
			}
			id := fmt.Sprintf("round%d.%d", k, i)
			calls = append(calls, oaToolCall{ID: id, Name: name, Arguments: args})
			if v, ok := cm["result"]; ok && v != nil {
				results = append(results, msg{Role: "tool", ToolCallID: id, Content: stepText(v)})
			}
		}
		if len(calls) > 0 {
			list = append(list, msg{Role: "assistant", ToolCalls: calls})
			list = append(list, results...)
		}
		if a := r["assistant"]; a != nil {
			list = append(list, msg{Role: "assistant", Content: stepText(a)})
		}
	}
	return list
}

// stepAnswer is one of a step's tool_results: what it says, and "error" when it failed.
type stepAnswer struct{ text, status string }

// stepToolResults reads a step's tool_results, [{"tool_call_id", "success", "result",
// "error"}], by call id; nil when the step has none.
func stepToolResults(v any) map[string]stepAnswer {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make(map[string]stepAnswer, len(list))
	for _, r := range list {
		rm, _ := r.(map[string]any)
		id, _ := rm["tool_call_id"].(string)
		if id == "" {
			continue
		}
		var a stepAnswer
		if res, ok := rm["result"]; ok && res != nil {
			a.text = stepText(res)
		}
		if e, ok := rm["error"]; ok && e != nil && e != "" && e != false {
			a.status = "error"
			if a.text == "" {
				a.text = stepText(e)
			}
		}
		if ok, isBool := rm["success"].(bool); isBool && !ok {
			a.status = "error"
		}
		out[id] = a
	}
	return out
}

// seenBeforeActing moves a step list's observations one step on when they are what each step
// was chosen in rather than what its action brought: a harness that logs its run as
// {"initial_observation", "steps": [{"action", "observation"}, ...]} may write the
// observation the model acted on beside its action, so that the first step's is the initial
// one (an ALFWorld runner: "go to shelf 1" beside the room's description, every answer a
// step late, and every loop told a call late; validation round r68b U1). That first
// observation, equal to the initial one, is the evidence: without it the steps are read as
// they stand. Each step's first call then gets the next step's observation, and the last
// step's, whose answer the log does not keep, none.
func seenBeforeActing(run []msg, initial string) []msg {
	var outcomes []int // the tool messages that carry a step's observation
	for i, m := range run {
		if m.Role == "tool" && strings.HasPrefix(m.ToolCallID, "step") && strings.HasSuffix(m.ToolCallID, ".0") {
			outcomes = append(outcomes, i)
		}
	}
	if len(outcomes) == 0 {
		return run
	}
	if first, _ := run[outcomes[0]].Content.(string); strings.TrimSpace(first) != strings.TrimSpace(initial) {
		return run
	}
	for j := 0; j+1 < len(outcomes); j++ {
		run[outcomes[j]].Content, run[outcomes[j]].Status = run[outcomes[j+1]].Content, run[outcomes[j+1]].Status
	}
	last := outcomes[len(outcomes)-1]
	return slices.Delete(run, last, last+1)
}

// stepCall reads a step's call from its tool/tool_name and input keys, or from its action: a
// command line (its first word names it, as SWE-agent's do) or an object naming the tool.
func stepCall(st map[string]any) (string, json.RawMessage) {
	for _, key := range []string{"tool", "tool_name"} {
		if name, ok := st[key].(string); ok && name != "" {
			for _, in := range []string{"tool_input", "tool_args", "args", "arguments", "input"} {
				if v, ok := st[in]; ok {
					return name, stepArgs(v)
				}
			}
			for _, in := range []string{"command", "cmd"} {
				// a shell tool's step: {"tool": "vm_shell", "command", "stdout", "exit_code"}
				if v, ok := st[in].(string); ok {
					return name, marshalArgs(map[string]string{in: v})
				}
			}
			return name, nil
		}
	}
	action := st["action"]
	if action == nil {
		// the action the environment ran, which may be another than the one the model
		// wrote (an ALFWorld runner mapping an invalid action to a valid one)
		action = st["action_taken"]
	}
	switch a := action.(type) {
	case string:
		if t := strings.TrimSpace(a); t != "" {
			return firstToken(t), json.RawMessage(jsonString(t))
		}
	case map[string]any:
		name, _ := a["tool"].(string)
		if name == "" {
			name, _ = a["name"].(string)
		}
		if name != "" {
			for _, in := range []string{"tool_input", "args", "arguments", "input"} {
				if v, ok := a[in]; ok {
					return name, stepArgs(v)
				}
			}
			return name, nil
		}
	}
	return "", nil
}

// stepArgs encodes a call's arguments as the JSON the message builder reads: a string as
// it is written (often already JSON), anything else as JSON.
func stepArgs(v any) json.RawMessage {
	if s, ok := v.(string); ok {
		return json.RawMessage(jsonString(s))
	}
	return marshalArgs(v)
}

// stepText is an outcome as text: a string, or a list of strings, or JSON.
func stepText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, p := range x {
			parts = append(parts, stepText(p))
		}
		return strings.Join(parts, "\n")
	}
	return string(marshalArgs(v))
}

// The Agent Data Protocol's standard form (neulab's agent-data-protocol, a common schema for
// agent training data converted from a dozen datasets and harnesses) keeps a run as a list of
// typed items: {"class_": "api_action", "function", "kwargs", "description"} (a tool call, its
// description the model's words), {"class_": "code_action", "language", "content",
// "description"} (code to run), {"class_": "message_action", "content"} (the model speaking)
// and {"class_": "text_observation", "content", "source"} (what came back: the answer to the
// action just before it, or else the user when its source says so).

// isADPList says whether a list holds such items, from its sample (listSample).
func isADPList(sample []map[string]string) bool {
	items := 0
	for _, keys := range sample {
		if _, ok := keys["class_"]; ok {
			items++
		}
	}
	return items >= 2 && items*2 >= len(sample)
}

// decodeADP turns a list of ADP items into messages: an action is an assistant message with
// one call, the observation after it that call's answer.
func decodeADP(arr []byte) []msg {
	var raw []map[string]any
	if err := json.Unmarshal(arr, &raw); err != nil && !tolerable(err) {
		return nil
	}
	var list []msg
	pending := "" // the id of the call waiting for its observation
	for k, it := range raw {
		if it == nil {
			continue
		}
		class, _ := it["class_"].(string)
		content, _ := it["content"].(string)
		description, _ := it["description"].(string)
		var call oaToolCall
		switch class {
		case "api_action":
			name, _ := it["function"].(string)
			call = oaToolCall{Name: name, Arguments: stepArgs(it["kwargs"])}
		case "code_action":
			lang, _ := it["language"].(string)
			if lang == "" {
				lang = "code"
			}
			arg, _ := json.Marshal(content)
			call = oaToolCall{Name: lang, Arguments: arg}
		case "message_action":
			list = append(list, msg{Role: "assistant", Content: content})
			pending = ""
			continue
		case "text_observation", "image_observation", "web_observation":
			// The observation after an action is its answer, whatever its source says (some
			// conversions give the environment's answers as the user's); any other is the
			// user's when it says so.
			source, _ := it["source"].(string)
			switch {
			case pending != "":
				list = append(list, msg{Role: "tool", ToolCallID: pending, Content: content})
			case source == "user":
				list = append(list, msg{Role: "user", Content: content})
			}
			pending = ""
			continue
		default:
			continue
		}
		if call.Name == "" {
			continue
		}
		call.ID = fmt.Sprintf("adp%d", k)
		list = append(list, msg{Role: "assistant", Content: description, ToolCalls: []oaToolCall{call}})
		pending = call.ID
	}
	return list
}

// withoutCallsRecordedTwice drops, of the runs found in one object, those whose every call's
// answer another of them holds too, as a second record of the same calls (the tool perhaps
// named another way, "swebench_execute_bash" for "swebench__swebench_execute_bash"):
// General-AgentBench keeps each run as a chat and again as rounds of executions, without their
// arguments (validation round r164b U1: 3,234 calls of 179 files read twice, as sessions of
// their own, and calls that differed in their arguments told as one call stuck). Only a run
// whose calls keep no arguments is taken for such a record.
func withoutCallsRecordedTwice(runs [][]msg) [][]msg {
	type record struct {
		calls map[string]int // each answered call (recordedCallKey), and how many times
		args  int            // bytes of arguments
	}
	recs := make([]record, len(runs))
	for i, run := range runs {
		results := map[string]string{}
		for _, m := range run {
			if m.Role == "tool" && m.ToolCallID != "" {
				results[m.ToolCallID] = contentText(m.Content)
			}
		}
		recs[i].calls = map[string]int{}
		for _, m := range run {
			for _, tc := range m.ToolCalls {
				res, ok := results[tc.ID]
				if !ok {
					continue
				}
				recs[i].calls[recordedCallKey(tc.Function.Name+tc.Name, res)]++
				recs[i].args += len(bytes.TrimSpace(tc.Function.Arguments)) + len(bytes.TrimSpace(tc.Arguments))
			}
		}
	}
	holds := func(q, r record) bool { // q holds every call of r
		for k, c := range r.calls {
			if q.calls[k] < c {
				return false
			}
		}
		return true
	}
	out := runs[:0:0]
	for i := range runs {
		r := recs[i]
		dup := false
		for j := range runs {
			q := recs[j]
			if j == i || len(r.calls) == 0 || !holds(q, r) {
				continue
			}
			// q holds r's calls, with their arguments, and r keeps none: r is a record of
			// what q did, not a run of its own (two attempts of one task, the second a start
			// of the first, both keep theirs).
			if r.args == 0 && q.args > 0 {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, runs[i])
		}
	}
	return out
}

// recordedCallKey is what two records of one call share: the tool's own name (after a server's
// or a benchmark's prefix: "swebench_execute_bash" and "swebench__swebench_execute_bash") and
// the opening of its answer (a record may cut a long answer short).
func recordedCallKey(tool, result string) string {
	if i := strings.LastIndex(tool, "__"); i >= 0 {
		tool = tool[i+2:]
	}
	if i := strings.IndexByte(tool, '_'); i >= 0 && strings.Count(tool, "_") > 1 {
		tool = tool[i+1:]
	}
	result = strings.TrimSpace(result)
	return tool + "\x00" + result[:min(len(result), 64)]
}
