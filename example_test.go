package loopguard_test

import (
	"fmt"

	"github.com/loopguard/loopguard"
)

// An agent sends the same failing search three times; the third time, the engine reminds it.
// Key order in the arguments does not make the calls different.
func Example() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)

	for _, args := range []string{
		`{"pattern":"get_legend_data","path":"/src"}`,
		`{"path":"/src","pattern":"get_legend_data"}`,
		`{"pattern":"get_legend_data","path":"/src"}`,
	} {
		call := loopguard.Call("agent-1", "grep", []byte(args)).WithResult("no matches", true)
		for _, n := range eng.Observe(call) {
			fmt.Println(n.Plugin, "|", n.Summary)
			fmt.Println(n.Text)
		}
	}
	// Output:
	// repeat-tool-reminder | grep × 3
	// You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.
}

// In deny mode, dsh-brake refuses a call once it has been made callDenyCount times. The host
// asks before running each call, and reports the refusal to the model as the call's result.
func ExampleEngine_Check() {
	cfg := loopguard.Config{DSHBrake: loopguard.DefaultDSHBrake()}
	cfg.DSHBrake.Mode = loopguard.ModeDeny
	cfg.DSHBrake.CallWarnCount, cfg.DSHBrake.CallDenyCount = 2, 3
	eng, _ := loopguard.New(cfg)

	for i := 1; i <= 4; i++ {
		call := loopguard.Call("agent-1", "Bash", []byte(`{"command":"make test"}`))
		if d, refused := eng.Check(call); refused {
			fmt.Printf("call %d refused: %s\n", i, d.Reason)
			eng.Observe(call.WithResult("Error: "+d.Reason, true))
			continue
		}
		fmt.Printf("call %d runs\n", i)
		eng.Observe(call.WithResult("FAIL", true))
	}
	// Output:
	// call 1 runs
	// call 2 runs
	// call 3 runs
	// call 4 refused: dsh-brake: the same call (Bash, same arguments) has repeated 3 times without progress and was refused. Change your approach or report to the user.
}

// A host that runs one process per tool call saves the agent's state after each event and
// loads it before the next.
func ExampleEngine_Snapshot() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	var saved []byte
	for i := 1; i <= 3; i++ {
		eng, _ := loopguard.New(cfg) // a fresh process
		if err := eng.Restore("session-42", saved); err != nil {
			panic(err)
		}
		notices := eng.Observe(loopguard.Call("session-42", "Read", []byte(`{"file":"go.mod"}`)))
		saved = eng.Snapshot("session-42")
		fmt.Printf("process %d: %d notice(s), state %d bytes\n", i, len(notices), len(saved))
	}
	// Output:
	// process 1: 0 notice(s), state 14 bytes
	// process 2: 0 notice(s), state 14 bytes
	// process 3: 1 notice(s), state 14 bytes
}

// The default preset tells progress from a loop by the results. Paging through a file (the
// same call, a new page each time) and re-running a test after an edit say nothing; the same
// search answered the same way three times is reminded, timestamps and durations aside.
func Example_progress() {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	eng, _ := loopguard.New(cfg)
	say := func(ev loopguard.Event) {
		for _, n := range eng.Observe(ev) {
			fmt.Println(n.Plugin, n.Kind, "|", n.Summary)
		}
	}
	for page := 1; page <= 5; page++ {
		say(loopguard.Call("a", "scroll_down", nil).WithResult(fmt.Sprintf("lines %d-%d of big.py: def handler_%d(): ...", page*100, page*100+99, page), false))
	}
	say(loopguard.Call("a", "run_tests", nil).WithResult("FAIL TestParse (0.12s)", true))
	say(loopguard.Call("a", "edit_file", []byte(`{"path":"parse.go"}`)).WithResult("edited", false))
	say(loopguard.Call("a", "run_tests", nil).WithResult("FAIL TestParse (0.09s)", true))
	for i := 0; i < 3; i++ {
		say(loopguard.Call("a", "grep", []byte(`{"pattern":"Token"}`)).WithResult(fmt.Sprintf("[%d.%03ds] lexer.go:12: tok Token", i, i*7), false))
	}
	// Output:
	// progress stuck | grep × 3
}

// The same command under two captions is one call to the progress detector.
func ExampleArgumentsKey() {
	a := loopguard.ArgumentsKey([]byte(`{"command":"npm test","description":"Run the tests"}`))
	b := loopguard.ArgumentsKey([]byte(`{"description":"Run them again","command":"npm test"}`))
	c := loopguard.ArgumentsKey([]byte(`{"command":"npm run lint","description":"Run the tests"}`))
	fmt.Println(a == b, a == c)
	// Output: true false
}
