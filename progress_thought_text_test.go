package loopguard

// The thought rules on text and calls fed in the order a host sees them: turns, replies,
// stale calls.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// textRun feeds one agent's events to an engine with the default preset and keeps every
// notice as "index:kind:summary".
type textRun struct {
	e   *Engine
	n   int
	got []string
}

func newTextRun(t *testing.T) *textRun {
	t.Helper()
	e, err := New(defaultProgress(nil))
	if err != nil {
		t.Fatal(err)
	}
	return &textRun{e: e}
}

func (r *textRun) feed(ev Event) {
	ev.Agent = "a"
	for _, n := range r.e.Observe(ev) {
		r.got = append(r.got, fmt.Sprintf("%d:%s:%s", r.n, n.Kind, n.Summary))
	}
	r.n++
}

func (r *textRun) say(id, s string) {
	r.feed(Event{Type: EventText, Source: "model", ID: id, Text: s})
}

// sayIn is say for a host that names the reply that wrote the text (Event.Turn).
func (r *textRun) sayIn(turn, id, s string) {
	r.feed(Event{Type: EventText, Source: "model", ID: id, Text: s, Turn: turn})
}

func (r *textRun) call(tool, args, result string) {
	r.feed(Call("a", tool, []byte(args)).WithResult(result, false))
}

func (r *textRun) thoughts() []string {
	var out []string
	for _, g := range r.got {
		if strings.Contains(g, ":"+KindThought+":") {
			out = append(out, g)
		}
	}
	return out
}

// sameLinesSeen is what every call of the stale tests answers: lines the model has seen already
// after the first call.
const sameLinesSeen = "def parse(tokens):\n    return grammar.apply(tokens)\nclass Grammar:\n    pass"

// staleRun says text(i) eight times, each turn followed by a call of its own (new arguments,
// so no same-call rule speaks) that brings back only lines already seen.
func staleRun(t *testing.T, text func(i int) string) []string {
	r := newTextRun(t)
	for i := 0; i < 8; i++ {
		r.say(fmt.Sprint("m", i), text(i))
		r.call("view", fmt.Sprintf(`{"path":"a.py","view_range":[%d,%d]}`, 10+i, 30+i), sameLinesSeen)
	}
	return r.thoughts()
}

// A reply that writes a line before each of its calls (Anthropic's content blocks: text,
// tool_use, text, tool_use) is one turn, its calls one reply (Event.Turn), and its first text
// stands for it: the same reply made 22 times over, every call bringing nothing new, is the
// same thought 22 times, not two thoughts taking turns.
func TestTextAfterAReplysFirstCallIsNotANewTurn(t *testing.T) {
	r := newTextRun(t)
	res := "a.py:3: x = load()\nb.py:4: y = load()"
	for i := 0; i < 22; i++ {
		r.say(fmt.Sprint("m", i, "a"), "Let me look for where load is defined.")
		c := Call("a", "grep", []byte(fmt.Sprintf(`{"pattern":"load%d"}`, i))).WithResult(res, false)
		c.Turn = fmt.Sprint("r", i)
		r.feed(c)
		r.say(fmt.Sprint("m", i, "b"), "And also check the tests.")
		c = Call("a", "grep", []byte(fmt.Sprintf(`{"pattern":"test_load%d"}`, i))).WithResult(res, false)
		c.Turn = fmt.Sprint("r", i)
		r.feed(c)
	}
	if len(r.thoughts()) == 0 {
		t.Errorf("the same reply 22 times, its calls bringing nothing new: no thought notice (%v)", r.got)
	}
}

// Code fenced with tildes is code as much as code fenced with backticks, and a block closes
// only with the fence it opened with: twelve rows of a seed script are no reply repeating
// itself.
func TestTildeFencedCodeIsNotAReplyRepeatingItself(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&rows, "INSERT INTO users (id, name, email) VALUES (%d, 'user%d', 'user%d@example.com');\n", i, i, i)
	}
	for _, fence := range [][2]string{{"```", "```"}, {"~~~", "~~~"}, {"````", "````"}, {"```", "~~~\n```"}} {
		t.Run(fence[0], func(t *testing.T) {
			r := newTextRun(t)
			r.say("m1", "Here is the seed script:\n\n"+fence[0]+"sql\n"+rows.String()+fence[1]+"\n\nRun it with psql.")
			if got := r.thoughts(); len(got) > 0 {
				t.Errorf("a fenced code block told as a reply repeating itself: %v", got)
			}
		})
	}
}

// A thought of a kilobyte or more (thinking blocks are) said again with one word changed is
// the same thought, as a short one is: long texts are compared word by word too, not line by
// line, where one paragraph is one line.
func TestALongThoughtSaidAgainNearlyIsTheSameThought(t *testing.T) {
	para := "The failing test still expects the parser to accept trailing commas in the config so I should look at how the tokenizer treats a comma before the closing brace and whether the grammar allows it there. "
	adverbs := []string{"apparently", "clearly", "evidently", "seemingly", "obviously", "certainly", "plainly", "surely"}
	vary := func(s string, i int) string { return strings.Replace(s, "still", adverbs[i%len(adverbs)], 1) }
	for _, tt := range []struct {
		name string
		text func(i int) string
	}{
		{"600 bytes, one paragraph (control)", func(i int) string { return vary(strings.Repeat(para, 6), i)[:600] }},
		{"1,200 bytes, one paragraph", func(i int) string { return vary(strings.Repeat(para, 6), i) }},
		{"1,200 bytes, three paragraphs", func(i int) string {
			p := strings.Repeat(para, 2)
			return vary(p, i) + "\n\n" + p + "\n\n" + p
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := staleRun(t, tt.text); len(got) == 0 {
				t.Errorf("the same thought said 8 times, one word changed each time, every call bringing nothing new: no thought notice")
			}
		})
	}
}

// A reply that repeats a block 50 times, written just after a notice on another loop, is
// told once the quiet calls are over, not dropped.
func TestAReplyRepeatingItselfIsToldAfterTheQuietCalls(t *testing.T) {
	block := "Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n"
	r := newTextRun(t)
	for i := 0; i < 3; i++ { // a stuck notice at the third
		r.call("grep", `{"pattern":"msubsup"}`, "a.py:3: msubsup\nb.py:9: msubsup here")
	}
	r.say("m1", strings.Repeat(block, 50))
	for i := 0; i < 12; i++ {
		r.call("view", fmt.Sprintf(`{"path":"x%d.py"}`, i), fmt.Sprintf("content of file %d\nline two of %d", i, i))
	}
	told := false
	for _, g := range r.got {
		told = told || strings.Contains(g, "text repeats itself")
	}
	if !told {
		t.Errorf("a reply repeating a block 50 times, written two calls after a notice, never told: %v", r.got)
	}
}

// A result of one-field lines (the paths find, ls or grep -l print) brought nothing new when
// it lists the same files again: the same plan said 8 times while eight find commands return
// the same four paths is a thought whose calls bring nothing new.
func TestLinesOfOneFieldAlreadySeenMakeTheThoughtStale(t *testing.T) {
	r := newTextRun(t)
	list := "./src/config.py\n./src/config_test.py\n./docs/config.md\n./tests/test_config.py"
	for i, args := range []string{"-name config*", "-name *config*", "-iname config*", "-path *config*", "-name *.py -path *conf*", "-name conf*", "-regex .*config.*", "-iname *CONFIG*"} {
		r.say(fmt.Sprint("m", i), "I need to find where the config file is loaded.")
		r.call("bash", fmt.Sprintf(`{"command":"find . %s"}`, args), list)
	}
	if len(r.thoughts()) == 0 {
		t.Errorf("the same thought 8 times, every find answering the same four paths: no thought notice (%v)", r.got)
	}
}

// A view going back and forth while the model says the same thing wanders, and is told when
// the model says it again after the view went back twice (its fifth saying here: 500, 450 back,
// 520, 430 back), whether or not another call (a grep each turn) sits between its windows.
func TestGoingBackWithAnotherCallBetweenIsWandering(t *testing.T) {
	places := []int{500, 450, 520, 430, 540, 410, 560, 390, 580, 370, 600, 350, 620, 330, 640, 310, 660, 290, 680, 270, 700, 250}
	for _, withGrep := range []bool{false, true} {
		t.Run(fmt.Sprint("grep between: ", withGrep), func(t *testing.T) {
			r := newTextRun(t)
			for i, p := range places {
				r.say(fmt.Sprint("m", i), "The handler must be somewhere around here.")
				var b strings.Builder
				for l := p; l < p+20; l++ {
					fmt.Fprintf(&b, "%d\tline_%d = handle(%d)\n", l, l, l)
				}
				r.call("view", fmt.Sprintf(`{"path":"a.py","view_range":[%d,%d]}`, p, p+19), b.String())
				if withGrep {
					r.call("grep", fmt.Sprintf(`{"pattern":"handler_%d"}`, i), fmt.Sprintf("src/h%d.py:%d: def handler_%d(req):", i, i, i))
				}
			}
			got := r.thoughts()
			if len(got) == 0 || !strings.HasSuffix(got[0], "same thought × 5") {
				t.Errorf("a view going back and forth, the same thought each turn: %v, want the first at × 5", got)
			}
		})
	}
}

// A reply of text, call, text, call is one turn whose FIRST text stands for it
// (CHANGELOG, docs/detection.md "thought"). The same opening sentence said in 22 replies,
// each reply's calls bringing nothing new, is the same thought 22 times, whatever the
// second text of each reply says.
func TestAReplysFirstTextStandsForItsTurn(t *testing.T) {
	r := newTextRun(t)
	res := "a.py:3: x = load()\nb.py:4: y = load()"
	seconds := []string{"And also check the tests.", "Now the fixtures as well.", "Next the settings module.",
		"Then the command line entry.", "Also the plugin registry.", "Maybe the cache layer too.",
		"Perhaps the migrations folder.", "What about the docs examples?", "Try the vendored copy.",
		"Look under scripts next.", "Check the benchmarks directory.", "See the integration suite.",
		"Inspect the templates folder.", "Review the notebooks quickly.", "Scan the deploy manifests.",
		"Open the legacy package.", "Search the generated stubs.", "Glance at the examples dir.",
		"Peek into the tools folder.", "Query the contrib modules.", "Walk the samples tree.", "Grep the archive."}
	for i := 0; i < 22; i++ {
		r.sayIn(fmt.Sprint("r", i), fmt.Sprint("m", i, "a"), "Let me look for where load is defined.")
		c := Call("a", "grep", []byte(fmt.Sprintf(`{"pattern":"load%d"}`, i))).WithResult(res, false)
		c.Turn = fmt.Sprint("r", i)
		r.feed(c)
		r.sayIn(fmt.Sprint("r", i), fmt.Sprint("m", i, "b"), seconds[i])
		c = Call("a", "grep", []byte(fmt.Sprintf(`{"pattern":"test_load%d"}`, i))).WithResult(res, false)
		c.Turn = fmt.Sprint("r", i)
		r.feed(c)
	}
	if len(r.thoughts()) == 0 {
		t.Errorf("the same first text in 22 replies, every call bringing nothing new: no thought notice (%v)", r.got)
	}
}

// The detailed 6th of a no-progress chain speaks through the quiet calls
// (docs/detection.md: "A no-progress chain reaching a later threshold (the detailed 6th of
// the same-call, made-again and idle counts) still speaks, so a loop that goes on is not
// silenced"). A reply that repeated itself during the quiet calls must not take its place.
func TestHeldSelfRepeatDoesNotSwallowTheDetailedSixth(t *testing.T) {
	block := "Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n"
	r := newTextRun(t)
	for i := 0; i < 3; i++ { // the stuck notice at the third
		r.call("grep", `{"pattern":"msubsup"}`, "a.py:3: msubsup\nb.py:9: msubsup here")
	}
	r.say("m1", strings.Repeat(block, 50)) // held: the quiet calls after the notice last
	for i := 0; i < 3; i++ {               // the 4th, 5th (quiet) and the 6th (an escalation)
		r.call("grep", `{"pattern":"msubsup"}`, "a.py:3: msubsup\nb.py:9: msubsup here")
	}
	sixth := false
	for _, g := range r.got {
		sixth = sixth || strings.HasPrefix(g, "6:") && strings.Contains(g, "× 6")
	}
	if !sixth {
		t.Errorf("the same grep 6 times in a row: no detailed notice at the 6th; got %v", r.got)
	}
}

// The held notice of a reply that repeated itself takes the place of the
// first notice due after the quiet calls: a call repeated a third time with the same answer
// (the 3rd, due then) goes untold until its 6th.
func TestHeldSelfRepeatDoesNotSwallowTheNextLoopsFirstNotice(t *testing.T) {
	block := "Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n"
	r := newTextRun(t)
	for i := 0; i < 3; i++ { // a stuck notice at the third (event 2)
		r.call("grep", `{"pattern":"msubsup"}`, "a.py:3: msubsup\nb.py:9: msubsup here")
	}
	r.say("m1", strings.Repeat(block, 50)) // held: the quiet calls after the notice last
	for i := 0; i < 2; i++ {
		r.call("view", fmt.Sprintf(`{"path":"x%d.py"}`, i), fmt.Sprintf("content of file %d\nline two of %d", i, i))
	}
	for i := 0; i < 5; i++ { // the same read five times: due at its 3rd, the first call after the quiet ones
		r.call("cat", `{"path":"render.py"}`, "def render(node):\n    return mathml(node)")
	}
	stuck := 0
	for _, g := range r.got[1:] {
		if strings.Contains(g, ":stuck:cat") {
			stuck++
		}
	}
	if stuck == 0 {
		t.Errorf("the same read 5 times in a row, its 3rd after the quiet calls: never told; got %v", r.got)
	}
}

// A search for the word "export" (the commonest search in a JavaScript or TypeScript
// code base) reads; it changes nothing. docs/detection.md counts as a change of the
// environment `export`, `unset`, `conda activate`, commands of the shell; a grep whose
// pattern holds the word is no such command. The same plan said 8 times while eight greps
// bring back the same lines is a thought whose calls bring nothing new.
func TestGrepForTheWordExportChangesNothing(t *testing.T) {
	r := newTextRun(t)
	res := "src/components/Button.tsx:12:export default function Button(props: Props) {\nsrc/index.ts:3:export { default as Button } from './components/Button'"
	for i, pat := range []string{"export.*Button", "export default Button", "export { Button", "export const Button",
		"export function Button", "export.*as Button", "export \\* from.*Button", "export type Button"} {
		r.say(fmt.Sprint("m", i), "I need to find where the Button component is exported.")
		r.call("bash", fmt.Sprintf(`{"command":"grep -rn \"%s\" src/"}`, strings.ReplaceAll(pat, `\`, `\\`)), res)
	}
	if len(r.thoughts()) == 0 {
		t.Errorf("the same thought 8 times, every grep answering the same two lines: no thought notice (%v)", r.got)
	}
}

// The model began saying its thought after reading the last call's answer: a search answered
// with that snippet again brings the thought nothing new. A small model said "still not
// found, I should try a different search" before four searches, the first three answered
// with the snippet it had just read, and was told a call late or not at all while that first
// repeat counted as new.
func TestTheAnswerAThoughtBeganOnIsNotNewToIt(t *testing.T) {
	snippet := "A. T. Stewart Era Buildings are a set of department store buildings in Manhattan.\nThey were built between 1846 and 1862 for the merchant Alexander Turney Stewart."
	tests := []struct {
		name      string
		answers   []string // of the calls after the first one, each after the thought
		wantAt    int      // index of the event told, -1 for none
		wantCount string
	}{
		{"every search brings back the snippet the thought began on", []string{snippet, snippet, snippet}, 7, "same thought × 3"},
		{"each search brings something new", []string{"Stewart was born in Lisburn, Ireland.\nHe emigrated to New York in 1818.", "The Marble Palace opened in 1846 on Broadway.\nIt was the first department store.", "The Sun Building later housed the New York Sun.\nIt was designated a landmark in 1986."}, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			r.say("m0", "I need to search for the A. T. Stewart buildings.")
			r.call("search", `{"query":"A. T. Stewart"}`, snippet)
			for i, a := range tt.answers {
				r.say(fmt.Sprint("m", i+1), "The search result still doesn't provide the information I need. I should try a different search.")
				r.call("search", fmt.Sprintf(`{"query":"Stewart building %d"}`, i), a)
			}
			got := r.thoughts()
			switch {
			case tt.wantAt < 0 && len(got) > 0:
				t.Errorf("thought notices %v, want none", got)
			case tt.wantAt >= 0 && (len(got) != 1 || got[0] != fmt.Sprintf("%d:%s:%s", tt.wantAt, KindThought, tt.wantCount)):
				t.Errorf("thought notices %v, want one at event %d (%s); all: %v", got, tt.wantAt, tt.wantCount, r.got)
			}
		})
	}
}

// A text that is nothing but volatile fields (a flag, an id) says what its words say: three
// different flags submitted in turn are three thoughts, the same flag said three times one.
func TestAThoughtOfOnlyVolatileFieldsIsItsWords(t *testing.T) {
	tests := []struct {
		name    string
		flags   []string
		wantOne bool
	}{
		{"three different flags", []string{"4nd_y0uR_Gr0uNd!!}", "tS_u0y_ll1w{4nd_y0uR_Gr0uNd!!}BTH", "tS_u0y_ll1w{4nd_y0uR_Gr0uNd!!}"}, false},
		{"the same flag three times", []string{"HTB{s4m3_fl4g_4g41n}", "HTB{s4m3_fl4g_4g41n}", "HTB{s4m3_fl4g_4g41n}"}, true},
		{"three lists of eight different hashes", []string{
			"3f2a9c1d 7b4e0a22 91cc03fe 0d5e7a41 c4b2e913 5a7f0c3b e81d22a4 6c09b7f5",
			"a41c7e02 2be9f310 7d0c55a1 f3a8e6b4 19d7c0e2 8e2f4b6d 04c1a9f7 bb3e5d20",
			"5e0b9d3c c7a2f148 3d91e6b0 a0f4c7e9 62e8b1d5 f9c3a07e 1b5d8e42 d7e0f6a3"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			// (The model speaks before its first call: until a host has fed any model text
			// the lines results bring are not gathered, see progressState.spoke.)
			r.say("m-", "Let me decode the captured bytes.")
			r.call("python", `{"code":"print(decode())"}`, tt.flags[0])
			for i, f := range tt.flags {
				r.say(fmt.Sprint("m", i), f)
				r.call("submit", fmt.Sprintf(`{"answer":%q}`, f+fmt.Sprint(i)), f)
			}
			if got := r.thoughts(); (len(got) == 1) != tt.wantOne {
				t.Errorf("thought notices %v, want one: %v", got, tt.wantOne)
			}
		})
	}
}

// An empty thinking block ("<think></think>", which GLM-4.6 opens every reply with) says
// nothing: replies that are only one beside their calls are no thought repeated, however the
// calls wander (validation round r56c F1). The words beside one are the thought, as without it.
func TestAnEmptyThinkingBlockIsNoThought(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		wantAny bool
	}{
		{"only an empty block", "<think></think>", false},
		{"an empty block with blank lines in it", "<think>\n\n</think>\n", false},
		{"an empty thinking tag", "<thinking> </thinking>", false},
		{"an empty block before words", "<think></think>\nLet me look at the colors module again.", true},
		{"a block with thinking in it", "<think>The norm is wrong here, look again.</think>", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			for i := 0; i < 14; i++ {
				r.say(fmt.Sprint("m", i), tt.text)
				// Views that go back and forth over a file whose lines were all seen by the
				// second: a thought restated over them is wandering.
				from := []int{1690, 1650, 1775, 1580}[i%4]
				r.call("view", fmt.Sprintf(`{"path":"colors.py","view_range":[%d,%d]}`, from, from+20), sameLinesSeen)
			}
			if got := r.thoughts(); (len(got) > 0) != tt.wantAny {
				t.Errorf("thought notices %v, want some: %v", got, tt.wantAny)
			}
		})
	}
}

func TestWithoutEmptyThinking(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<think></think>", ""},
		{"<think>\n \t\r\n</think>Reading the file.", "Reading the file."},
		{"<thinking></thinking>a<think></think>b", "ab"},
		{"<think>x</think>", "<think>x</think>"},
		{"<think> <think></think>", "<think> "},
		{"no tags at all", "no tags at all"},
		{"</think> closing only", "</think> closing only"},
		{"<think>", "<think>"},
	}
	for _, tt := range tests {
		if got := withoutEmptyThinking(tt.in); got != tt.want {
			t.Errorf("withoutEmptyThinking(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Chinese and Japanese are written without spaces between words: a sentence is one field. Its
// characters are its words as far as likeness goes, so the same sentence with a character or
// two changed each turn is the same thought, as it is in English, while different sentences
// on the same subject are not.
func TestAThoughtInAScriptWithoutSpacesSaidAgainNearly(t *testing.T) {
	zh := []string{
		"我需要检查配置文件中的数据库连接设置，然后修复导致测试失败的问题。",
		"我需要检查配置文件里的数据库连接设置，然后修复导致测试失败的问题。",
		"我需要再次检查配置文件中的数据库连接设置，然后修复导致测试失败的问题。",
		"我需要检查配置文件中的数据库连接设置，然后修复导致这个测试失败的问题。",
		"我需要检查配置文件中的数据库连接配置，然后修复导致测试失败的问题。",
		"我需要检查配置文件中的数据库连接设置，然后修复导致测试失败的错误。",
		"我需要检查配置文件中的数据库的连接设置，然后修复导致测试失败的问题。",
		"我需要检查配置文件中的数据库连接设置，然后去修复导致测试失败的问题。",
	}
	ja := []string{
		"設定ファイルのデータベース接続を確認してから、テストが失敗する原因を修正します。",
		"設定ファイルのデータベース接続をもう一度確認してから、テストが失敗する原因を修正します。",
		"設定ファイルのデータベース接続を確認して、テストが失敗する原因を修正します。",
		"設定ファイルのデータベースの接続を確認してから、テストが失敗する原因を修正します。",
		"設定ファイルのデータベース接続を確認してから、テストが失敗した原因を修正します。",
		"設定ファイルのデータベース接続を確認してから、テストが失敗する理由を修正します。",
		"設定ファイルのデータベース接続を確認してから、このテストが失敗する原因を修正します。",
		"設定ファイルのデータベース接続を確かめてから、テストが失敗する原因を修正します。",
	}
	differentZH := []string{
		"我需要检查配置文件中的数据库连接设置。",
		"测试失败是因为连接超时，我来看看超时的默认值。",
		"默认值定义在常量模块里，先读一下这个模块。",
		"常量模块把超时设为三秒，这对集成测试太短了。",
		"我把超时改成三十秒，然后重新运行失败的测试。",
		"测试通过了，再运行整个测试套件确认没有回归。",
		"整个套件都通过了，现在更新变更日志。",
		"变更日志已更新，任务完成。",
	}
	for _, tt := range []struct {
		name  string
		texts []string
		told  bool
	}{
		{"Chinese, a character or two changed each turn", zh, true},
		{"Japanese, a word changed each turn", ja, true},
		{"Chinese, a different sentence each turn", differentZH, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := staleRun(t, func(i int) string { return tt.texts[i] })
			if told := len(got) > 0; told != tt.told {
				t.Errorf("thought notices %q; want told = %v", got, tt.told)
			}
		})
	}
}

// The same computer-use action made again, the model saying the same words before each, is a
// thought gone stale: the screen it acts on is not in the answer, and the model, having seen
// it, described it as before. A scroll steps through what it shows, and a click that answers
// with what it did is seen (r127b M1).
func TestTheSameActionOnAnUnseenScreenWithTheSameWords(t *testing.T) {
	const words = "Action: Click on the 'X' button in the top-right corner of the 'Help us make LibreOffice even better!' banner to close it."
	repeat := func(n int, call func(i int) step) []step {
		var steps []step
		for i := range n {
			steps = append(steps, thought(words), call(i))
		}
		return steps
	}
	screenshot := func(i int) string { return fmt.Sprintf("reward: 0, done: false\n[screenshot: step_%d.png]", 7+i) }
	tests := []struct {
		name  string
		steps []step
		told  bool
	}{
		{"pyautogui clicks on one pixel", repeat(6, func(i int) step { return ok("pyautogui", "pyautogui.click(1848, 189)", screenshot(i)) }), true},
		{"a computer-use click", repeat(6, func(i int) step {
			return ok("computer", `{"action":"left_click","coordinate":[1848,189]}`, "clicked")
		}), true},
		{"a call whose answer was not kept", repeat(6, func(int) step { return unanswered("Bash", `{"command":"git status"}`) }), true},
		{"scrolling down a long page", repeat(6, func(i int) step { return ok("pyautogui", "pyautogui.scroll(-5)", screenshot(i)) }), false},
		{"a Page Down key", repeat(6, func(int) step { return ok("computer", `{"action":"key","text":"Page_Down"}`, "ok") }), false},
		{"clicks on other places", repeat(6, func(i int) step {
			return ok("pyautogui", fmt.Sprintf("pyautogui.click(%d, 189)", 1700+40*i), screenshot(i))
		}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := progressRun(t, defaultProgress(nil), tt.steps)
			told := slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, ":thought:") })
			if told != tt.told {
				t.Errorf("notices %q: a thought notice %v, want %v", got, told, tt.told)
			}
		})
	}
}

// What a result brought is weighed by how much of it there is to read: a new series of a
// metric on one long line, under the same two lines of its runner's header at every call, is
// news, and a model restating its plan as it queries one metric after another is not told;
// the same series brought back each time is nothing new, and the restated plan is told.
func TestALongNewLineUnderTheSameHeaderIsNews(t *testing.T) {
	series := func(metric string) string {
		var b strings.Builder
		b.WriteString("exitcode: 0 (execution succeeded)\nCode output:\n[{'metric': {'pod': 'ts-" + metric + "'}, 'values': [")
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "['2025-04-01 08:%02d:07', 0.0%d%d], ", 20+i, len(metric)*7+i, i*13%97)
		}
		b.WriteString("]}]")
		return b.String()
	}
	metrics := []string{"cpu", "memory", "latency", "workload", "network"}
	plan := "Steps: 1. Query Prometheus for CPU usage. 2. Query Prometheus for memory usage. 3. Query Prometheus for latency. 4. Query Prometheus for workload. Let's proceed to the next step."
	for _, tt := range []struct {
		name   string
		result func(i int) string
		told   bool
	}{
		{"a new series each time", func(i int) string { return series(metrics[i]) }, false},
		{"the same series each time", func(int) string { return series("cpu") }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			for i, m := range metrics {
				r.say(fmt.Sprint("m", i), plan)
				r.call("execute_code", fmt.Sprintf(`{"code":"print(query_prometheus(%q))"}`, m), tt.result(i))
			}
			if told := len(r.thoughts()) > 0; told != tt.told {
				t.Errorf("thought told %v, want %v (%v)", told, tt.told, r.got)
			}
		})
	}
}

// A harness that answers a command with nothing but the command line (a find -exec grep -l
// that matched nothing) brings the model nothing it did not write: the same plan said over
// reworded searches so answered is told once three of them brought nothing (validation round
// r158a M2: said eight times, told only by `stuck` at the eighth, three calls later). A line of
// the command's words and something else (the file a grep found) is news.
func TestAnAnswerEchoingItsCommandIsNoNews(t *testing.T) {
	patterns := []string{`Blueprint.*dot\|dot.*Blueprint`, `AssertionError.*Blueprint`, `should not contain dots`, `name.*dot\|dot.*name`, `ValueError.*dots`}
	for _, tc := range []struct {
		name   string
		answer func(cmd string) string
		told   bool
	}{
		{"the command line echoed alone", func(cmd string) string { return cmd }, true},
		{"the command line and a file found", func(cmd string) string { return cmd + "\ntests/test_blueprints_" + fmt.Sprint(len(cmd)) + ".py" }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTextRun(t)
			for i, p := range patterns {
				cmd := `cd /workspace/flask && find tests/ -name "*.py" -exec grep -l "` + p + `" {} \;`
				args, _ := json.Marshal(map[string]string{"command": cmd})
				r.say(fmt.Sprint("m", i), "Let me check if there are any tests that expect blueprint creation to fail with dots:")
				r.call("execute_bash", string(args), tc.answer(cmd))
			}
			if told := len(r.thoughts()) > 0; told != tc.told {
				t.Errorf("the same plan over five searches: thought notices %v (%v), want told: %v", r.thoughts(), r.got, tc.told)
			}
		})
	}
}
