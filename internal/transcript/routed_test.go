package transcript

import "testing"

func TestRoutedCallIsTheCallOfTheToolBehindTheGateway(t *testing.T) {
	tests := []struct {
		name, args     string
		wantTool, want string // wantTool "" when the call is no routing
	}{
		{"LiveMCPBench's execute-tool", `{"server_name": "ppt", "tool_name": "save_presentation", "params": {"file_path": "/root/a.pptx"}}`,
			"mcp__ppt__save_presentation", `{"file_path": "/root/a.pptx"}`},
		{"Cline's use_mcp_tool, arguments as JSON text", `{"server_name":"github","tool_name":"get_issue","arguments":"{\n  \"number\": 7\n}"}`,
			"mcp__github__get_issue", "{\n  \"number\": 7\n}"},
		{"Cline's UI record", `{"serverName":"vscode","toolName":"open_panel","arguments":"{\"panel\":\"explorer\"}"}`,
			"mcp__vscode__open_panel", `{"panel":"explorer"}`},
		{"no server", `{"tool_name": "search", "args": {"q": "x"}}`, "search", `{"q": "x"}`},
		{"no arguments", `{"server_name": "ppt", "tool_name": "create_presentation", "params": null}`, "mcp__ppt__create_presentation", `{}`},
		{"more than a routing", `{"tool_name": "search", "args": {"q": "x"}, "timeout": 30}`, "", ""},
		{"a name that is no tool's", `{"tool_name": "search the web"}`, "", ""},
		{"no tool named", `{"server_name": "ppt", "params": {}}`, "", ""},
		{"not an object", `["tool_name"]`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, args, ok := routedCall([]byte(tt.args))
			if ok != (tt.wantTool != "") || tool != tt.wantTool || ok && string(args) != tt.want {
				t.Errorf("routedCall(%s) = %q, %s, %v; want %q, %s", tt.args, tool, args, ok, tt.wantTool, tt.want)
			}
		})
	}
}
