package proxy_test

import (
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/proxy"
)

// A Chat Completions request whose model ran `ls` three times: the third result carries the
// reminder, appended inside the tool message's content string.
func ExampleGuard_Rewrite() {
	cfg, _ := loopguard.Preset("repeat-tool-reminder")
	g, _ := proxy.NewGuard(cfg)
	var b strings.Builder
	b.WriteString(`{"model":"m","messages":[{"role":"user","content":"go"}`)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, `,{"role":"assistant","tool_calls":[{"id":"c%d","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}`, i)
		fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":"a.txt"}`, i)
	}
	b.WriteString(`]}`)
	r, err := g.Rewrite(proxy.Chat, []byte(b.String()), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Done()
	fmt.Println(len(r.Notices), r.Notices[0].Summary)
	body := string(r.Body())
	last := body[strings.LastIndex(body, `"content":"a.txt`):]
	fmt.Println(last[:71])
	// Output:
	// 1 bash × 3
	// "content":"a.txt\n\n<system-reminder>\nYou are repeating the exact same
}
