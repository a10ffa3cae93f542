package loopguard

import (
	"fmt"
	"testing"
)

// Changes made again, each answered as before, leave the workspace as the round before left
// it: the checks between them find nothing new.
func TestAChangeMadeAgainAfterOthersIsNoChange(t *testing.T) {
	addPrint := ok("bash", `{"command":"edit 68:68\n    print(data)\nend_of_edit"}`, "[File: /w/input.json (47 lines total)]\n1:{\n2:  \"data\": 1\n3:}")
	dropPrint := ok("bash", `{"command":"edit 47:47\nend_of_edit"}`, "[File: /w/input.json (46 lines total)]\n1:{\n2:  \"data\": 1\n3:}")
	run := fail("bash", `{"command":"python bleach.py input.json"}`, "Traceback (most recent call last):\n  File \"/w/bleach.py\", line 77, in <module>\njson.decoder.JSONDecodeError: Extra data: line 47 column 1 (char 1123)")
	save := func(i int) step {
		return ok("bash", fmt.Sprintf(`{"command":"python3 - <<'EOF'\ncontent = open('history.md').read()\nopen('/tmp/history_copy_%d.md', 'w').write(content)\nprint(\"File saved to /tmp/history_copy_%d.md\")\nprint(len(content))\nEOF"}`, i, i),
			fmt.Sprintf("File saved to /tmp/history_copy_%d.md\n547968", i))
	}
	dump := ok("bash", `{"command":"python3 -c 'import json; print(len(json.dumps(open(\"history.md\").read())))'"}`, "561531")
	look := func(i int) step {
		return ok("read_file", fmt.Sprintf(`{"path":"/tmp/history_copy_%d.md"}`, i), "")
	}
	cases := []progressCase{
		{"a print added and taken out by turns, the script failing alike after each, is a loop",
			times(12, func(i int) step {
				switch i % 4 {
				case 0:
					return addPrint
				case 2:
					return dropPrint
				}
				return run
			}), []string{"7:stuck:bash × 3"}},
		{"a file saved under a new scratch name each round, printed and read back alike, is a loop",
			times(12, func(i int) step {
				switch i % 3 {
				case 0:
					return save(i / 3)
				case 1:
					return dump
				}
				return look(i / 3)
			}), []string{"7:stuck:bash × 3"}},
		{"different edits, each answered alike, with the script failing alike after each, is a failure across edits",
			times(8, func(i int) step {
				if i%2 == 0 {
					return ok("bash", fmt.Sprintf(`{"command":"edit 68:68\n    print(data[%d])\nend_of_edit"}`, i), "File updated.")
				}
				return run
			}), []string{"7:errors:bash failed × 4"}},
		{"a check passing alike after each of different edits is progress",
			times(8, func(i int) step {
				if i%2 == 0 {
					return ok("bash", fmt.Sprintf(`{"command":"edit 68:68\n    print(data[%d])\nend_of_edit"}`, i), "File updated.")
				}
				return ok("bash", `{"command":"python check.py"}`, "ok")
			}), nil},
	}
	runProgressCasesRestoredToo(t, cases)
}

func TestScratchNamesMaskedKnowsAScriptWritingUnderANewScratchName(t *testing.T) {
	const id = 42
	key := func(args string) uint64 { return scratchNamesMasked(id, "bash", []byte(args)) }
	tests := []struct {
		name   string
		a, b   string
		same   bool
		masked bool // a names a scratch file
	}{
		{"two scratch names in a command line", `cp a.md /tmp/x_1.md && wc -c /tmp/x_1.md`, `cp a.md /tmp/copy_two.md && wc -c /tmp/copy_two.md`, true, true},
		{"a scratch name in JSON, closed by an escaped quote", `{"command":"open(\"/tmp/a.txt\", \"w\")"}`, `{"command":"open(\"/tmp/bb.txt\", \"w\")"}`, true, true},
		{"a scratch name closed by an escaped line break", `{"command":"echo x > /tmp/a\nls"}`, `{"command":"echo x > /tmp/b\nls"}`, true, true},
		{"what is done beside the scratch file differs", `cp a.md /tmp/x_1.md`, `cp b.md /tmp/x_1.md`, false, true},
		{"what follows an escaped line break is the command's", `{"command":"echo x > /tmp/a\nls"}`, `{"command":"echo x > /tmp/a\nps"}`, false, true},
		{"a scratch folder's name inside a scratch file's name, then another", `cp /tmp/a/var/tmp/b /tmp/c && ls`, `cp /tmp/x /tmp/y && ls`, true, true},
		{"many scratch names, one command differing after the last", `touch /tmp/1 /tmp/2 /dev/shm/3 /tmp/4; ls`, `touch /tmp/a /tmp/b /dev/shm/c /tmp/d; ps`, false, true},
		{"a macOS scratch folder", `mv out /var/folders/T/abc`, `mv out /var/folders/T/xyz`, true, true},
		{"no scratch file: the call's identity", `cp a.md b.md`, `cp a.md b.md`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, kb := key(tt.a), key(tt.b)
			if (ka == kb) != tt.same {
				t.Errorf("keys %x and %x: same = %v, want %v", ka, kb, ka == kb, tt.same)
			}
			if (ka != id) != tt.masked {
				t.Errorf("key of %q is the call's identity: %v, want %v", tt.a, ka == id, !tt.masked)
			}
		})
	}
}
