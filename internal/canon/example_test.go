package canon_test

import (
	"fmt"

	"github.com/loopguard/loopguard/internal/canon"
)

// Two tool calls whose arguments differ only in key order, number spelling
// and whitespace are the same call.
func ExampleFingerprint() {
	first := []byte(`{"command":"ls -la","timeout":120000,"options":{"all":true,"depth":1}}`)
	second := []byte(`{ "options": {"depth": 1.0, "all": true}, "timeout": 1.2e5, "command": "ls -la" }`)
	third := []byte(`{"command":"ls -la","timeout":120000,"options":{"all":false,"depth":1}}`)

	fmt.Println(canon.Fingerprint(first) == canon.Fingerprint(second))
	fmt.Println(canon.Fingerprint(first) == canon.Fingerprint(third))
	fmt.Println(canon.Canonical(second))
	// Output:
	// true
	// false
	// {"command":"ls -la","options":{"all":true,"depth":1},"timeout":120000}
}
