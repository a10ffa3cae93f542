package codexcell

import (
	"testing"
)

func TestCallReadsACellThatMakesOneCallAsThatCall(t *testing.T) {
	tests := []struct {
		name, cell string
		tool, args string
		ok         bool
	}{
		{"a command with JSON arguments",
			"const r = await tools.exec_command({\"cmd\":\"cargo test\", \"workdir\":\"/w\"});\ntext(r.output);",
			"exec_command", `{"cmd":"cargo test","workdir":"/w"}`, true},
		{"a patch spelled out in double quotes",
			"const patch = \"*** Begin Patch\\n*** Update File: a.rs\\n@@\\n-x\\n+y\\n*** End Patch\";\ntext(await tools.apply_patch(patch));",
			"apply_patch", "*** Begin Patch\n*** Update File: a.rs\n@@\n-x\n+y\n*** End Patch", true},
		{"a patch in back quotes",
			"text(await tools.apply_patch(`*** Begin Patch\n*** Add File: b.txt\n+hi\n*** End Patch`));",
			"apply_patch", "*** Begin Patch\n*** Add File: b.txt\n+hi\n*** End Patch", true},
		{"arguments written as JavaScript keep the cell",
			"text(await tools.update_plan({plan: []}));",
			"update_plan", "text(await tools.update_plan({plan: []}));", true},
		{"spaces before the parenthesis",
			"await tools.write_stdin ( {\"session_id\": 4, \"chars\": \"\"} );",
			"write_stdin", `{"session_id":4,"chars":""}`, true},
		{"two calls are a script",
			"const a = await tools.exec_command({\"cmd\":\"ls\"}); const b = await tools.exec_command({\"cmd\":\"pwd\"});",
			"", "", false},
		{"no call", "const matches = ALL_TOOLS.filter(x => /js/.test(x.name)); text(matches);", "", "", false},
		{"another object's tools are not the agent's", "await mytools.run({\"a\":1});", "", "", false},
		{"a property read is no call", "const n = tools.length; text(await tools.exec_command({\"cmd\":\"ls\"}));", "exec_command", `{"cmd":"ls"}`, true},
		{"a cell cut short", "await tools.exec_command({\"cmd\":", "exec_command", "await tools.exec_command({\"cmd\":", true},
		{"a name and nothing after it", "tools.exec_command", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, args, ok := Call(tt.cell)
			if tool != tt.tool || string(args) != tt.args || ok != tt.ok {
				t.Errorf("Call(%q) = %q, %q, %v; want %q, %q, %v", tt.cell, tool, args, ok, tt.tool, tt.args, tt.ok)
			}
		})
	}
}

func TestAnswerTakesTheCellsHeaderOff(t *testing.T) {
	tests := []struct {
		name, text string
		want       string
		failed     bool
	}{
		{"a completed cell", "Script completed\nWall time 0.1 seconds\nOutput:\n\nuse std::error::Error;", "use std::error::Error;", false},
		{"a failed cell", "Script failed\nWall time 0.0 seconds\nOutput:\nScript error:\napply_patch verification failed", "Script error:\napply_patch verification failed", true},
		{"a cell still running stays as it is", "Script running with cell ID 3\nWall time 10.0 seconds\nOutput:\n", "Script running with cell ID 3\nWall time 10.0 seconds\nOutput:\n", false},
		{"a printed 'Script completed' without the header", "Script completed\nall 12 steps", "Script completed\nall 12 steps", false},
		{"any other answer", "ok", "ok", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, failed := Answer(tt.text, false)
			if got != tt.want || failed != tt.failed {
				t.Errorf("Answer(%q) = %q, %v; want %q, %v", tt.text, got, failed, tt.want, tt.failed)
			}
		})
	}
}

// A cell is the model's code: any text must read without a panic, and a call found in it
// names a tool of identifier bytes.
func FuzzCall(f *testing.F) {
	f.Add("const r = await tools.exec_command({\"cmd\":\"ls\"}); text(r.output);")
	f.Add("const patch = \"*** Begin Patch\\n*** End Patch\"; tools.apply_patch(patch)")
	f.Add("tools.x(`*** Begin Patch")
	f.Add("tools.(")
	f.Fuzz(func(t *testing.T, cell string) {
		tool, _, ok := Call(cell)
		if ok != (tool != "") {
			t.Fatalf("Call(%q): tool %q, ok %v", cell, tool, ok)
		}
		for i := 0; i < len(tool); i++ {
			if !isIdentByte(tool[i]) {
				t.Fatalf("Call(%q): tool %q", cell, tool)
			}
		}
		Answer(cell, false)
	})
}
