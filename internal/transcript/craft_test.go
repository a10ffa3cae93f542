package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A Craft Agents session, written for this test in the layout of real ones: a header line,
// then one message a line, the file's order not the conversation's ("order" is); a call and
// its answer on one line; the app's notes and a submitted plan passed over.
func TestCraftAgentsSessionIsReadInTheConversationsOrder(t *testing.T) {
	const session = `{"id":"260417-spry-ridge","workspaceRootPath":"~/Desktop/AI","createdAt":1776408078011,"sdkSessionId":"7b7d1db2","model":"Kimi-K2.6","messageCount":7}
{"id":"msg-1","type":"user","content":"记录备忘录","timestamp":1776496177050,"order":1}
{"id":"msg-3","type":"tool","content":"Launching skill: memo","timestamp":1776496217143,"order":3,"toolName":"Skill","toolUseId":"call_1","toolInput":{"skill":"memo"},"toolResult":"Launching skill: memo","toolStatus":"completed","isError":false,"turnId":"t1"}
{"id":"msg-2","type":"assistant","content":"我来读取技能文档。\n","timestamp":1776496217833,"order":2,"isIntermediate":true,"turnId":"t1"}
{"id":"msg-4","type":"tool","content":"File does not exist.","timestamp":1776496236923,"order":4,"toolName":"Read","toolUseId":"call_2","toolInput":{"file_path":"impl.py"},"toolResult":"File does not exist.","toolStatus":"completed","isError":true,"turnId":"t2"}
{"id":"msg-5","type":"info","content":"响应中断","timestamp":1776850916400,"order":5}
{"id":"plan-6","type":"plan","content":"# 计划\n1. 读取表格","timestamp":1776496277493,"order":6}
{"id":"msg-7","type":"tool","content":"","timestamp":1776496300000,"order":7,"toolName":"Bash","toolUseId":"call_3","toolInput":{"command":"ls"},"toolStatus":"running","turnId":"t3"}
`
	tr, err := ReadFrom("session.jsonl", strings.NewReader(session))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCraft || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want %s with one", tr.Format, len(tr.Agents), FormatCraft)
	}
	want := []string{
		`user "记录备忘录"`,
		`text[model] "我来读取技能文档。\n"`,
		`call Skill "{\"skill\":\"memo\"}" => "Launching skill: memo"`,
		`call Read "{\"file_path\":\"impl.py\"}" => "File does not exist." FAILED`,
		`call Bash "{\"command\":\"ls\"}" => -`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if turn := tr.Agents[0].Events[2].Turn; turn != "t1" {
		t.Errorf("the call's reply %q, want t1 (turnId)", turn)
	}
}

// Craft on the pi backend names every call of a user's turn by the turn ("pi-turn-2") and the
// model's words between them otherwise ("pi-turn-2__m0"): calls the model's words part are of
// two replies, and calls side by side stay of one (validation round r119c U1: 31 calls, each
// answered before the next, were read as one reply).
func TestCraftCallsPartedByTheModelsWordsAreTwoReplies(t *testing.T) {
	line := func(order int, typ, rest string) string {
		return fmt.Sprintf(`{"id":"m%d","type":%q,"timestamp":%d,"order":%d,%s}`, order, typ, 1776496177050+order, order, rest) + "\n"
	}
	tool := func(order int, turn, id string) string {
		return line(order, "tool", fmt.Sprintf(`"content":"Validation failed","toolName":"Bash","toolUseId":%q,"toolInput":{"_intent":"ls"},"toolStatus":"completed","isError":true,"turnId":%q`, id, turn))
	}
	session := `{"id":"260417-golden-cosmos","workspaceRootPath":"~/p","sdkSessionId":"s1","model":"MiniMax-M3"}` + "\n" +
		line(1, "user", `"content":"前端用什么技术栈？"`) +
		line(2, "assistant", `"content":"Let me look.","turnId":"pi-turn-2__m0"`) +
		tool(3, "pi-turn-2", "c1") + tool(4, "pi-turn-2", "c2") +
		line(5, "assistant", `"content":"The tool rejected it; again.","turnId":"pi-turn-2__m0"`) +
		tool(6, "pi-turn-2", "c3") +
		line(7, "assistant", `"content":"Strange, once more.","turnId":"pi-turn-2__m0"`) +
		tool(8, "pi-turn-2", "c4")
	tr, err := ReadFrom("session.jsonl", strings.NewReader(session))
	if err != nil {
		t.Fatal(err)
	}
	var turns []string
	for _, c := range tr.Agents[0].Calls() {
		turns = append(turns, c.Turn)
	}
	if want := []string{"pi-turn-2", "pi-turn-2", "pi-turn-2#1", "pi-turn-2#2"}; !reflect.DeepEqual(turns, want) {
		t.Errorf("replies %q, want %q", turns, want)
	}
}
