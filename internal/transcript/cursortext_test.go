package transcript

import (
	"reflect"
	"strings"
	"testing"
)

const cursorTranscript = `user:
<attached_files>
<code_selection path="/w/app/vite.config.js" lines="1-3">
export default { base: '/app/' }
</code_selection>
</attached_files>
<user_query>
the page is blank on GitHub Pages
</user_query>

assistant:
[Thinking] The base path may be wrong.
Let me read the config and the README.
[Tool call] Read
  path: /w/app/vite.config.js
[Tool call] Read
  path: /w/app/README.md

[Tool result] Read

[Tool result] Read

assistant:
[Tool call] StrReplace
  path: /w/app/vite.config.js
  old_string: export default {
  base: '/app/',

  plugins: [react()],
  new_string: export default {
  base: '/App/',

[Tool result] StrReplace

assistant:
[Tool call] Shell
  command: npm run build
  description: Build the site

[Tool result] Shell
vite v5.4.2 building for production...
✓ built in 1.21s

assistant:
Fixed the base path; run ` + "`npm run deploy`" + ` again.

user:
<user_query>
thanks
</user_query>
`

func TestCursorTextTranscript(t *testing.T) {
	tr, err := ReadFrom("0c6d7e2a-agent.txt", strings.NewReader(cursorTranscript))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`text[context] "<attached_files>\n<code_selection…"`,
		`user "the page is blank on GitHub Page…"`,
		`text[reasoning] "The base path may be wrong."`,
		`text[model] "Let me read the config and the R…"`,
		`call Read "{\"path\":\"/w/app/vite.config.js\"}" => -`,
		`call Read "{\"path\":\"/w/app/README.md\"}" => -`,
		`call StrReplace "{\"new_string\":\"export default {\\…" => -`,
		`call Shell "{\"command\":\"npm run build\",\"desc…" => "vite v5.4.2 building for product…"`,
		`text[model] "Fixed the base path; run ` + "`npm ru…" + `"`,
		`user "thanks"`,
	}
	if tr.Format != FormatCursorText {
		t.Fatalf("read as %q", tr.Format)
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A parameter's value runs on over its lines, blank ones included, to the next parameter.
	edit := string(tr.Agents[0].Calls()[2].Args)
	if !strings.Contains(edit, `"old_string":"export default {\n  base: '/app/',\n\n  plugins: [react()],"`) {
		t.Errorf("the edit's arguments %s", edit)
	}
}

// The same chats kept as JSON lines carry the role outside the message.
func TestCursorJSONLTranscript(t *testing.T) {
	doc := `{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\ncreate a test file\n</user_query>"}]}}
{"role":"assistant","message":{"content":[{"type":"text","text":"Creating it."},{"type":"tool_use","name":"Write","input":{"path":"/w/t.md","contents":"# Test\n"}}]}}
{"role":"assistant","message":{"content":[{"type":"text","text":"Created t.md."}]}}
`
	tr, err := ReadFrom("raw_transcript", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "Write" || calls[0].HasResult {
		t.Errorf("read as %s: calls %+v, want the one Write, unanswered", tr.Format, calls)
	}
}

func FuzzCursorText(f *testing.F) {
	f.Add([]byte(cursorTranscript))
	f.Add([]byte("user:\nx\nassistant:\n[Tool result] A\n[Tool call] B\n  :\n  k:v\n[Thinking] \n"))
	fuzzReader(f, readCursorText)
}
