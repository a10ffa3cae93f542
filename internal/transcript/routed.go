package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// routedCall reads a call whose arguments only name another tool and what to send it, as a
// gateway's (LiveMCPBench's `execute-tool {"server_name", "tool_name", "params"}`) or Cline's
// `use_mcp_tool {"server_name", "tool_name", "arguments"}` (`serverName`, `toolName` in its
// UI's record), as a call of that tool, named as
// Claude Code names an MCP server's tools (`mcp__<server>__<tool>`), with those arguments.
// What a call is, and so how its answer reads (a file shown, a search, a change), is the
// tool's behind the gateway: a log read through one, its lines saying ERROR, was taken for a
// failure, and a notice named only the gateway (validation round r97b U3).
func routedCall(args []byte) (tool string, inner []byte, ok bool) {
	if len(args) < 2 || args[0] != '{' || !bytes.Contains(args, []byte(`"tool_name"`)) && !bytes.Contains(args, []byte(`"toolName"`)) {
		return "", nil, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(args, &fields) != nil {
		return "", nil, false
	}
	var server, name string
	inner = []byte("{}")
	for k, v := range fields {
		switch k {
		case "tool_name", "toolName":
			if json.Unmarshal(v, &name) != nil {
				return "", nil, false
			}
		case "server_name", "serverName":
			if json.Unmarshal(v, &server) != nil {
				return "", nil, false
			}
		case "params", "arguments", "args", "input":
			var text string
			switch {
			case json.Unmarshal(v, &text) == nil:
				// arguments sent as JSON text (Cline's); text that is no JSON object is
				// kept as the string it is
				if t := bytes.TrimSpace([]byte(text)); len(t) > 0 && t[0] == '{' && json.Valid(t) {
					inner = t
				} else if text != "" {
					inner = v
				}
			case string(v) != "null":
				inner = v
			}
		default:
			return "", nil, false // more than a routing: a tool of its own
		}
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return "", nil, false
	}
	if server = strings.TrimSpace(server); server != "" {
		name = "mcp__" + server + "__" + name
	}
	return name, inner, true
}
