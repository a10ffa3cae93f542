package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// moatlessRunDoc is a Moatless Tools run as its loop saves it (the shape of the runs kept in
// moatless-tools' tests/trajectories): states, each with the model's completions in it. The
// planner sends the same instructions three times and the editor answers each attempt that
// its replacement equals the search.
func moatlessRunDoc() string {
	var b strings.Builder
	b.WriteString(`{"name":"MoatlessTools","transition_rules":{"initial_state":"SearchCode"},"workspace":{"repository":{"type":"git"}},` +
		`"initial_message":"Voting estimator will fail at fit if weights are passed and an estimator is None","current_transition_id":9,"transitions":[` +
		`{"id":0,"name":"Pending"},` +
		`{"id":1,"name":"SearchCode","actions":[{"request":{"scratch_pad":"Look for VotingClassifier.fit.","search_requests":[{"query":"VotingClassifier fit"}],"complete":false},` +
		`"response":{"trigger":"did_search","output":{"ranked_spans":[{"file_path":"sklearn/ensemble/voting.py","span_id":"VotingClassifier.fit"}]}},` +
		`"completion":{"model":"claude-3-5-sonnet-20240620","usage":{"completion_cost":0.01,"completion_tokens":100,"prompt_tokens":1000}}}]}`)
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, `,{"id":%d,"name":"PlanToCode","actions":[{"request":{"scratch_pad":"Skip None estimators when passing sample_weight.","action":"modify","file_path":"sklearn/ensemble/voting.py","span_id":"_BaseVoting.fit","instructions":"Skip None estimators when passing sample_weight."},`+
			`"response":{"trigger":"edit_code","output":{"instructions":"Skip None estimators when passing sample_weight.","file_path":"sklearn/ensemble/voting.py","span_id":"_BaseVoting.fit","start_line":270,"end_line":280}},`+
			`"completion":{"model":"claude-3-5-sonnet-20240620","usage":{"completion_cost":0.01,"completion_tokens":100,"prompt_tokens":1000}}}]}`, 2+2*i)
		fmt.Fprintf(&b, `,{"id":%d,"name":"EditCode","actions":[{"request":{"content":"<replace>\n        return super().fit(X, transformed_y, sample_weight)\n</replace>"},`+
			`"response":{"trigger":"retry","retry_message":"The code in the replace tag is the same as in the search. Use the reject function if you can't do any changes and want to reject the instructions."}},`+
			`{"request":{"content":"<reject>\nThe code in the replace tag is the same as in the search.\n</reject>"},"response":{"trigger":"reject","output":{"message":"\nThe code in the replace tag is the same as in the search.\n"}}}]}`, 3+2*i)
	}
	b.WriteString(`],"info":{"instance_id":"scikit-learn__scikit-learn-13779","status":"error","total_cost":0.05}}`)
	return b.String()
}

// moatlessLoopDoc is a run of Moatless 0.0.x ("AgenticLoop", its SWE-bench Lite submissions
// of June 2024): the same states, the request under "action", the state's answer under
// "output" or, when it asked the model to try again, "retry_message", and each action's usage
// beside it. The editor is told three times that its replacement equals the search.
func moatlessLoopDoc() string {
	var b strings.Builder
	b.WriteString(`{"name":"AgenticLoop","initial_message":"Migration crashes when a unique_together is removed","transitions":[` +
		`{"name":"SearchCode","state":{"include_message_history":true,"model":"claude-3-5-sonnet-20240620","temperature":0.0},"actions":[` +
		`{"action":{"scratch_pad":"Find the schema editor.","search_requests":[{"query":"_delete_unique_constraint"}],"complete":false},` +
		`"output":{"ranked_spans":[{"file_path":"django/db/backends/base/schema.py","span_id":"BaseDatabaseSchemaEditor","rank":0}]},"completion_cost":0.02,"input_tokens":2000,"output_tokens":100}]},` +
		`{"name":"ClarifyCodeChange","state":{"model":"claude-3-5-sonnet-20240620"},"actions":[` +
		`{"action":{"scratch_pad":"Pick the lines.","start_line":74,"end_line":74},"retry_message":"The line numbers 74 - 74 only covers to the signature of the Class.","completion_cost":0.01,"input_tokens":1000,"output_tokens":50},` +
		`{"action":{"scratch_pad":"Give up on these lines.","start_line":74,"end_line":74,"reject":true},"output":{"message":"Give up on these lines."},"completion_cost":0.01,"input_tokens":1000,"output_tokens":50}]},` +
		`{"name":"EditCode","state":{"model":"claude-3-5-sonnet-20240620"},"actions":[`)
	for i := 0; i < 3; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"action":{"content":"<replace>\n    def _delete_unique_constraint(self, model, fields, name):\n</replace>"},` +
			`"retry_message":"The code in the replace tag is the same as in the search. Use the reject function if you can't do any changes and want to reject the instructions.",` +
			`"completion_cost":0.01,"input_tokens":1000,"output_tokens":50}`)
	}
	b.WriteString(`]},{"name":"EditCode","state":{"model":"claude-3-5-sonnet-20240620"},"actions":[` +
		`{"action":{"content":"<replace>\n    def _delete_unique_constraint(self, model, fields, name=None):\n</replace>"},` +
		`"output":{"message":"Applied the change to django/db/backends/base/schema.py.","diff":"--- a\n+++ b\n","errors":[{"code":"E1120","message":"No value for argument"}]},` +
		`"completion_cost":0.01,"input_tokens":1000,"output_tokens":50}]}],` +
		`"info":{"evaluation_name":"20240623_moatless_claude-3.5-sonnet","instance_id":"django__django-15738","status":"finished","total_cost":0.08}}`)
	return b.String()
}

// moatlessStepsDoc is a run of Moatless's first shape (June 2024's gpt-4o run): steps of
// named actions, each with its input and output. The edit is refused twice for the same
// placeholder, then the model rejects the change.
func moatlessStepsDoc() string {
	refused := `{"name":"search_replace","input":{"file_path":"django/forms/widgets.py","span_id":"MultiWidget","start_line":800,"end_line":812,"replacement_code":"    # ..."},` +
		`"output":{"diff":null,"error":"MultiWidget has a placeholder ` + "`# ...`" + ` indicating that it's not fully implemented.","new_span_ids":[],"updated":false}}`
	return `{"name":"moatless","input":{"problem_statement":"Remove for = ... from MultiWidget's <label>."},"steps":[` +
		`{"name":"SearchLoop_Searching","actions":[{"name":"search","input":{"query":"MultiWidget id_for_label","file_pattern":"**/forms/widgets.py"},` +
		`"output":{"file_context":[{"file_path":"django/forms/widgets.py","spans":[{"span_id":"MultiWidget","tokens":900}]}],"message":"Found 1 span."}}],"completion_cost":0.02},` +
		`{"name":"SearchLoop_Searching","actions":[{"name":"identify","input":{"reasoning":"MultiWidget.id_for_label appends _0.","files_with_spans":[{"file_path":"django/forms/widgets.py","span_ids":["MultiWidget"]}]},"output":{}}],"completion_cost":0.01},` +
		`{"name":"CodeLoop_CodeChange","actions":[` + refused + `]},` +
		`{"name":"CodeLoop_CodeChange","thought":"Write the whole method this time.","actions":[` + refused + `]},` +
		`{"name":"CodeLoop_Pending","actions":[{"name":"reject","input":{"reason":"The span cannot be changed without the placeholder."},"output":null}]},` +
		`{"name":"CodeLoop_Pending","error":"Failed to parse arguments: Expecting value: line 1 column 1 (char 0)"}` +
		`],"output":{"message":"Rejected."},"info":{"evaluation_name":"20240609_moatless_gpt4o","instance_id":"django__django-15061","total_cost":0.05}}`
}

// moatlessRejectDoc is a Moatless 0.0.x run whose editor rejects its instructions in its
// content and whose applied edit brings lint findings.
func moatlessRejectDoc() string {
	return `{"name":"AgenticLoop","initial_message":"Fix RepeatedKFold's repr","transitions":[{"name":"EditCode","state":{"model":"gpt-4o-2024-05-13"},"actions":[` +
		`{"action":{"content":"<reject>\nThe code in the replace tag is the same as in the search.\n</reject>"},"output":{"message":"The code in the replace tag is the same as in the search."},"completion_cost":0.01,"input_tokens":900,"output_tokens":30},` +
		`{"action":{"content":"<replace>\n    def __repr__(self):\n        return _build_repr(self)\n</replace>"},` +
		`"output":{"message":"Applied the change to sklearn/model_selection/_split.py.","diff":"--- a\n+++ b\n","lint_messages":[{"lint_id":"E1101","message":"Instance of '_RepeatedSplits' has no 'n_splits' member","line":1217}]},` +
		`"completion_cost":0.01,"input_tokens":900,"output_tokens":30}]}],"info":{"instance_id":"scikit-learn__scikit-learn-14983"}}`
}

// Both formats read as their states' calls: each action a call named after its state, the
// model's scratch pad its words before it, a retry or a rejection failed, usage summed.
func TestMoatlessRunsReadAsTheirStatesCalls(t *testing.T) {
	tests := []struct {
		name, file, doc string
		want            []string // the events, from the first
		usage           Usage
		calls           int
		notices         []string
		lastHas         string // in the last call's result
	}{
		{
			// The planner restating the same plan between rejected edits is a loop, told at
			// its third.
			name: "states holding requests and responses", file: "trajectory.json", doc: moatlessRunDoc(),
			want: []string{
				`user "Voting estimator will fail at fi…"`,
				`text[model] "Look for VotingClassifier.fit."`,
				`call SearchCode "{\"complete\":false,\"search_reques…" => "did_search\n{\"ranked_spans\":[{\"fi…"`,
				`text[model] "Skip None estimators when passin…"`,
				`call PlanToCode "{\"action\":\"modify\",\"file_path\":\"…" => "edit_code\n{\"instructions\":\"Skip …"`,
				`call EditCode "{\"content\":\"<replace>\\n        r…" => "The code in the replace tag is t…" FAILED`,
				`call EditCode "{\"content\":\"<reject>\\nThe code i…" => "\nThe code in the replace tag is …" FAILED`,
			},
			usage: Usage{InputTokens: 4000, OutputTokens: 400, CostUSD: 0.04, Model: "claude-3-5-sonnet-20240620"},
			calls: 10, notices: []string{"call 7: thought same thought × 3"},
		},
		{
			// 0.0.x: the editor told three times that it changed nothing is stuck, told at the
			// third; the landing edit's lint errors are in its result.
			name: "0.0.x: actions and outputs", file: "django__django-15738.json", doc: moatlessLoopDoc(),
			want: []string{
				`user "Migration crashes when a unique_…"`,
				`text[model] "Find the schema editor."`,
				`call SearchCode "{\"complete\":false,\"search_reques…" => "{\"ranked_spans\":[{\"file_path\":\"d…"`,
				`text[model] "Pick the lines."`,
				`call ClarifyCodeChange "{\"end_line\":74,\"start_line\":74}" => "The line numbers 74 - 74 only co…" FAILED`,
				`text[model] "Give up on these lines."`,
				`call ClarifyCodeChange "{\"end_line\":74,\"reject\":true,\"st…" => "Give up on these lines." FAILED`,
				`call EditCode "{\"content\":\"<replace>\\n    def _…" => "The code in the replace tag is t…" FAILED`,
				`call EditCode "{\"content\":\"<replace>\\n    def _…" => "The code in the replace tag is t…" FAILED`,
				`call EditCode "{\"content\":\"<replace>\\n    def _…" => "The code in the replace tag is t…" FAILED`,
				`call EditCode "{\"content\":\"<replace>\\n    def _…" => "Applied the change to django/db/…"`,
			},
			usage: Usage{InputTokens: 8000, OutputTokens: 400, CostUSD: 0.08, Model: "claude-3-5-sonnet-20240620"},
			calls: 7, notices: []string{"call 6: stuck EditCode × 3"},
			lastHas: `verification errors: [{"code":"E1120"`,
		},
		{
			// 0.0.x: a reject written as the editor's content failed; the lint findings of
			// the edit that landed are in its answer.
			name: "0.0.x: a reject in the content, lint findings", file: "scikit-learn__scikit-learn-14983.json", doc: moatlessRejectDoc(),
			want: []string{
				`user "Fix RepeatedKFold's repr"`,
				`call EditCode "{\"content\":\"<reject>\\nThe code i…" => "The code in the replace tag is t…" FAILED`,
				`call EditCode "{\"content\":\"<replace>\\n    def _…" => "Applied the change to sklearn/mo…"`,
			},
			usage: Usage{InputTokens: 1800, OutputTokens: 60, CostUSD: 0.02, Model: "gpt-4o-2024-05-13"},
			calls: 2, notices: nil,
			lastHas: `Instance of '_RepeatedSplits' has no 'n_splits' member`,
		},
		{
			// The first shape: a call per action, the model's reasoning its words, a refused
			// edit, a reject and a reply that could not be read failed.
			name: "the first runs: steps of named actions", file: "django__django-15061.json", doc: moatlessStepsDoc(),
			want: []string{
				`user "Remove for = ... from MultiWidge…"`,
				`call search "{\"file_pattern\":\"**/forms/widget…" => "Found 1 span."`,
				`text[model] "MultiWidget.id_for_label appends…"`,
				`call identify "{\"files_with_spans\":[{\"file_path…" => ""`,
				`call search_replace "{\"end_line\":812,\"file_path\":\"dja…" => "MultiWidget has a placeholder ` + "`" + `#…" FAILED`,
				`text[model] "Write the whole method this time…"`,
				`call search_replace "{\"end_line\":812,\"file_path\":\"dja…" => "MultiWidget has a placeholder ` + "`" + `#…" FAILED`,
				`call reject "{\"reason\":\"The span cannot be ch…" => "" FAILED`,
				`call CodeLoop_Pending "" => "Failed to parse arguments: Expec…" FAILED`,
			},
			usage: Usage{CostUSD: 0.03},
			calls: 6, notices: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom(tt.file, strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatMoatless || len(tr.Agents) != 1 {
				t.Fatalf("read as %q with %d agents", tr.Format, len(tr.Agents))
			}
			if got := describe(tr.Agents[0].Events); len(got) < len(tt.want) || !reflect.DeepEqual(got[:len(tt.want)], tt.want) {
				t.Errorf("events:\n%s\nwant first:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			u := tr.Usage
			if u.InputTokens != tt.usage.InputTokens || u.OutputTokens != tt.usage.OutputTokens || u.Model != tt.usage.Model ||
				u.CostUSD < tt.usage.CostUSD-0.001 || u.CostUSD > tt.usage.CostUSD+0.001 {
				t.Errorf("usage %+v, want %+v", u, tt.usage)
			}
			events := tr.Agents[0].Events
			if last := events[len(events)-1]; tt.lastHas != "" && !strings.Contains(last.Result, tt.lastHas) {
				t.Errorf("the last call's result %q does not hold %q", last.Result, tt.lastHas)
			}
			calls, notices := defaultNotices(t, tr.Agents[0])
			if calls != tt.calls || !reflect.DeepEqual(notices, tt.notices) {
				t.Errorf("%d calls, notices %q; want %d calls and %q", calls, notices, tt.calls, tt.notices)
			}
		})
	}
}
