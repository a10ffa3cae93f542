package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// A thinking tool called again and again with the same thought, nothing else done between,
// is a loop; thinking between work, or a chain of different thoughts, is not.
func TestTheSameThoughtRecordedAgainAndAgainIsALoop(t *testing.T) {
	const stuck = "The user has been authenticated and her order details are available. The next step is to ask which item she wants to return."
	think := func(thought string) step {
		return ok("think", fmt.Sprintf(`{"thought":%q}`, thought), "")
	}
	lookup := ok("get_order_details", `{"order_id":"#W2890441"}`, `{"status": "delivered", "items": 3}`)
	const plan = "The user gave a user ID that does not exist in the system, so I cannot look up the order " +
		"details yet. I need to ask the user for the correct user ID before I can look up the order details " +
		"and go on with the %s they asked for."
	reworded := []string{fmt.Sprintf(plan, "return"), fmt.Sprintf(plan, "exchange"), fmt.Sprintf(plan, "refund"), fmt.Sprintf(plan, "change")}
	cases := []progressCase{
		{"the same thought recorded seven times in a row is told at the third and the sixth",
			append([]step{lookup}, times(7, func(int) step { return think(stuck) })...),
			[]string{"3:thought:think same thought × 3", "6:thought:think same thought × 6"}},
		{"two thoughts recorded by turns are thinking the same thing over",
			times(6, func(i int) step {
				return think([]string{"The user has not provided a valid user ID. I must ask for it before anything else.", "I need to request the user's ID so that I can look up the reservation."}[i%2])
			}),
			[]string{"3:thought:think same thought × 3"}},
		{"a thought that comes back after another run of thinking is no repeat within the run",
			[]step{think("check the order first"), lookup, think("ask for the user id"), think("check the order first"), think("ask for the user id")}, nil},
		{"a thought reworded a word at a time is the same thought",
			times(4, func(i int) step { return think(reworded[i]) }),
			[]string{"2:thought:think same thought × 3"}},
		{"the same thought between calls that do work is no loop",
			times(8, func(i int) step {
				if i%2 == 0 {
					return think(stuck)
				}
				return ok("get_order_details", fmt.Sprintf(`{"order_id":"#W%d"}`, i), fmt.Sprintf(`{"status": "delivered", "items": %d}`, i))
			}), nil},
		{"a chain of different thoughts is planning, not a loop",
			times(8, func(i int) step {
				return ok("mcp_Sequential_Thinking_sequentialthinking", fmt.Sprintf(`{"thought":"step %d: check the %d-th module for the bug","thoughtNumber":%d}`, i, i, i),
					fmt.Sprintf(`{"nextThoughtNeeded": true, "thoughtHistoryLength": %d}`, i+1))
			}), nil},
		{"a thought answered otherwise each time brought something",
			times(6, func(i int) step {
				return ok("think", `{"thought":"If I need to do some analysis over the data, I can write a python code to do it."}`, fmt.Sprintf(`{"order_id": "#W%d", "status": "%s"}`, i, []string{"pending", "delivered", "cancelled"}[i%3]))
			}), nil},
		{"a sequential-thinking server counting the thoughts it holds answers alike, numbers aside",
			times(3, func(i int) step {
				return ok("sequentialthinking", fmt.Sprintf(`{"thought":"I should check the config loader first","thoughtNumber":%d}`, i+1),
					fmt.Sprintf(`{"thoughtNumber": %d, "nextThoughtNeeded": true, "thoughtHistoryLength": %d}`, i+1, i+1))
			}), []string{"2:thought:sequentialthinking same thought × 3"}},
		{"thoughts of one reply count once",
			times(6, func(i int) step { return inTurn(fmt.Sprintf("r%d", i/3), think(stuck)) }), nil},
		{"the user's turn ends the run",
			[]step{think(stuck), think(stuck), userSays("my user id is mei_davis_8935"), think(stuck), think(stuck)}, nil},
		{"a todo list written again and again is bookkeeping, not a thought",
			times(6, func(int) step {
				return ok("TodoWrite", `{"todos":[{"content":"fix the parser","status":"in_progress"}]}`, "Todos have been modified successfully")
			}), nil},
	}
	runProgressCasesRestoredToo(t, cases)
}

func TestIsThinkingTool(t *testing.T) {
	for tool, want := range map[string]bool{
		"think": true, "Think": true, "thinking": true, "sequentialthinking": true,
		"mcp_Sequential_Thinking_sequentialthinking": true, "THINK_TOOL": true,
		"TodoWrite": false, "update_plan": false, "thin": false, "": false,
	} {
		if got := isThinkingTool(tool); got != want {
			t.Errorf("isThinkingTool(%q) = %v, want %v", tool, got, want)
		}
	}
}

// The notice quotes the thought, unescaped, in the locale's words, live and across restores.
func TestMusingNoticeQuotesTheThought(t *testing.T) {
	args := []byte(`{"thought":"I need to ask for the \"correct\" user ID.\nThen look up the order."}`)
	for _, locale := range []string{"en", "zh"} {
		cfg := defaultProgress(nil)
		cfg.Locale = locale
		liveAndRestored(t, cfg, func(observe func(Event) []Notice, restored bool) {
			var got []Notice
			for range 3 {
				got = append(got, observe(Call("a", "think", args).WithResult("", false))...)
			}
			if len(got) != 1 || !strings.Contains(got[0].Text, `I need to ask for the "correct" user ID. Then look up the order.`) || !strings.Contains(got[0].Text, "think") {
				t.Errorf("%s, restored %v: notices %+v; want one quoting the thought", locale, restored, got)
			}
		})
	}
}
