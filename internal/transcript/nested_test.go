package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Documents of no known format that hold chats are read for the chats they hold, wherever
// they sit; each chat is a session.
func TestChatsInsideOtherDocuments(t *testing.T) {
	const chat = `[{"role": "user", "content": "fix the test"},
	 {"role": "assistant", "content": "look", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"pytest -q\"}"}}]},
	 {"role": "tool", "tool_call_id": "a", "content": "1 failed"}]`
	const other = `[{"role": "user", "content": "list the files"},
	 {"role": "assistant", "content": "", "tool_calls": [{"id": "b", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]},
	 {"role": "tool", "tool_call_id": "b", "content": "a.py"}]`
	pytest := []string{`user "fix the test"`, `text[model] "look"`, `call bash "{\"command\": \"pytest -q\"}" => "1 failed"`}
	ls := []string{`user "list the files"`, `call bash "{\"command\": \"ls\"}" => "a.py"`}
	tests := []struct {
		name, file, doc string
		want            [][]string
	}{
		{"a dataset row whose trajectory is a chat, not SWE-agent's steps", "row.json",
			`{"instance_id": "x", "trajectory": ` + chat + `}`, [][]string{pytest}},
		{"a chat wrapped in other objects", "run.json",
			`{"meta": {"model": "m"}, "data": {"result": {"conversations": ` + chat + `}}}`, [][]string{pytest}},
		{"a list of runs, each with its chat", "runs.json",
			`[{"id": 1, "chat_history": ` + chat + `}, {"id": 2, "chat_history": ` + other + `}]`, [][]string{pytest, ls}},
		{"a JSONL file of runs, one a line", "runs.jsonl",
			`{"id": 1, "messages": ` + strings.ReplaceAll(chat, "\n", "") + "}\n" + `{"id": 2, "messages": ` + strings.ReplaceAll(other, "\n", "") + "}\n", [][]string{pytest, ls}},
		{"a request log: each request repeats the history before it, and is read once",
			"requests.jsonl",
			`{"model": "m", "messages": [{"role": "user", "content": "fix the test"}]}` + "\n" +
				`{"response": {"choices": [{"message": {"role": "assistant", "content": "look"}}]}}` + "\n" +
				`{"model": "m", "messages": ` + strings.ReplaceAll(chat, "\n", "") + "}\n", [][]string{pytest}},
		{"roles as LangChain and datasets write them, text as content", "lc.json",
			`{"steps": [{"role": "human", "text": "hi"}, {"role": "ai", "text": "hello"}]}`,
			[][]string{{`user "hi"`, `text[model] "hello"`}}},
		{"Hermes-style calls written in the text, answered by tool responses", "sft.json",
			`[{"conversations": [{"role": "user", "content": "make hello.txt"},
			  {"role": "assistant", "content": "Creating it.\n<tool_call>\n{\"name\": \"write\", \"arguments\": {\"path\": \"hello.txt\"}}\n</tool_call>"},
			  {"role": "tool", "content": "<tool_response>\nwritten\n</tool_response>"},
			  {"role": "assistant", "content": "Done."}]}]`,
			[][]string{{`user "make hello.txt"`, `text[model] "Creating it."`, `call write "{\"path\":\"hello.txt\"}" => "written"`, `text[model] "Done."`}}},
		{"Hermes-style tool responses wrapped as {name, content}: the content is the answer", "hermes.json",
			`[{"conversations": [{"from": "human", "value": "make a template"},
			  {"from": "gpt", "value": "<tool_call>\n{\"name\": \"verify_template\", \"arguments\": {}}\n</tool_call>"},
			  {"from": "tool", "value": "<tool_response>\n{\"tool_call_id\": \"tc_0\", \"name\": \"verify_template\", \"content\": {\"status\": \"unknown\", \"error_type\": \"tool:execution_failed\"}}\n</tool_response>"},
			  {"from": "gpt", "value": "<tool_call>\n{\"name\": \"session_get_state\", \"arguments\": {}}\n</tool_call>"},
			  {"from": "tool", "value": "<tool_response>\n{\"name\": \"session_get_state\", \"content\": \"Tool 'session_get_state' does not exist.\"}\n</tool_response>"}]}]`,
			[][]string{{`user "make a template"`,
				`call verify_template "{}" => "{\"status\": \"unknown\", \"error_typ…"`,
				`call session_get_state "{}" => "Tool 'session_get_state' does no…"`}}},
		{"ReAct runs kept as one text each (FireAct), numbered steps as ReAct's prompts write them", "runs.json",
			`{"1533": {"reward": false, "prompt": "", "traj": "Answer the question.\nQuestion: Who?\nThought: Search it.\nAction: search[Naomi Jacobson]\nObservation: A sculptor.\nThought: Again.\nAction: search[Naomi Jacobson]\nObservation: A sculptor.\nAction: finish[unknown]\nObservation: Episode finished, reward = 0"},
			  "12": {"reward": true, "traj": "Question: Where?\nThought 1: Look.\nAction 1: Search[Paris]\nObservation 1: Paris is in France.\nThought 1: a line of the page that looks like a step\nThought 2: Done.\nAction 2: Finish[France]\nObservation 2: Episode finished"},
			  "13": {"traj": "Question: a thought with no action is not a run\nThought: hmm.\nObservation: Invalid action."}}`,
			[][]string{{`user "Answer the question.\nQuestion: W…"`, `text[model] "Thought: Search it."`, `call search "Naomi Jacobson" => "Observation: A sculptor."`,
				`text[model] "Thought: Again."`, `call search "Naomi Jacobson" => "Observation: A sculptor."`,
				`call finish "unknown" => "Observation: Episode finished, r…"`},
				{`user "Question: Where?"`, `text[model] "Thought: Look."`, `call Search "Paris" => "Observation: Paris is in France.…"`,
					`text[model] "Thought: Done."`, `call Finish "France" => "Observation: Episode finished"`}}},
		{"runs kept as parallel lists (InterCode's turn_history): the first, on the same database, is where the second begins", "ic_sql.json",
			`{"0": {"query": "How many?", "turn_history": {"actions": ["execute[SHOW TABLES]"], "observations": ["[('x',)]"], "valid_action": [true]}},
			  "1": {"environment": "ic_sql", "query": "Which city?", "turn_history": {"thoughts": ["See the tables.", "Count."],
			    "actions": ["execute[SHOW TABLES]", "SELECT City FROM x"], "observations": ["[('x',)]", "Error executing query: Unknown column 'City'"],
			    "rewards": [0, 0], "valid_action": [true, false]}}}`,
			[][]string{{`user "How many?"`, `call execute "SHOW TABLES" => "[('x',)]"`},
				{`user "Which city?"`, `text[model] "See the tables."`, `call execute "SHOW TABLES" => "[('x',)]"`,
					`text[model] "Count."`, `call action "SELECT City FROM x" => "Error executing query: Unknown c…" FAILED`}}},
		{"a run's task written after its parallel lists still comes first", "ic_bash.json",
			`{"0": {"turn_history": {"actions": ["ls"], "observations": ["a.txt"], "valid_action": [true]}, "query": "List the files."},
			  "1": {"turn_history": {"actions": ["ls"], "observations": ["a.txt"], "valid_action": [true]}, "query": "Count the files."}}`,
			[][]string{{`user "List the files."`, `call action "ls" => "a.txt"`}, {`user "Count the files."`, `call action "ls" => "a.txt"`}}},
		{"a BFCL multi-turn entry: the environment's state passed over, turns of steps, a call's arguments as JSON text", "bfcl.jsonl",
			`{"id": "multi_turn_base_0", "result": [[[{"cd": "{\"folder\": \"document\"}"}]]], "inference_log": [[{"role": "state_info", "class_name": "GorillaFileSystem", "content": {"root": "/"}}],
			  {"begin_of_turn_query": [{"role": "user", "content": "Move the report."}],
			   "step_0": [{"role": "assistant", "content": [{"cd": "{\"folder\": \"document\"}"}, {"ls": "{}"}]}, {"role": "handler_log", "content": "Successfully decoded model response."},
			              {"role": "tool", "content": "{\"current_working_directory\": \"document\"}"}, {"role": "tool", "content": "{\"error\": \"ls: denied\"}"}],
			   "step_1": [{"role": "assistant", "content": "Done."}, {"role": "handler_log", "content": "Failed to decode the model response."}]},
			  [{"role": "state_info", "class_name": "GorillaFileSystem", "content": {}}],
			  {"begin_of_turn_query": [{"role": "user", "content": "Thanks."}], "step_0": [{"role": "assistant", "content": "You are welcome."}]}]}` + "\n",
			[][]string{{`user "Move the report."`, `call cd "{\"folder\": \"document\"}" => "{\"current_working_directory\": \"d…"`,
				`call ls "{}" => "{\"error\": \"ls: denied\"}"`, `text[model] "Done."`, `user "Thanks."`, `text[model] "You are welcome."`}}},
		{"LLaMA-Factory's tool turns: function_call holds the calls as JSON, observation their answers, one a call", "toolace.json",
			`[{"conversations": [{"from": "human", "value": "Rate SPY and QQQ."},
			  {"from": "function_call", "value": "[{\"name\": \"Ratings\", \"arguments\": {\"symbol\": \"SPY\"}}, {\"name\": \"Ratings\", \"arguments\": {\"symbol\": \"QQQ\"}}]"},
			  {"from": "observation", "value": "[{\"rating\": 4.5, \"symbol\": \"SPY\"}, {\"rating\": 4.3, \"symbol\": \"QQQ\"}]"},
			  {"from": "function_call", "value": "{\"name\": \"Calendar\", \"arguments\": {\"year\": 2023}}"},
			  {"from": "observation", "value": "{\"holidays\": []}"},
			  {"from": "gpt", "value": "SPY 4.5, QQQ 4.3."}], "tools": "[]"}]`,
			[][]string{{`user "Rate SPY and QQQ."`, `call Ratings "{\"symbol\":\"SPY\"}" => "{\"rating\": 4.5, \"symbol\": \"SPY\"}"`,
				`call Ratings "{\"symbol\":\"QQQ\"}" => "{\"rating\": 4.3, \"symbol\": \"QQQ\"}"`,
				`call Calendar "{\"year\":2023}" => "{\"holidays\": []}"`, `text[model] "SPY 4.5, QQQ 4.3."`}}},
		{"an answer the harness left out of the context (WebVoyager's stand-in) is no answer: the call's result is unknown", "interact_messages.json",
			`[{"role": "system", "content": "Imagine you are a robot browsing the web."},
			  {"role": "user", "content": "Now given a task: find the cheapest lamp."},
			  {"role": "assistant", "content": "Thought: The list goes on below.\nAction: Scroll [WINDOW]; down"},
			  {"role": "user", "content": "Observation: A screenshot and some texts. (Omitted in context.)"},
			  {"role": "assistant", "content": "Thought: More lamps below.\nAction: Scroll [WINDOW]; down"},
			  {"role": "user", "content": "Observation: please analyze the attached screenshot and give the Thought and Action. [12] Lamp B 19.90"}]`,
			[][]string{{`text[system] "Imagine you are a robot browsing…"`, `user "Now given a task: find the cheap…"`, `text[model] "Thought: The list goes on below."`,
				`call Scroll "[WINDOW]; down" => -`, `text[model] "Thought: More lamps below."`,
				`call Scroll "[WINDOW]; down" => "Observation: please analyze the …"`}}},
		{"WebVoyager's forks: advice before the observation, a bold label, and the harness's word that it could not run the action", "interact_messages.json",
			`[{"role": "user", "content": "Now given a task: find the TV category."},
			  {"role": "assistant", "content": "Thought: Type the query.\nAction: Type [3]; tv"},
			  {"role": "user", "content": "Please do not repeat the same action if the webpage remains unchanged. Observation: the search box holds tv"},
			  {"role": "assistant", "content": "**Thought:** Open the category.\n\n**Action:** Click [22]"},
			  {"role": "user", "content": "The action you have chosen cannot be exected. Please double-check the Numerical Label."},
			  {"role": "assistant", "content": "Thought: Again.\nAction: Click [22]"},
			  {"role": "user", "content": "Observation: the TV page"}]`,
			[][]string{{`user "Now given a task: find the TV ca…"`, `text[model] "Thought: Type the query."`, `call Type "[3]; tv" => "Observation: the search box hold…"`,
				`text[model] "**Thought:** Open the category."`, `call Click "22" => "The action you have chosen canno…" FAILED`,
				`text[model] "Thought: Again."`, `call Click "22" => "Observation: the TV page"`}}},
		{"a harness's prompt of its own between the action and the observation is the harness's, and the action is answered", "interact_messages.json",
			`[{"role": "user", "content": "Now given a task: find the TV category."},
			  {"role": "assistant", "content": "Thought: Open the menu.\nAction: Click [5]"},
			  {"role": "user", "content": "You have just completed a web search step. Before proceeding, reflect on your strategy."},
			  {"role": "user", "content": "Observation: the menu is open"},
			  {"role": "assistant", "content": "Thought: Pick TV.\nAction: Click [9]"},
			  {"role": "user", "content": "Observation: the TV page"}]`,
			[][]string{{`user "Now given a task: find the TV ca…"`, `text[model] "Thought: Open the menu."`,
				`call Click "5" => "Observation: the menu is open"`, `user[harness] "You have just completed a web se…"`,
				`text[model] "Thought: Pick TV."`, `call Click "9" => "Observation: the TV page"`}}},
		{"steps logged beside the observation they were chosen in (the first is the initial one): each answer is the next step's", "trajectory.jsonl",
			`{"trajectory_id": "t1", "initial_observation": "You are in the middle of a room.", "steps": [
			  {"index": 0, "action": "go to shelf 1", "observation": "You are in the middle of a room.", "done": false},
			  {"index": 1, "action": "examine shelf 1", "observation": "You arrive at shelf 1.", "done": false},
			  {"index": 2, "action": "take book 1 from shelf 1", "observation": "You see a book 1.", "done": false}]}` + "\n",
			[][]string{{`call go "go to shelf 1" => "You arrive at shelf 1."`, `call examine "examine shelf 1" => "You see a book 1."`,
				`call take "take book 1 from shelf 1" => -`}}},
		{"steps whose first observation is not the initial one are read as they stand", "trajectory.jsonl",
			`{"trajectory_id": "t2", "initial_observation": "You are in the middle of a room.", "steps": [
			  {"index": 0, "action": "go to shelf 1", "observation": "You arrive at shelf 1.", "done": false},
			  {"index": 1, "action": "examine shelf 1", "observation": "You see a book 1.", "done": false}]}` + "\n",
			[][]string{{`call go "go to shelf 1" => "You arrive at shelf 1."`, `call examine "examine shelf 1" => "You see a book 1."`}}},
		{"a ToolBench run that did not finish: its try's chain of actions, its answer left empty", "588_CoT@1.json",
			`{"win": false, "try_count": 1, "trys": [{"chain": [
			  {"node_type": "Action", "description": "search_player", "depth": 1},
			  {"node_type": "Action Input", "description": "{\"name\": \"Messi\"}", "observation": "{\"error\": \"\", \"response\": \"born 1987\"}", "observation_code": 0, "depth": 2},
			  {"node_type": "Action", "description": "player_details", "depth": 3},
			  {"node_type": "Action Input", "description": "{\"id\": \"28003\"}", "observation": "{\"error\": \"timeout\"}", "observation_code": 11, "depth": 4}], "win": false}],
			  "answer_generation": {"valid_data": false, "final_answer": "", "train_messages": [], "chain": []}}`,
			[][]string{{`call search_player "{\"name\": \"Messi\"}" => "{\"error\": \"\", \"response\": \"born …"`,
				`call player_details "{\"id\": \"28003\"}" => "{\"error\": \"timeout\"}" FAILED`}}},
		{"a finished ToolBench run is read from its answer, its tries not again", "608_CoT@1.json",
			`{"win": true, "trys": [{"chain": [{"node_type": "Action", "description": "search_player"},
			  {"node_type": "Action Input", "description": "{}", "observation": "x", "observation_code": 0}]}],
			  "answer_generation": {"valid_data": true, "train_messages": [[{"role": "user", "content": "find it"}, {"role": "assistant", "content": "", "function_call": {"name": "search_player", "arguments": "{}"}}, {"role": "function", "name": "search_player", "content": "x"}]]}}`,
			[][]string{{`user "find it"`, `call search_player "{}" => "x"`}}},
		{"ToolEval's converted predictions: each run a chain of role, message and next nodes", "G1_instruction.json",
			`{"588": {"query": "Tell me about Messi.", "answer": {"method": "CoT@1", "final_answer": "", "answer_details": [{"role": "system", "message": "", "next": [
			  {"role": "user", "message": "", "next": [
			    {"role": "tool", "message": {"name": "search_player", "arguments": "{\"name\": \"Messi\"}", "response": "{\"error\": \"\", \"response\": \"born 1987\"}"}, "next": [
			      {"role": "assistant", "message": "Not enough yet.", "next": [
			        {"role": "tool", "message": {"name": "Finish", "arguments": "{\"return_type\": \"give_answer\"}", "response": ""}, "next": []}]}]}]}]}]}},
			  "608": {"query": "Concerts?", "answer": {"answer_details": [{"role": "system", "message": "", "next": [
			    {"role": "tool", "message": {"name": "list_concerts", "arguments": "{}", "response": "none"}, "next": []}]}]}}}`,
			[][]string{{`call search_player "{\"name\": \"Messi\"}" => "{\"error\": \"\", \"response\": \"born …"`, `text[model] "Not enough yet."`,
				`call Finish "{\"return_type\": \"give_answer\"}" => ""`}, {`call list_concerts "{}" => "none"`}}},
		{"ToolBench's search tree: its calls in the order a depth-first search makes them, the answer's chain not read again", "G2_answer_10_DFS.json",
			`{"win": false, "tree": {"size": 9, "max_length": 9, "tree": {"node_type": "Action Input", "description": "", "observation": "", "children": [
			  {"node_type": "Thought", "description": "Look the zip code up.", "children": [
			    {"node_type": "Action", "description": "cep_lookup", "children": [
			      {"node_type": "Action Input", "description": "{\"cep\": \"24680\"}", "observation": "{\"error\": \"Message error...\"}", "observation_code": 11, "children": [
			        {"node_type": "Action", "description": "Finish", "children": [
			          {"node_type": "Action Input", "description": "{\"return_type\": \"give_up_and_restart\"}", "observation": "restart", "observation_code": 4, "children": []}]}]}]}]},
			  {"node_type": "Thought", "description": "Try once more.", "children": [
			    {"node_type": "Action", "description": "cep_lookup", "children": [
			      {"node_type": "Action Input", "description": "{\"cep\": \"24680\"}", "observation": "{\"error\": \"Message error...\"}", "observation_code": 11, "children": []}]}]}]}},
			  "answer_generation": {"valid_data": true, "train_messages": [[{"role": "user", "content": "find it"}, {"role": "assistant", "content": "", "function_call": {"name": "cep_lookup", "arguments": "{}"}}, {"role": "function", "name": "cep_lookup", "content": "x"}]]}}`,
			[][]string{{`text[model] "Look the zip code up."`, `call cep_lookup "{\"cep\": \"24680\"}" => "{\"error\": \"Message error...\"}" FAILED`,
				`call Finish "{\"return_type\": \"give_up_and_res…" => "restart"`, `text[model] "Try once more."`,
				`call cep_lookup "{\"cep\": \"24680\"}" => "{\"error\": \"Message error...\"}" FAILED`}}},
		{"content parts written {type, value} (LLaMA-Factory's newer layout): text, reasoning and tool calls; rows alike in their first turns stay two", "reason_tool_use.jsonl",
			`{"messages": [{"role": "system", "content": [{"type": "text", "value": "Use the tools."}]}, {"role": "user", "content": [{"type": "text", "value": "Inception?"}]},
			  {"role": "assistant", "content": [{"type": "reasoning", "value": "Look it up."}, {"type": "tool_call", "value": "{\"name\": \"get_movie\", \"arguments\": {\"title\": \"Inception\"}}"}]},
			  {"role": "tool", "content": [{"type": "text", "value": "{\"director\": \"Nolan\"}"}]}, {"role": "assistant", "content": [{"type": "text", "value": "Nolan."}]}]}` + "\n" +
				`{"messages": [{"role": "system", "content": [{"type": "text", "value": "Use the tools."}]}, {"role": "user", "content": [{"type": "text", "value": "Weather?"}]}]}` + "\n",
			[][]string{{`text[system] "Use the tools."`, `user "Inception?"`, `text[model] "Look it up."`, `call get_movie "{\"title\":\"Inception\"}" => "{\"director\": \"Nolan\"}"`, `text[model] "Nolan."`},
				{`text[system] "Use the tools."`, `user "Weather?"`}}},
		{"a native tool answer that is a JSON list stays whole; a ShareGPT list of string answers is split unquoted", "mixed.json",
			`[{"instance_id": "x", "trajectory": [{"role": "user", "content": "find it"},
			  {"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": {"name": "search", "arguments": "{}"}}, {"id": "b", "function": {"name": "read", "arguments": "{}"}}]},
			  {"role": "tool", "tool_call_id": "a", "content": "[\"hit1\", \"hit2\"]"}, {"role": "tool", "tool_call_id": "b", "content": "file body"}]},
			 {"conversations": [{"from": "human", "value": "twice"},
			  {"from": "function_call", "value": "[{\"name\": \"ping\", \"arguments\": {}}, {\"name\": \"pong\", \"arguments\": {}}]"},
			  {"from": "observation", "value": "[\"ok\", \"fine\"]"}]}]`,
			[][]string{{`user "find it"`, `call search "{}" => "[\"hit1\", \"hit2\"]"`, `call read "{}" => "file body"`},
				{`user "twice"`, `call ping "{}" => "ok"`, `call pong "{}" => "fine"`}}},
		{"ToolBench's tree read after the answer's chain replaces it", "sorted_keys.json",
			`{"answer_generation": {"valid_data": true, "train_messages": [[{"role": "user", "content": "find it"}, {"role": "assistant", "content": "", "function_call": {"name": "cep_lookup", "arguments": "{}"}}, {"role": "function", "name": "cep_lookup", "content": "x"}]]},
			  "tree": {"tree": {"node_type": "Action", "description": "cep_lookup", "children": [{"node_type": "Thought", "description": "the zip", "children": [{"node_type": "Action Input", "description": "{}", "observation": "y", "observation_code": 0}]}]}}}`,
			[][]string{{`text[model] "the zip"`, `call cep_lookup "{}" => "y"`}}},
		{"shell commands in code blocks, answered turn after turn", "text-agent.json",
			`{"trajectory": [{"role": "system", "text": "You are an agent."}, {"role": "user", "text": "fix it"},
			  {"role": "ai", "text": "Search first.\n` + "```" + `\ngrep -rn foo .\n` + "```" + `"}, {"role": "user", "text": "a.py:1: foo"},
			  {"role": "ai", "text": "Again.\n` + "```" + `\ngrep -rn foo .\n` + "```" + `"}, {"role": "user", "text": "a.py:1: foo"}]}`,
			[][]string{{`text[system] "You are an agent."`, `user "fix it"`, `text[model] "Search first."`, `call bash "grep -rn foo ." => "a.py:1: foo"`,
				`text[model] "Again."`, `call bash "grep -rn foo ." => "a.py:1: foo"`}}},
		{"Terminus's JSON answers: a turn's keystrokes are one call, its screen the result", "terminus.traces.json",
			`[{"conversations": [{"role": "user", "content": "Create hello.txt"},
			  {"role": "assistant", "content": "<think>easy</think>\n{\"analysis\": \"Empty dir.\", \"plan\": \"Write it.\", \"commands\": [{\"keystrokes\": \"echo hi > hello.txt\\n\", \"duration\": 0.1}, {\"keystrokes\": \"cat hello.txt\\n\", \"duration\": 0.1}]}"},
			  {"role": "user", "content": "New Terminal Output:\n$ echo hi > hello.txt\n$ cat hello.txt\nhi"},
			  {"role": "assistant", "content": "<response><analysis>Done.</analysis><plan>Finish.</plan><commands><keystrokes duration=\"0.1\">ls\n</keystrokes></commands></response>"},
			  {"role": "user", "content": "New Terminal Output:\nhello.txt"},
			  {"role": "assistant", "content": "{\"analysis\": \"Done.\", \"plan\": \"\", \"commands\": [], \"task_complete\": true}"},
			  {"role": "user", "content": "Are you sure?"}]}]`,
			[][]string{{`user "Create hello.txt"`,
				`text[model] "<think>easy</think>\n{\"analysis\":…"`,
				`call bash_command "[{\"keystrokes\":\"echo hi > hello.…" => "New Terminal Output:\n$ echo hi >…"`,
				`text[model] "<response><analysis>Done.</analy…"`,
				`call bash_command "[{\"keystrokes\":\"ls\\n\"}]" => "New Terminal Output:\nhello.txt"`,
				`text[model] "{\"analysis\": \"Done.\", \"plan\": \"\"…"`,
				`call mark_task_complete "{}" => "Are you sure?"`}}},
		{"ShareGPT's from and value, OpenHands' function calls written in the text", "sft_openhands.json",
			`[{"id": "r1", "system": "You are OpenHands agent.", "conversations": [{"from": "human", "value": "fix arrow"},
			  {"from": "gpt", "value": "Look first.\n<function=execute_bash>\n<parameter=command>\ngrep -rn format arrow\n</parameter>\n</function>"},
			  {"from": "human", "value": "EXECUTION RESULT of [execute_bash]:\narrow/arrow.py:12: format"},
			  {"from": "gpt", "value": "Found it."}]}]`,
			[][]string{{`user "fix arrow"`, `text[model] "Look first."`, `call execute_bash "{\"command\":\"grep -rn format arro…" => "arrow/arrow.py:12: format"`, `text[model] "Found it."`}}},
		{"ShareGPT's tool answers as observations", "sft.json",
			`[{"conversations": [{"from": "human", "value": "make hello.txt"},
			  {"from": "gpt", "value": "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"path\": \"hello.txt\"}}\n</tool_call>"},
			  {"from": "observation", "value": "written"}]}]`,
			[][]string{{`user "make hello.txt"`, `call write "{\"path\":\"hello.txt\"}" => "written"`}}},
		{"CodeAct's execute tags, answered by observations", "codeact.json",
			`[{"id": "x", "conversations": [{"role": "user", "content": "Task: roots of x^2-1"},
			  {"role": "assistant", "content": "Solve it.\n<execute>\nsolve(x**2-1)\n</execute>"},
			  {"role": "user", "content": "Observation:\nOut[1]: [-1, 1]"},
			  {"role": "assistant", "content": "Check.\n<execute_bash>\nls\n</execute_bash>"},
			  {"role": "user", "content": "Observation:\na.py"}]}]`,
			[][]string{{`user "Task: roots of x^2-1"`, `text[model] "Solve it."`, `call execute "solve(x**2-1)" => "Observation:\nOut[1]: [-1, 1]"`,
				`text[model] "Check."`, `call execute_bash "ls" => "Observation:\na.py"`}}},
		{"the Agent Data Protocol's typed items: actions are calls, the observation after one its answer", "sample_std.json",
			`[{"id": "r1", "content": [{"class_": "text_observation", "content": "fix arrow", "source": "user"},
			  {"class_": "code_action", "language": "bash", "content": "grep -n format arrow.py", "description": "Look first."},
			  {"class_": "text_observation", "content": "12: def format", "source": "environment"},
			  {"class_": "api_action", "function": "str_replace_editor", "kwargs": {"command": "view", "path": "arrow.py"}, "description": ""},
			  {"class_": "text_observation", "content": "the file", "source": "environment"},
			  {"class_": "message_action", "content": "Fixed."}], "details": {}}]`,
			[][]string{{`user "fix arrow"`, `text[model] "Look first."`, `call bash "grep -n format arrow.py" => "12: def format"`,
				`call str_replace_editor "{\"command\":\"view\",\"path\":\"arrow.…" => "the file"`, `text[model] "Fixed."`}}},
		{"ReAct actions answered by observations: tool[argument], Action Input, a JSON blob", "eto.json",
			`[{"id": "w1", "conversations": [{"from": "human", "value": "WebShop [SEP] find a hair clip"},
			  {"from": "gpt", "value": "Thought: search first.\nAction: search[hair clip]"},
			  {"from": "human", "value": "Observation: Page 1 [SEP] B09C337K8S"},
			  {"from": "gpt", "value": "Thought: check the price.\nAction: price_lookup\nAction Input: B09C337K8S"},
			  {"from": "human", "value": "Observation: $29.99"},
			  {"from": "gpt", "value": "Thought: buy it.\nAction:\n` + "```" + `json\n{\"action\": \"buy\", \"action_input\": {\"id\": \"B09C337K8S\"}}\n` + "```" + `"},
			  {"from": "human", "value": "Observation: bought"},
			  {"from": "gpt", "value": "Thought: done.\nAction: go to cabinet 1"},
			  {"from": "human", "value": "Observation: You arrive at cabinet 1."},
			  {"from": "gpt", "value": "Thought: ask the graph.\nAction: get_relations(Gas-generator cycle)"},
			  {"from": "human", "value": "Observation: [engine.cycle]"}]}]`,
			[][]string{{`user "WebShop [SEP] find a hair clip"`, `text[model] "Thought: search first."`, `call search "hair clip" => "Observation: Page 1 [SEP] B09C33…"`,
				`text[model] "Thought: check the price."`, `call price_lookup "B09C337K8S" => "Observation: $29.99"`,
				`text[model] "Thought: buy it."`, `call buy "{\"id\":\"B09C337K8S\"}" => "Observation: bought"`,
				`text[model] "Thought: done."`, `call go "to cabinet 1" => "Observation: You arrive at cabin…"`,
				`text[model] "Thought: ask the graph."`, `call get_relations "Gas-generator cycle" => "Observation: [engine.cycle]"`}}},
		{"code between <code> tags is the action an observation answers, not the Action line that names the step in words (r168b U1)", "aria.json",
			`[{"conversations": [{"from": "human", "value": "Count the products."},
			  {"from": "gpt", "value": "Thought: query the table.\nAction: Write a Python script to count them.\n\n<code>\nimport sqlite3\nprint(3)\n</code>"},
			  {"from": "human", "value": "Observation:\n<tool_response>\n{\"execution_status\": \"CODE_EXECUTED\", \"stdout\": \"3\"}\n</tool_response>"},
			  {"from": "gpt", "value": "Done. The answer is in <code>count.txt</code>, and\n<code>\nprint(3)\n</code>\nis how I got it."},
			  {"from": "human", "value": "Thanks."}]}]`,
			[][]string{{`user "Count the products."`, `text[model] "Thought: query the table.\nAction…"`, `call code "{\"code\":\"import sqlite3\\nprint(3…" => "{\"execution_status\": \"CODE_EXECU…"`,
				`text[model] "Done. The answer is in <code>cou…"`, `text[harness] "Thanks."`}}},
		{"AgentBench's environments answer an action in a tool's syntax without the word Observation", "agentinstruct.json",
			`[{"conversations": [{"from": "human", "value": "Put two spraybottles in the toilet."},
			  {"from": "gpt", "value": "THOUGHT: Look around first.\nACTION: go to shelf 1"},
			  {"from": "human", "value": "On the shelf 1, you see a spraybottle 2."},
			  {"from": "gpt", "value": "Thought:\nSearch the shop.\n\nAction:\nsearch[on-ear headphone]"},
			  {"from": "human", "value": "Instruction: [SEP] Page 1 (Total results: 50)"}]}]`,
			[][]string{{`user "Put two spraybottles in the toil…"`, `text[model] "THOUGHT: Look around first."`, `call go "to shelf 1" => "On the shelf 1, you see a sprayb…"`,
				`text[model] "Thought:\nSearch the shop."`, `call search "on-ear headphone" => "Instruction: [SEP] Page 1 (Total…"`}}},
		{"AgentTuning's ALFWorld rows set their ACTION: a space in from the line's start", "alfworld.json",
			`[{"conversations": [{"from": "human", "value": "Put a clean mug on the countertop."},
			  {"from": "gpt", "value": "THOUGHT: First I find a mug.\n ACTION: go to countertop 1"},
			  {"from": "human", "value": "On the countertop 1, you see a mug 1."}]}]`,
			[][]string{{`user "Put a clean mug on the counterto…"`, `text[model] "THOUGHT: First I find a mug."`, `call go "to countertop 1" => "On the countertop 1, you see a m…"`}}},
		{"an action named in prose and answered by a person is not a call", "chat.json",
			`[{"role": "user", "content": "what next?"}, {"role": "assistant", "content": "Plan below.\nAction: review the diff"},
			  {"role": "user", "content": "ok, and then?"}, {"role": "assistant", "content": "Then:\nAction: merge it"}, {"role": "user", "content": "thanks"}]`,
			[][]string{{`user "what next?"`, `text[model] "Plan below.\nAction: review the d…"`, `user "ok, and then?"`, `text[model] "Then:\nAction: merge it"`, `user "thanks"`}}},
		{"an ADP observation right after an action is its answer, even marked as the user's", "nebius_std.json",
			`[{"id": "n4", "content": [{"class_": "text_observation", "content": "fix the edit", "source": "user"},
			  {"class_": "code_action", "language": "bash", "content": "edit 1:18", "description": "Edit it."},
			  {"class_": "text_observation", "content": "Your proposed edit has introduced new syntax error(s).", "source": "user"},
			  {"class_": "text_observation", "content": "Try again.", "source": "user"}]}]`,
			[][]string{{`user "fix the edit"`, `text[model] "Edit it."`, `call bash "edit 1:18" => "Your proposed edit has introduce…"`, `user "Try again."`}}},
		{"a harness speaking as the user: its known reprompt is still a user message of the harness's", "sft_sweagent.json",
			`[{"conversations": [{"role": "user", "content": "fix it"},
			  {"role": "assistant", "content": "Looking.\n` + "```" + `\nls\n` + "```" + `"}, {"role": "user", "content": "a.py"},
			  {"role": "assistant", "content": "Again.\n` + "```" + `\nls\n` + "```" + `"}, {"role": "user", "content": "a.py"},
			  {"role": "assistant", "content": "Done."}, {"role": "user", "content": "Please continue working on the task on whatever approach you think is suitable."},
			  {"role": "assistant", "content": "Done."}]}]`,
			[][]string{{`user "fix it"`, `text[model] "Looking."`, `call bash "ls" => "a.py"`, `text[model] "Again."`, `call bash "ls" => "a.py"`,
				`text[model] "Done."`, `user[harness] "Please continue working on the t…"`, `text[model] "Done."`}}},
		{"one code block in a chat is not taken for a command", "chat.json",
			`{"log": [{"role": "user", "content": "how do I list files?"}, {"role": "assistant", "content": "Use\n` + "```" + `\nls -la\n` + "```" + `"}, {"role": "user", "content": "thanks"}]}`,
			[][]string{{`user "how do I list files?"`, "text[model] \"Use\\n```\\nls -la\\n```\"", `user "thanks"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadFrom(tc.file, strings.NewReader(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatMessages || tr.Sessions != len(tc.want) || len(tr.Agents) != len(tc.want) {
				t.Fatalf("read as %s, %d sessions, %d agents; want messages with %d", tr.Format, tr.Sessions, len(tr.Agents), len(tc.want))
			}
			for i, a := range tr.Agents {
				if got := describe(a.Events); a.Session != i || !reflect.DeepEqual(got, tc.want[i]) {
					t.Errorf("session %d (agent in %d):\n got %q\nwant %q", i, a.Session, got, tc.want[i])
				}
			}
		})
	}
}

// What holds no chat is still not a transcript, and a document of a one-document format
// followed by more is still an error at the line where the rest starts.
func TestDocumentsWithoutChats(t *testing.T) {
	for _, doc := range []string{`{"theme": "dark", "items": [{"role": "admin"}, {"role": "user"}]}`, `[{"a": 1}, {"b": [1, 2]}]`, "{\"a\": 1}\n{\"b\": 2}\n"} {
		if _, err := ReadFrom("x.json", strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), "unknown transcript format") {
			t.Errorf("%s: error %v, want unknown transcript format", doc, err)
		}
	}
	doc := "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}, {\"role\": \"assistant\", \"content\": \"y\"}]}\n{\"trajectory\": [{\"action\": \"ls\", \"observation\": \"a\"}]}\n"
	if _, err := ReadFrom("x.jsonl", strings.NewReader(doc)); err == nil || !strings.HasPrefix(err.Error(), "x.jsonl:2: a swe-agent document among chat documents") {
		t.Errorf("mixed documents: error %v", err)
	}
}

// A JSONL file of documents of one format (a dataset of SWE-agent trajectories, one a line)
// is read document by document, each a session.
func TestJSONLOfTrajectories(t *testing.T) {
	raw, err := os.ReadFile("testdata/swe-agent/single.traj")
	if err != nil {
		t.Fatal(err)
	}
	var line bytes.Buffer
	if err := json.Compact(&line, raw); err != nil {
		t.Fatal(err)
	}
	one, err := ReadFrom("one.traj", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc := line.String() + "\n" + line.String() + "\n"
	tr, err := ReadFrom("trajs.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatSWEAgent || tr.Sessions != 2 || len(tr.Agents) != 2*len(one.Agents) {
		t.Fatalf("read as %s with %d sessions and %d agents; want swe-agent, 2 sessions, %d agents", tr.Format, tr.Sessions, len(tr.Agents), 2*len(one.Agents))
	}
	for i, a := range tr.Agents {
		if want := one.Agents[i%len(one.Agents)]; a.Session != i/len(one.Agents) || !reflect.DeepEqual(describe(a.Events), describe(want.Events)) {
			t.Errorf("agent %d (session %d) reads differently from the single trajectory", i, a.Session)
		}
	}
	// Another kind of document after them is still an error at its line.
	_, err = ReadFrom("trajs.jsonl", strings.NewReader(doc+`{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}]}`+"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "trajs.jsonl:3: unexpected data after the JSON document: not another swe-agent document") {
		t.Errorf("mixed documents: %v", err)
	}
}

// A JSON list of trajectories is read the same way.
func TestJSONListOfTrajectories(t *testing.T) {
	raw, err := os.ReadFile("testdata/swe-agent/single.traj")
	if err != nil {
		t.Fatal(err)
	}
	one, err := ReadFrom("one.traj", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ReadFrom("trajs.json", strings.NewReader("["+string(raw)+",\n"+string(raw)+"]"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatSWEAgent || tr.Sessions != 2 || len(tr.Agents) != 2*len(one.Agents) {
		t.Fatalf("read as %s with %d sessions and %d agents; want swe-agent, 2 sessions, %d agents", tr.Format, tr.Sessions, len(tr.Agents), 2*len(one.Agents))
	}
	if !reflect.DeepEqual(describe(tr.Agents[len(one.Agents)].Events), describe(one.Agents[0].Events)) {
		t.Errorf("the second trajectory reads differently from the file alone")
	}
}

// Runs logged as steps (an action and what it gave back) rather than as a chat are read too.
func TestStepListsInsideOtherDocuments(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"smolagents' steps: tool calls and observations",
			`{"task": "find x", "steps": [
			  {"step_number": 1, "model_output": "Thought: search for it", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": {"query": "x"}}}], "observations": "No results found.", "error": null},
			  {"step_number": 2, "model_output": "Thought: search again", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "web_search", "arguments": {"query": "x"}}}], "observations": "No results found.", "error": null}]}`,
			[]string{`text[model] "Thought: search for it"`, `call web_search "{\"query\":\"x\"}" => "No results found."`,
				`text[model] "Thought: search again"`, `call web_search "{\"query\":\"x\"}" => "No results found."`}},
		{"a step of two calls and one observation: the second call's answer is not known",
			`{"task": "find x", "steps": [
			  {"step_number": 1, "model_output": "search both", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "web_search", "arguments": {"query": "x"}}}, {"id": "c2", "type": "function", "function": {"name": "web_search", "arguments": {"query": "y"}}}], "observations": "No results found.", "error": null},
			  {"step_number": 2, "model_output": "done", "tool_calls": [{"id": "c3", "type": "function", "function": {"name": "final_answer", "arguments": {"answer": "none"}}}], "observations": "none", "error": null}]}`,
			[]string{`text[model] "search both"`, `call web_search "{\"query\":\"x\"}" => "No results found."`, `call web_search "{\"query\":\"y\"}" => -`,
				`text[model] "done"`, `call final_answer "{\"answer\":\"none\"}" => "none"`}},
		{"LangChain's intermediate steps, an error failing its call",
			`{"output": "done", "intermediate_steps": [
			  {"tool": "calculator", "tool_input": "1/0", "log": "divide", "error": "ZeroDivisionError: division by zero"},
			  {"tool": "calculator", "tool_input": "1/2", "log": "divide again", "observation": "0.5"}]}`,
			[]string{`text[model] "divide"`, `call calculator "1/0" => "ZeroDivisionError: division by z…" FAILED`,
				`text[model] "divide again"`, `call calculator "1/2" => "0.5"`}},
		{"ReAct steps with command lines as actions",
			`[{"id": "run-1", "trajectory_steps": [
			  {"thought": "look for it", "action": "grep -rn parse src", "observation": "src/a.py:3: def parse"},
			  {"thought": "open it", "action": "cat src/a.py", "observation": "def parse(): pass"}]}]`,
			[]string{`text[model] "look for it"`, `call grep "grep -rn parse src" => "src/a.py:3: def parse"`,
				`text[model] "open it"`, `call cat "cat src/a.py" => "def parse(): pass"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { readsAsOneAgent(t, "run.json", tc.doc, tc.want) })
	}
}

// A JSONL file whose lines are steps, as a home-made agent logs its run one step a line, is
// one run of those steps; lines of metadata among them are passed over.
func TestStepsOneALine(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"a tool's name, its arguments and output, a failure flagged",
			`{"step": 0, "tool_name": "run_shell", "tool_args": {"command": "make test"}, "tool_output": "FAILED: 3 errors", "is_error": true}
{"step": 1, "tool_name": "run_shell", "tool_args": {"command": "make lint"}, "tool_output": "ok", "is_error": false}
`,
			[]string{`call run_shell "{\"command\":\"make test\"}" => "FAILED: 3 errors" FAILED`, `call run_shell "{\"command\":\"make lint\"}" => "ok"`}},
		{"a log that keeps whether a call failed and not what it said: the rest unknown",
			`{"id": "a1", "tool_name": "get_status", "arguments": {"id": "E004"}, "success": true, "error": null, "result_size_chars": 476}
{"id": "a2", "tool_name": "get_status", "arguments": {"id": "E004"}, "success": true, "error": null, "result_size_chars": 480}
{"id": "a3", "tool_name": "flag_anomaly", "arguments": {"id": "E004"}, "success": false, "error": "session is closed", "result_size_chars": 0}
`,
			[]string{`call get_status "{\"id\":\"E004\"}" => -`, `call get_status "{\"id\":\"E004\"}" => -`, `call flag_anomaly "{\"id\":\"E004\"}" => "session is closed" FAILED`}},
		{"a shell's steps: the command, its two streams, its exit code and time-out",
			`{"run_id": "r1", "tool": "vm_shell", "command": "ls /tmp", "exit_code": 2, "timed_out": false, "stdout": "", "stderr": "ls: cannot access '/tmp': No such file"}
{"run_id": "r1", "tool": "vm_shell", "command": "ls /", "exit_code": 0, "timed_out": false, "stdout": "bin\netc", "stderr": ""}
{"run_id": "r1", "tool": "vm_shell", "command": "sleep 99", "exit_code": null, "timed_out": true, "stdout": "", "stderr": ""}
`,
			[]string{`call vm_shell "{\"command\":\"ls /tmp\"}" => "\nls: cannot access '/tmp': No su…" FAILED`, `call vm_shell "{\"command\":\"ls /\"}" => "bin\netc"`, `call vm_shell "{\"command\":\"sleep 99\"}" => "" FAILED`}},
		{"a run's header line before its steps",
			`{"run_id": "r1", "model": "some-model", "started": "2026-01-01T00:00:00Z"}
{"thought": "look for it", "action": "grep -rn parse src", "observation": "src/a.py:3: def parse"}
{"thought": "open it", "action": "cat src/a.py", "observation": "def parse(): pass"}
`,
			[]string{`text[model] "look for it"`, `call grep "grep -rn parse src" => "src/a.py:3: def parse"`,
				`text[model] "open it"`, `call cat "cat src/a.py" => "def parse(): pass"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { readsAsOneAgent(t, "run.jsonl", tc.doc, tc.want) })
	}
	// Records that name their run are read as one session a run: the same call in two runs
	// is no repeat.
	doc := ""
	for run := range 3 {
		for range 2 {
			doc += fmt.Sprintf(`{"run_id": "run-%d", "tool": "read_file", "arguments": {"filename": "notes.txt"}, "result": "Q2 notes"}`+"\n", run)
		}
	}
	tr, err := ReadFrom("runs.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 3 || len(tr.Agents) != 3 || len(tr.Agents[2].Events) != 2 || tr.Agents[2].Session != 2 {
		t.Errorf("runs: %d sessions, %d agents; want 3 sessions of one agent with 2 calls each", tr.Sessions, len(tr.Agents))
	}
	// A log that names no run is cut where it goes quiet for more than half an hour: someone
	// asking again hours later starts a run of their own.
	doc = `{"timestamp": "2026-05-20T00:04:53.1", "tool": "search", "input": {"q": "x"}, "output": "a"}
{"timestamp": "2026-05-20T00:04:58.2", "tool": "search", "input": {"q": "y"}, "output": "b"}
{"timestamp": "2026-05-20T10:05:47.3", "tool": "search", "input": {"q": "x"}, "output": "a"}
{"timestamp": "2026-05-20T10:06:01.3", "tool": "search", "input": {"q": "x"}, "output": "a"}
{"timestamp": 1779465516, "tool": "search", "input": {"q": "x"}, "output": "a"}
`
	if tr, err = ReadFrom("calls.jsonl", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, a := range tr.Agents {
		sizes = append(sizes, len(a.Events))
	}
	if !reflect.DeepEqual(sizes, []int{2, 2, 1}) {
		t.Errorf("calls per session %v, want [2 2 1] (cut ten hours and three days on)", sizes)
	}
	// One step alone among records is no run: a line of a data file may happen to look like one.
	doc = "{\"a\": 1}\n{\"tool_name\": \"x\", \"tool_output\": \"y\"}\n{\"b\": 2}\n{\"c\": 3}\n"
	if _, err := ReadFrom("x.jsonl", strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), "unknown transcript format") {
		t.Errorf("one step among records: error %v, want unknown transcript format", err)
	}
}

// Lists are judged by their first elements (listSampleSize): a long list of data records is
// not searched past them, so a data file is not read whole for chats it does not hold.
func TestLongListsAreJudgedByTheirFirstElements(t *testing.T) {
	chat := `{"log": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`
	records := func(n int) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf(`{"step": %d, "loss": 0.5}`, i))
		}
		return strings.Join(parts, ", ")
	}
	early := `{"rows": [` + chat + ", " + records(40) + `]}`
	if tr, err := ReadFrom("early.json", strings.NewReader(early)); err != nil || tr.Sessions != 1 {
		t.Errorf("a chat among the first elements: %v", err)
	}
	late := `{"rows": [` + records(40) + ", " + chat + `]}`
	if _, err := ReadFrom("late.json", strings.NewReader(late)); err == nil || !strings.Contains(err.Error(), "unknown transcript format") {
		t.Errorf("a chat after 40 records: error %v, want unknown transcript format", err)
	}
}

// CodeAct's execute tags are calls in the order the model wrote them, whatever their kind.
func TestExecuteCallsComeInTextOrder(t *testing.T) {
	calls := executeCalls("First the shell.\n<execute_bash>ls</execute_bash>\nThen Python.\n<execute>1+1</execute>\n<execute_bash>pwd</execute_bash>")
	var got []string
	for _, c := range calls {
		got = append(got, c.name+":"+string(c.args))
	}
	if want := []string{"execute_bash:ls", "execute:1+1", "execute_bash:pwd"}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// A tool response is unwrapped only from Hermes' own envelope: {"name", "content"} and perhaps
// "tool_call_id", the keys as written. Any other object is the tool's answer itself.
func TestToolResponseContentUnwrapsOnlyTheEnvelope(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`{"name": "t", "content": "inner"}`, "inner"},
		{`{"tool_call_id": "c1", "name": "t", "content": {"error_type": "x"}}`, `{"error_type": "x"}`},
		{`{"name":"README.md","path":"README.md","content":"aGVsbG8=","error":"rate limited"}`, `{"name":"README.md","path":"README.md","content":"aGVsbG8=","error":"rate limited"}`},
		{`{"Name":"n","Content":"inner","status":"error"}`, `{"Name":"n","Content":"inner","status":"error"}`},
		{`{"content": "no name, no id"}`, `{"content": "no name, no id"}`},
		{`plain text`, `plain text`},
	} {
		if got := toolResponseContent(tt.body); got != tt.want {
			t.Errorf("toolResponseContent(%s) = %s, want %s", tt.body, got, tt.want)
		}
	}
}

// tau2-bench's results hold the tasks run and the simulations that ran them. A task's
// initial_state.message_history is where a simulation starts from, not a run of its own: the
// runs are the simulations.
func TestTau2TaskInitialStateIsNoRun(t *testing.T) {
	const doc = `{"timestamp": "2026-05-31", "info": {"num_trials": 1},
 "tasks": [{"id": "t4", "initial_state": {"initialization_data": null, "message_history": [
   {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c0", "name": "get_user", "arguments": {"user_id": "u1"}}]},
   {"role": "tool", "id": "c0", "content": "{\"name\": \"Ana\"}"},
   {"role": "assistant", "content": "Found you."},
   {"role": "user", "content": "thanks"}]}}],
 "simulations": [{"id": "s0", "task_id": "t9", "messages": [
   {"role": "assistant", "content": "Hi, how can I help?"},
   {"role": "user", "content": "Cancel my flight."},
   {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "get_reservation", "arguments": {"id": "R1"}}]},
   {"role": "tool", "id": "c1", "content": "{\"status\": \"active\"}"}]}]}`
	tr, err := ReadFrom("results.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 1 || len(tr.Agents) != 1 {
		t.Fatalf("%d sessions, %d agents; want the one simulation", tr.Sessions, len(tr.Agents))
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "get_reservation" {
		t.Errorf("calls %v, want the simulation's get_reservation alone", calls)
	}
}

// The TypeScript port of Trae Agent keeps each step's calls and their tool_results by id; the
// step's messages are the history before it, which lacks a run's last call (validation round
// r99a U1). A call sent with no name that the step answers is a call, failed.
func TestStepsAnswerTheirCallsFromToolResults(t *testing.T) {
	const doc = `{"agent_id": "a1", "task": "write the poem file", "steps": [
{"step_id": "s0", "messages": [{"role": "user", "content": "write the poem file"}], "llm_response_content": "Creating it.",
 "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "edit_tool", "arguments": "{\"command\": \"create\", \"path\": \"p.txt\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "bash_tool", "arguments": "{\"command\": \"ls\"}"}}],
 "tool_results": [{"success": true, "result": "p.txt", "tool_call_id": "call_2"}, {"success": true, "result": {"created": true}, "tool_call_id": "call_1"}], "completed": false},
{"step_id": "s1", "messages": [{"role": "user", "content": "write the poem file"}, {"role": "assistant", "content": "Creating it."}], "llm_response_content": "",
 "tool_calls": [{"id": "call_3", "type": "function", "function": {"arguments": "{}"}}],
 "tool_results": [{"success": false, "error": "Tool 'undefined' not found.", "tool_call_id": "call_3"}], "completed": true}
], "completed": true, "success": true}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, fmt.Sprintf("%s %s failed=%v", c.Tool, c.Result, c.Failed))
	}
	want := []string{`edit_tool {"created":true} failed=false`, `bash_tool p.txt failed=false`, ` Tool 'undefined' not found. failed=true`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An ALFWorld runner keeps each step's observation it was chosen in beside the one its action
// brought, and the action the environment ran (which may be another than the model wrote):
// the call is the action taken, answered by the next observation (validation round r100c U1).
func TestStepsAnsweredByTheirNextObservation(t *testing.T) {
	const doc = `[{"game_id": 15, "task_type": "pick2", "initial_obs": "You are in the middle of a room.", "steps": [
{"step": 1, "observation": "You are in the middle of a room.", "model_response": "Think: find a cd.\nAct: go to drawer 1", "action_taken": "go to drawer 1", "next_observation": "The drawer 1 is closed.", "score": 0, "done": false},
{"step": 2, "observation": "The drawer 1 is closed.", "model_response": "Act: take cd 1", "action_taken": "examine drawer 1", "next_observation": "The drawer 1 is closed.", "score": 0, "done": false}
], "result": "timeout", "total_steps": 2}]`
	tr, err := ReadFrom("all_failures.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, fmt.Sprintf("%s %s => %s", c.Tool, c.Args, c.Result))
	}
	want := []string{`go go to drawer 1 => The drawer 1 is closed.`, `examine examine drawer 1 => The drawer 1 is closed.`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// readsAsOneAgent reads doc as the file name and checks that it holds one agent with the
// events want (see describe).
func readsAsOneAgent(t *testing.T, name, doc string, want []string) {
	t.Helper()
	tr, err := ReadFrom(name, strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 {
		t.Fatalf("%d agents, want 1", len(tr.Agents))
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}
}

// CAMEL's role-playing rounds (OWL's chat_history.json): each round's instruction, the calls
// the assistant made with their results, then its reply; every round's calls are the run's
// (validation round r118b U1: the first round's own list of calls was read as the whole run).
func TestCAMELRoundsAreOneRun(t *testing.T) {
	doc := `[
 {"user": "Instruction: gather background on Alibaba.", "assistant": "Solution: background below.",
  "tool_calls": [{"tool_name": "search_baidu", "args": "{'query': 'Alibaba segments'}", "result": "{'results': []}", "tool_call_id": "call_0_a"},
                 {"tool_name": "get_sec_summary_for_company", "args": "{'company_stock_name': 'BABA'}", "result": "I'm sorry, but I was unable to retrieve the SEC filings for BABA.", "tool_call_id": "call_0_b"}]},
 {"user": "Instruction: obtain the 20-F filings.", "assistant": "Solution: I could not retrieve them.",
  "tool_calls": [{"tool_name": "get_sec_summary_for_company", "args": "{'company_stock_name': 'BABA'}", "result": "I'm sorry, but I was unable to retrieve the SEC filings for BABA.", "tool_call_id": "call_0_c"}]},
 {"user": "Instruction: analyse the trends.", "assistant": "Solution: trends below.", "tool_calls": []}
]`
	expectEvents(t, "Alibaba_chat_history.json", doc, FormatMessages, []string{
		`user "Instruction: gather background o…"`,
		`call search_baidu "{'query': 'Alibaba segments'}" => "{'results': []}"`,
		`call get_sec_summary_for_company "{'company_stock_name': 'BABA'}" => "I'm sorry, but I was unable to r…"`,
		`text[model] "Solution: background below."`,
		`user "Instruction: obtain the 20-F fil…"`,
		`call get_sec_summary_for_company "{'company_stock_name': 'BABA'}" => "I'm sorry, but I was unable to r…"`,
		`text[model] "Solution: I could not retrieve t…"`,
		`user "Instruction: analyse the trends."`,
		`text[model] "Solution: trends below."`,
	})
}

// A harness that logs each call and its answer as messages of their own (Letta's leaderboard
// traces: "tool_call" and "tool_result" roles) has its calls read, the answer's own success
// flag deciding its failure, and the SDK's printed call objects in the reply are no words
// (validation round r118b U2: 334 calls of three real traces were read as none).
func TestToolCallAndResultRolesAreCalls(t *testing.T) {
	doc := `{"session_id": "s1", "conversations": [{"question_number": 1, "success": true, "conversation": [
 {"role": "user", "content": "Generate question #1."},
 {"role": "assistant", "content": ["ToolUseBlock(id='toolu_1', input={'query': 'SELECT 1'}, name='execute_sql', type='tool_use')"]},
 {"role": "tool_call", "tool": "execute_sql", "input": {"query": "SELECT COUNT(*) FROM people"}},
 {"role": "tool_result", "tool": "execute_sql", "result": {"success": true, "result": 500, "error": null}},
 {"role": "tool_call", "tool": "execute_sql", "input": {"query": "SELECT nme FROM people"}},
 {"role": "tool_result", "tool": "execute_sql", "result": {"success": false, "result": null, "error": "no such column: nme"}},
 {"role": "assistant", "content": ["The column is name."]}
]}]}`
	expectEvents(t, "agent_trace_20250725_142722.json", doc, FormatMessages, []string{
		`user "Generate question #1."`,
		`call execute_sql "{\"query\":\"SELECT COUNT(*) FROM p…" => "{\"error\":null,\"result\":500,\"succ…"`,
		`call execute_sql "{\"query\":\"SELECT nme FROM people…" => "{\"error\":\"no such column: nme\",\"…" FAILED`,
		`text[model] "The column is name."`,
	})
}

// A search tree's nodes nest each step two levels below the one before, each node holding
// the chat its model was sent (Moatless' SWE-Search): the chats of a deep node are searched
// however long the run, and the last, longest one is the run (validation round r133b U1: only
// the first four steps' chats were searched, the tests and the finish lost).
func TestSearchTreeNodesAreSearchedAtAnyDepth(t *testing.T) {
	const steps = 10
	chat := []string{`{"role":"user","content":"fix the cache race"}`}
	var node func(k int) string
	node = func(k int) string {
		if k == steps {
			return `{"node_id":` + fmt.Sprint(k) + `,"children":[]}`
		}
		id := fmt.Sprintf("toolu_%d", k)
		chat = append(chat,
			`{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"ViewCode","input":{"line":`+fmt.Sprint(k)+`}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"line `+fmt.Sprint(k)+`"}]}`)
		input := "[" + strings.Join(chat, ",") + "]"
		return `{"node_id":` + fmt.Sprint(k) + `,"completions":{"build_action":{"input":` + input + `}},"children":[` + node(k+1) + `]}`
	}
	doc := `{"max_expansions":1,"max_iterations":20,"root":` + node(0) + `}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 1 || len(tr.Agents) != 1 {
		t.Fatalf("%d sessions, %d agents; want the run as one", tr.Sessions, len(tr.Agents))
	}
	if calls := tr.Agents[0].Calls(); len(calls) != steps || calls[steps-1].Result != fmt.Sprintf("line %d", steps-1) {
		t.Errorf("%d calls (last %+v), want all %d steps, the last answered", len(calls), calls[len(calls)-1], steps)
	}
}

// A run kept twice in one record, as a chat and again as rounds of executions without their
// arguments (General-AgentBench's traces: a tool named with its benchmark's prefix in one and
// without it in the other, a long answer cut short in the second), is one session (validation
// round r164b U1). Two attempts that both keep their arguments stay two runs, the second the
// start of the first.
func TestARunRecordedTwiceInOneRecordIsOneSession(t *testing.T) {
	long := strings.Repeat("x", 200)
	call := func(id, cmd, result string) string {
		return `, {"role": "assistant", "content": "", "tool_calls": [{"id": "` + id + `", "type": "function", "function": {"name": "swebench__swebench_execute_bash", "arguments": "{\"command\": \"` + cmd + `\"}"}}]}, {"role": "tool", "tool_call_id": "` + id + `", "content": "` + result + `"}`
	}
	exec := func(result string) string {
		return `{"tool": "swebench_execute_bash", "success": true, "result": "` + result + `"}`
	}
	doc := `{"benchmark": "swebench", "trace": {"task_id": "t", "messages": [{"role": "user", "content": "fix it"}` +
		call("c1", "ls", "setup.py") + call("c2", "cat setup.py", long) + call("c3", "ls src", "a.py") + call("c4", "cat src/a.py", "pass") + `],
"rounds": [{"round_number": 1, "reasoning": "look", "executions": [` + exec("setup.py") + `, ` + exec(long[:100]+"... [truncated]") + `]},
{"round_number": 2, "reasoning": "read", "executions": [` + exec("a.py") + `, ` + exec("pass") + `]}]}}`
	tr, err := ReadFrom("trace.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 || len(tr.Agents[0].Calls()) != 4 {
		t.Errorf("%d agents, calls %v: want the chat alone, its 4 calls", len(tr.Agents), describe(tr.Agents[0].Calls()))
	}
	attempt := func(cmds ...string) string {
		var b strings.Builder
		b.WriteString(`{"messages": [{"role": "user", "content": "fix it"}`)
		for i, c := range cmds {
			fmt.Fprintf(&b, `, {"role": "assistant", "content": "", "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"%s\"}"}}]}, {"role": "tool", "tool_call_id": "c%d", "content": "ok"}`, i, c, i)
		}
		return b.String() + `]}`
	}
	tr, err = ReadFrom("attempts.json", strings.NewReader(`{"task": "t", "first": `+attempt("ls", "make")+`, "second": `+attempt("ls")+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 2 {
		t.Errorf("two attempts read as %d agents, want 2", len(tr.Agents))
	}
}

// A block of data (```json, or a JSON value in a plain block) is no command: a model giving its
// JSON answer again after each verify prompt ran nothing (validation round r164b U2). The same
// command answered alike stays two calls.
func TestCodeBlocksHoldingDataAreNoCommands(t *testing.T) {
	reply := func(block string) string {
		b, _ := json.Marshal(map[string]string{"role": "assistant", "content": "My answer:\n```" + block + "```"})
		return string(b)
	}
	user := func(text string) string {
		b, _ := json.Marshal(map[string]string{"role": "user", "content": text})
		return string(b)
	}
	tests := []struct {
		name  string
		turns []string
		calls int
	}{
		{"shell lines answered by their output", []string{reply("bash\nls\n"), user("a.py"), reply("bash\ncat a.py\n"), user("pass")}, 2},
		{"the same command answered alike, a loop to tell", []string{reply("bash\nls\n"), user("a.py"), reply("bash\nls\n"), user("a.py")}, 2},
		{"JSON answers", []string{reply("json\n{\"answer\": 3}\n"), user("ok 1"), reply("\n{\"answer\": 4}\n"), user("ok 2")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"trace": {"messages": [` + user("task") + `, ` + strings.Join(tt.turns, ", ") + `]}}`
			tr, err := ReadFrom("trace.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(tr.Agents[0].Calls()); n != tt.calls {
				t.Errorf("%d calls %v, want %d", n, describe(tr.Agents[0].Calls()), tt.calls)
			}
		})
	}
}

func TestCallsWrittenInOtherToolCallDialects(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"Hermes' JSON", "Let me look.\n<tool_call>\n{\"name\": \"run_cmd\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>",
			[]string{`run_cmd:{"command":"ls"}`}},
		{"the name and JSON arguments in tags of their own", "<tool_call>\n<name>run_cmd</name>\n<arguments>\n{\"command\": \"sqlite3 --version\"}\n</arguments>\n</tool_call>",
			[]string{`run_cmd:{"command":"sqlite3 --version"}`}},
		{"each argument in a tag", "<tool_call><name>run_cmd</name><arguments><command>cat a.sql</command><timeout>30</timeout></arguments></tool_call>",
			[]string{`run_cmd:{"command":"cat a.sql","timeout":"30"}`}},
		{"GLM-4.5's keys and values", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>pytest -q</arg_value>\n</tool_call>",
			[]string{`bash:{"command":"pytest -q"}`}},
		{"invoke blocks, as Anthropic's function_calls and MiniMax-M2 write them",
			"<function_calls>\n<invoke name=\"Bash\">\n<parameter name=\"command\">ls -la</parameter>\n</invoke>\n<invoke name=\"Read\">\n<parameter name=\"file_path\">/a.py</parameter>\n</invoke>\n</function_calls>",
			[]string{`Bash:{"command":"ls -la"}`, `Read:{"file_path":"/a.py"}`}},
		{"ARIA's stored script, run as a tool call is (r168b U2)", "<run_script>\n{\"name\": \"rocketchat_login\", \"arguments\": {\"username\": \"u\"}}\n</run_script>",
			[]string{`rocketchat_login:{"username":"u"}`}},
		{"code between <code> tags at a line's start", "Action: Write a script.\n<code>\nprint(1)\n</code>", []string{`code:{"code":"print(1)"}`}},
		{"<code> inside a line is markup, not an action", "Run <code>make</code> first.", nil},
		{"a block naming no tool is no call", "<tool_call><arguments>{\"x\": 1}</arguments></tool_call>", nil},
		{"prose about a tag is no call", "Wrap the name in <name>tags</name> when you write it.", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range writtenCalls(tt.text) {
			got = append(got, c.name+":"+string(c.args))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: calls %q, want %q", tt.name, got, tt.want)
		}
	}
}

// FuzzWrittenCalls reads calls out of arbitrary model text: no panic, and every call found has
// a name.
func FuzzWrittenCalls(f *testing.F) {
	f.Add("<tool_call>\n<name>run_cmd</name>\n<arguments><command>ls</command></arguments>\n</tool_call>")
	f.Add("<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>")
	f.Add("<function_calls><invoke name=\"Bash\"><parameter name=\"command\">ls</parameter></invoke></function_calls>")
	f.Add("<tool_call>{\"name\": \"x\", \"arguments\": {}}</tool_call><execute>1</execute>")
	f.Add("Action: x\n<code>\nprint(1)\n</code><run_script>{\"name\": \"s\"}</run_script>")
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range writtenCalls(text) {
			if c.name == "" {
				t.Fatalf("a call with no name in %q", text)
			}
		}
	})
}

// smolagents writes its memory as messages with roles of its own: "tool-call" ("Calling
// tools:" and the Python repr of the calls) and "tool-response" ("Observation:" and what the
// call gave back, or "Call id:" and "Error:" for a step that raised).
func TestSmolagentsToolCallAndResponseRolesAreCalls(t *testing.T) {
	doc := `[{"role": "system", "content": [{"type": "text", "text": "You are an expert assistant."}]},
 {"role": "user", "content": [{"type": "text", "text": "New task:\nHow many files are in /data?"}]},
 {"role": "assistant", "content": [{"type": "text", "text": "Thought: list it.\n<code>\nimport os\n</code>"}]},
 {"role": "tool-call", "content": [{"type": "text", "text": "Calling tools:\n[{'id': 'call_1', 'type': 'function', 'function': {'name': 'python_interpreter', 'arguments': \"import os\\nprint(len(os.listdir('/data')))\"}}]"}]},
 {"role": "tool-response", "content": [{"type": "text", "text": "Call id: call_1\nError:\nCode execution failed at line 'import os' due to: InterpreterError: Import of os is not allowed.\nNow let's retry: take care not to repeat previous errors!"}]},
 {"role": "assistant", "content": [{"type": "text", "text": "Thought: search instead."}]},
 {"role": "tool-call", "content": [{"type": "text", "text": "Calling tools:\n[{'id': 'call_2', 'type': 'function', 'function': {'name': 'web_search', 'arguments': {'query': 'files in /data', 'filter_year': None}}}]"}]},
 {"role": "tool-response", "content": [{"type": "text", "text": "Observation:\nNo results found."}]}]`
	expectEvents(t, "memory.json", doc, FormatMessages, []string{
		`text[system] "You are an expert assistant."`,
		`user "New task:\nHow many files are in …"`,
		`text[model] "Thought: list it.\n<code>\nimport …"`,
		`call python_interpreter "import os\nprint(len(os.listdir('…" => "Error:\nCode execution failed at …" FAILED`,
		`text[model] "Thought: search instead."`,
		`call web_search "{\"filter_year\":null,\"query\":\"fil…" => "No results found."`,
	})
}

// FuzzSmolagentsMessages reads arbitrary tool-call and tool-response texts: no panic, and every
// call read has a name.
func FuzzSmolagentsMessages(f *testing.F) {
	f.Add("Calling tools:\n[{'id': 'call_1', 'type': 'function', 'function': {'name': 'python_interpreter', 'arguments': 'print(1)'}}]")
	f.Add("Calling tools:\n[{'id': 'c', 'function': {'name': 'web_search', 'arguments': {'query': 'x', 'n': [1, 2.5, None, True]}}}]")
	f.Add("Call id: call_1\nError:\nboom")
	f.Fuzz(func(t *testing.T, text string) {
		calls, _ := smolagentsCalls(text)
		for _, c := range calls {
			if c.name == "" {
				t.Fatalf("a call with no name in %q", text)
			}
		}
		smolagentsResult(text)
	})
}

// A log that keeps a conversation one step a line, each line the messages that step added
// (Replit Agent's memory records), is one conversation; lines that each open a conversation
// of their own stay runs of their own.
func TestMessageRecordsOneStepALineAreOneConversation(t *testing.T) {
	steps := `{"memory_id": 7, "messages": [{"role": "user", "content": [{"type": "text", "text": "unpack the zip"}]}]}
{"memory_id": 8, "messages": [{"role": "assistant", "content": [], "tool_calls": [{"type": "tool", "name": "bash", "arguments": {"command": "unzip -l a.zip"}}]}, {"role": "tool", "content": [{"type": "text", "text": "unzip: command not found"}]}]}
{"memory_id": 9, "messages": [{"role": "assistant", "content": [], "tool_calls": [{"type": "tool", "name": "bash", "arguments": {"command": "ls"}}]}, {"role": "tool", "content": [{"type": "text", "text": "a.zip"}]}]}
{"memory_id": 10, "messages": [{"role": "user", "content": [{"type": "text", "text": "go on"}]}]}
{"memory_id": 11, "messages": [{"role": "assistant", "content": [], "tool_calls": [{"type": "tool", "name": "bash", "arguments": {"command": "unzip -l a.zip"}}]}, {"role": "tool", "content": [{"type": "text", "text": "unzip: command not found"}]}]}
`
	runs := `{"messages": [{"role": "user", "content": "list"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "a.zip"}]}
{"messages": [{"role": "system", "content": "be brief"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "a.zip"}]}
`
	for _, tc := range []struct {
		name           string
		doc            string
		sessions       int
		callsOfAgent0  int
		lastResultText string
	}{
		{"steps of one conversation, a person's later turn among them", steps, 1, 3, "unzip: command not found"},
		{"a conversation a line", runs, 2, 1, "a.zip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadFrom("memory.jsonl", strings.NewReader(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Sessions != tc.sessions || len(tr.Agents) != tc.sessions {
				t.Fatalf("%d sessions, %d agents; want %d of each", tr.Sessions, len(tr.Agents), tc.sessions)
			}
			var calls []loopguard.Event
			for _, e := range tr.Agents[0].Events {
				if e.Type == loopguard.EventCall {
					calls = append(calls, e)
				}
			}
			if len(calls) != tc.callsOfAgent0 || calls[len(calls)-1].Result != tc.lastResultText {
				t.Fatalf("agent 0 has %d calls, the last answered %q; want %d, %q", len(calls), calls[len(calls)-1].Result, tc.callsOfAgent0, tc.lastResultText)
			}
		})
	}
}
