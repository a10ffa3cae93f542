package loopguard

import (
	"encoding/json"
	"testing"
)

// Arguments in JSON are read as the shell would get them, their escapes decoded: Go's
// encoder writes '>' as \u003e and '&' as \u0026, and 2>&1 so written is no redirection
// to a file.
func TestGoEscapedStderrToStdoutIsNoWrite(t *testing.T) {
	for _, cmd := range []string{"make test 2>&1", "python3 -m pytest -x 2>&1 | tail -20", "ls missing >&2"} {
		args, _ := json.Marshal(map[string]string{"command": cmd}) // HTML-escaped, as json.Marshal writes
		plain := []byte(`{"command":` + jsonQuoteNoHTML(cmd) + `}`)
		if mutates(false, "bash", plain, readArgKeys(plain)) {
			t.Fatalf("setup: %s reads as a write", plain)
		}
		if mutates(false, "bash", args, readArgKeys(args)) {
			t.Errorf("%s: read as a write, want what %s reads as (no file written)", args, plain)
		}
	}
}

func jsonQuoteNoHTML(s string) string {
	b, _ := json.Marshal(s)
	out := []byte{}
	for i := 0; i < len(b); i++ {
		if i+6 <= len(b) && string(b[i:i+2]) == `\u` {
			switch string(b[i : i+6]) {
			case `\u003e`:
				out = append(out, '>')
				i += 5
				continue
			case `\u003c`:
				out = append(out, '<')
				i += 5
				continue
			case `\u0026`:
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}
