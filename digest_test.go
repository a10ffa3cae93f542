package loopguard

import (
	"bytes"
	"encoding/json"
	"io"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The same answer dressed differently must digest the same; a different answer must not.
func TestDigestNormalises(t *testing.T) {
	long := func(s string) string { return strings.Repeat("a line of output that repeats\n", 40) + s }
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"timestamps and dates", "done at 2026-12-01T10:00:00.123Z", "done at 2025-01-09T23:59:59Z", true},
		{"clock times", "started 10:04:55 finished 10:05:01", "started 11:00:00 finished 11:00:07", true},
		{"durations", "3 passed in 0.12s", "3 passed in 1.5s", true},
		{"spelled durations", "took 12 seconds", "took 7 seconds", true},
		// times and durations written in Chinese (validation round r67c P2)
		{"a Chinese date and time", "构建成功 2025年3月1日 14时30分05秒", "构建成功 2025年3月2日 9时05分41秒", true},
		{"a Chinese duration", "任务完成，耗时 1.5秒", "任务完成，耗时 12毫秒", true},
		{"a spelled Chinese duration", "已等待 3 秒，服务仍未就绪", "已等待 10 秒，服务仍未就绪", true},
		{"a score in points stays", "本轮得分 3 分", "本轮得分 5 分", false},
		{"a month alone stays", "共 3月 的数据", "共 4月 的数据", false},
		{"a clock time to the minute", "Last login: Tue Dec  3 14:30 from 10.0.0.7", "Last login: Tue Dec  3 09:05 from 10.0.0.7", true},
		{"a ratio or a position is no clock time", "aspect 16:9 kept", "aspect 4:3 kept", false},
		{"a counter in parentheses after its word", "connection refused, retrying (attempt 2)", "connection refused, retrying (attempt 3)", true},
		{"process ids", "server pid 4242 listening", "server pid 977 listening", true},
		{"pid=N", "worker pid=4242 ready", "worker pid=31 ready", true},
		{"process group ids", "Output: no matches found\nProcess Group PGID: 23520", "Output: no matches found\nProcess Group PGID: 24518", true},
		{"attempt counters", "retrying, attempt 3", "retrying, attempt 4", true},
		{"hex ids", "object 3f2a9c1b7e8d not found", "object 9ab0c1d2e3f4 not found", true},
		{"0x addresses", "<Foo at 0x7f3a2b4c>", "<Foo at 0x55d0e1f2>", true},
		{"UUIDs", "request 123e4567-e89b-42d3-a456-426614174000 failed", "request 9f0c1d2e-0000-4111-8abc-0123456789ab failed", true},
		{"message ids and nonces", "msg_01HZX9K2QW7TBC3 queued", "msg_01J3MZ0A8P5VQ7R queued", true},
		{"a serial number a tool gave the record it made", "Certificate certificate_3221322 added to user mei_brown_7075 with amount 200.",
			"Certificate certificate_3221324 added to user mei_brown_7075 with amount 200.", true},
		{"a serial number joined by a hyphen", "created order-1000457 (pending)", "created order-1000458 (pending)", true},
		{"a name numbered with fewer digits stays", "wrote result_12345 and a few more words", "wrote result_12346 and a few more words", false},
		{"a serial of a name with digits in it stays", "created user_mei7075_100234 now", "created user_mei7075_100235 now", false},
		{"temporary paths", "wrote /tmp/pytest-of-root/pytest-3/test_a0/out.txt", "wrote /tmp/pytest-of-root/pytest-9/test_a0/out.txt", true},
		{"generated ids after an id label (Codex's chunk header)",
			"Chunk ID: b19e45\nWall time: 0.0005 seconds\nProcess exited with code 0\nOutput:\nno matches",
			"Chunk ID: 469389\nWall time: 0.0102 seconds\nProcess exited with code 0\nOutput:\nno matches", true},
		{"a background job's id", "Command running in background with ID: 7f3a2b", "Command running in background with ID: c41d09", true},
		{"Claude Code's background command id (r260c)",
			"Command running in background with ID: bp8u94ums. Output is being written to: /private/tmp/claude-502/x/tasks/bp8u94ums.output",
			"Command running in background with ID: bze8takxb. Output is being written to: /private/tmp/claude-502/x/tasks/bze8takxb.output", true},
		{"a name a person gave after an id label stays", "user ID: user1234 created", "user ID: user1235 created", false},
		{"a release name after an id label stays", "build ID: release2024 done", "build ID: release2025 done", false},
		{"a generated id with no digit in it (1 in 360 of Codex's chunk ids)",
			"Chunk ID: cbdcbe\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\ne2e-proxy-loop\n",
			"Chunk ID: 2ea7f0\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\ne2e-proxy-loop\n", true},
		{"a short word of hex letters after an id label stays", "user ID: face", "user ID: fade", false},
		{"a generated id of letters in a long result's header", long("Chunk ID: cbdcbe\nOutput: x"), long("Chunk ID: 0a7f31\nOutput: x"), true},
		{"a word of hex letters without the label's colon stays", "the id decade here", "the id facade here", false},
		{"id=value", "job id=48213 queued", "job id=51007 queued", true},
		{"the same header over a long result", long("Chunk ID: b19e45\nOutput: x"), long("Chunk ID: 0a7f31\nOutput: x"), true},
		{"a shell's count of the lines it has read (SWE-agent's shell)",
			"/bin/bash: line 11301: cd: fastjson/: No such file or directory",
			"/bin/bash: line 11316: cd: fastjson/: No such file or directory", true},
		{"sh's count too, in a long result", long("sh: line 3: pytest: command not found"), long("sh: line 97: pytest: command not found"), true},
		{"a traceback's line number stays", `File "app.py", line 12, in main`, `File "app.py", line 13, in main`, false},
		{"a shell's line count is not a word after any 'line'", "error at line 11301: bad token", "error at line 11316: bad token", false},
		{"a short number after an id label stays", "Session ID: 12, total 3", "Session ID: 13, total 3", false},
		{"a word after an id label stays", "Table ID: users", "Table ID: orders", false},
		{"a handle's sequence number (Copilot CLI's shell id)", "no matches found\n<shellId: 0 completed with exit code 0>",
			"no matches found\n<shellId: 7 completed with exit code 0>", true},
		{"a handle's hex value", "sessionId=4f2a9c01 ready", "sessionId=77be0d12 ready", true},
		{"a snake_case handle", "request_id: 12 done", "request_id: 913 done", true},
		{"a handle in a long result", long("<shellId: 3 completed with exit code 1>"), long("<shellId: 14 completed with exit code 1>"), true},
		{"a handle's hex value in a long result", long("processId: ab12cd34 exited"), long("processId: 9f00e1d2 exited"), true},
		{"a data id stays", `{"userId": 1, "title": "a"}`, `{"userId": 2, "title": "a"}`, false},
		{"a data id stays in a long result", long("order_id 12 shipped"), long("order_id 13 shipped"), false},
		{"a word that ends in id is no label", "valid: 1 of 3", "valid: 2 of 3", false},
		{"ANSI escapes", "\x1b[31mFAIL\x1b[0m test_a", "FAIL test_a", true},
		{"carriage-return progress lines", "downloading 10%\rdownloading 50%\rdownloading 100%\ndone", "downloading 100%\ndone", true},
		{"trailing white space and CRLF", "a\r\nb   \r\n", "a\nb\n", true},
		{"long results too", long("at 2026-12-01T10:00:00Z in 12ms"), long("at 2026-12-02T11:00:00Z in 80ms"), true},
		{"a volatile field of another length in a long result", long("3 passed in 9ms, server pid 977"), long("3 passed in 12ms, server pid 4242"), true},
		{"a progress bar in a long result", long("10%\r100%"), long("100%"), true},
		{"a JSON result's duration", `{"output": "no matches", "metadata": {"exit_code": 1, "duration_seconds": 0.53}}`,
			`{"output": "no matches", "metadata": {"exit_code": 1, "duration_seconds": 1.07}}`, true},
		{"a JSON result's elapsed milliseconds", `{"stderr": "not found", "elapsed_ms": 120}`, `{"stderr": "not found", "elapsed_ms": 95}`, true},
		{"a JSON result's timestamp", `{"result": "ok", "timestamp": 1733100000}`, `{"result": "ok", "timestamp": 1733100042}`, true},
		{"a JSON key naming a process", `{"pid": 4242, "status": "running"}`, `{"pid": 977, "status": "running"}`, true},
		{"a camelCase moment", `{"createdAt": 1733100000, "name": "a"}`, `{"createdAt": 1733100077, "name": "a"}`, true},
		{"key=value naming a time", "status=running elapsed_time=12 steps=3", "status=running elapsed_time=15 steps=3", true},
		{"a JSON count is progress", `{"count": 3, "status": "running"}`, `{"count": 4, "status": "running"}`, false},
		{"an exit code is not a time", `{"exit_code": 1}`, `{"exit_code": 2}`, false},
		{"a line number after 'at' is not a time", "SyntaxError at 12", "SyntaxError at 13", false},
		{"a changed count is progress", "build: 3 of 9 steps done", "build: 4 of 9 steps done", false},
		{"a changed percentage is progress", "coverage 71%", "coverage 72%", false},
		{"a changed line number is new content", "12: def foo():", "13: def foo():", false},
		{"changed words", "1 failed, 2 passed", "3 passed", false},
		{"a changed line in a long result", long("x = 1"), long("x = 2"), false},
		{"a version is not a timestamp", "python 3.11.7", "python 3.12.1", false},
		{"Claude Code's rerun handle", "Error: Exit code 1\nFAIL src/app.test.ts\n[rerun: b40]", "Error: Exit code 1\nFAIL src/app.test.ts\n[rerun: b41]", true},
		{"Claude Code's result id", "     1\tA=1\n     2\tB=2\n[result-id: r7]", "     1\tA=1\n     2\tB=2\n[result-id: r12]", true},
		{"a result id after a long answer", strings.Repeat("     7\tline of a long file\n", 80) + "[result-id: r7]", strings.Repeat("     7\tline of a long file\n", 80) + "[result-id: r8]", true},
		{"a bracketed word that is no handle", "tests\n[status: b40]", "tests\n[status: b41]", false},
		// a directory's link count and size in a long listing (r258a)
		{"the parent's line of ls -la in a busy /tmp",
			"total 508\ndrwxrwxr-x    3 u u   4096 May 30 22:52 .\ndrwxrwxrwt 9258 root root 507904 May 30 23:07 ..\ndrwxrwxr-x    3 u u   4096 May 30 22:52 invoice\n",
			"total 508\ndrwxrwxr-x    3 u u   4096 May 30 22:52 .\ndrwxrwxrwt 9259 root root 507912 May 30 23:08 ..\ndrwxrwxr-x    3 u u   4096 May 30 22:52 invoice\n", true},
		{"the same in a long listing", long("drwxrwxrwt 9258 root root 507904 May 30 23:07 ..\n"), long("drwxrwxrwt 9259 root root 507912 May 30 23:08 ..\n"), true},
		{"a directory with an ACL", "drwxr-xr-x+ 4 u u 4096 Jan  2 10:00 build", "drwxr-xr-x+ 5 u u 8192 Jan  2 10:00 build", true},
		{"a directory's name stays", "drwxr-xr-x 2 u u 4096 Jan  1 10:00 2024", "drwxr-xr-x 2 u u 4096 Jan  1 10:00 2025", false},
		{"a file's size stays", "-rw-r--r-- 1 u u 1200 May 30 23:07 app.log", "-rw-r--r-- 1 u u 1800 May 30 23:07 app.log", false},
		{"and in a long listing", long("-rw-r--r-- 1 u u 1200 May 30 23:07 app.log\n"), long("-rw-r--r-- 1 u u 1800 May 30 23:07 app.log\n"), false},
		{"a word like a mode that is none", "drwxrwxrwz 12 entries", "drwxrwxrwz 13 entries", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d digester
			a, b := d.digest(tt.a, false, false), d.digest(tt.b, false, false)
			if (a.exact == b.exact) != tt.same {
				t.Errorf("digest(%q) == digest(%q): %v, want %v", tt.a, tt.b, a.exact == b.exact, tt.same)
			}
		})
	}
}

// Words that only echo the call's arguments are masked, so that two calls with different
// arguments and the same answer agree.
func TestDigestMasksTheEcho(t *testing.T) {
	var d digester
	d.setEcho([]byte(`{"path":"/testbed/astroid/brain/type_hints.py"}`))
	a := d.digest("The path /testbed/astroid/brain/type_hints.py does not exist.", true, false)
	d.setEcho([]byte(`{"path":"/testbed/astroid/type_comments.py"}`))
	b := d.digest("The path /testbed/astroid/type_comments.py does not exist.", true, false)
	if a.masked != b.masked {
		t.Error("the same answer about two paths differs once the paths are masked")
	}
	if a.exact == b.exact {
		t.Error("the exact digests of two different texts agree")
	}
	c := d.digest("The path /testbed/astroid/type_comments.py was created.", true, false)
	if c.masked == b.masked {
		t.Error("a different answer about the same path agrees once masked")
	}
}

// A traceback that quotes the call's own code echoes it: the code's last word on each line
// (JSON joins the lines with "\n"), the name a dotted path could not resolve, and the marks
// under the quoted line, as long as the expression, are all the call's own.
func TestDigestMasksEchoedCode(t *testing.T) {
	answer := func(expr, name string) string {
		return "Execution failed. Traceback:\n  File \"<python-input>\", line 3, in <module>\n    email = " + expr + "\n            " +
			strings.Repeat("^", len(expr)) + "\nException: No API named '" + name + "' found in the supervisor app."
	}
	var d digester
	d.setEcho([]byte(`{"code":"creds = apis.supervisor.show_account_passwords()\nif creds:\n    email = apis.supervisor.main_user.email\n    print(email)"}`))
	a := d.digest(answer("apis.supervisor.main_user.email", "main_user"), true, false)
	d.setEcho([]byte(`{"code":"creds = apis.supervisor.show_account_passwords()\nif creds:\n    email = apis.supervisor.profile.email\n    print(email)"}`))
	b := d.digest(answer("apis.supervisor.profile.email", "profile"), true, false)
	if a.masked != b.masked {
		t.Error("two tracebacks of one failing lookup differ once the code they quote is masked")
	}
	c := d.digest("Execution failed. Traceback:\n  File \"<python-input>\", line 3, in <module>\n    email = apis.supervisor.profile.email\n"+
		"            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nKeyError: 'email'", true, false)
	if c.masked == b.masked {
		t.Error("another exception agrees once masked")
	}
}

// A field of the answer that joins words of the arguments with their punctuation is echoed
// when every word in it is the arguments' and there are two: a harness that quotes the
// arguments back in its refusal echoes them whole, whatever white space the quote keeps.
func TestDigestMasksEchoedJoinedWords(t *testing.T) {
	refusal := func(args string) string {
		return "Validation failed for tool \"bash\":\n  - command: must have required properties command\n\nReceived arguments:\n" + args
	}
	tests := []struct {
		name         string
		argsA, argsB string
		answer       func(args string) string
		alike        bool
	}{
		{"a refusal quoting tool syntax written into an argument",
			`{"_intent":"list it]<]minimax[>[</intent>]<]minimax[>[<command>ls -la /src/app/]<]minimax[>[</command>"}`,
			`{"_intent":"list it]<]minimax[>[</intent>]<]minimax[>[<command>ls /src/app/]<]minimax[>[</command>"}`,
			refusal, true},
		{"key=value options quoted back",
			`{"command":"deploy --env=staging --region=eu-west"}`,
			`{"command":"deploy --env=prod --region=us-east"}`,
			func(args string) string {
				var a struct{ Command string }
				_ = json.Unmarshal([]byte(args), &a)
				return "error: unknown command in: " + a.Command
			}, true},
		{"one echoed word in punctuation is a printed value",
			`{"command":"python3 -c \"print(['(foo{1,3})'])\""}`,
			`{"command":"python3 -c \"print(['(bar{1,3})'])\""}`,
			func(args string) string {
				if strings.Contains(args, "foo") {
					return "Traceback (most recent call last):\n['(foo{1,3})']"
				}
				return "Traceback (most recent call last):\n['(bar{1,3})']"
			}, false},
		{"a joined field with a word the arguments lack",
			`{"path":"a/b"}`,
			`{"path":"c/d"}`,
			func(args string) string {
				if strings.Contains(args, "a/b") {
					return "error: [a/b]=[missing,gone]"
				}
				return "error: [c/d]=[missing,lost]"
			}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d digester
			d.setEcho([]byte(tt.argsA))
			a := d.digest(tt.answer(tt.argsA), true, false)
			d.setEcho([]byte(tt.argsB))
			b := d.digest(tt.answer(tt.argsB), true, false)
			if (a.masked == b.masked) != tt.alike {
				t.Errorf("masked digests alike: %v, want %v", a.masked == b.masked, tt.alike)
			}
		})
	}
}

// setEcho and echoedParts must cut words alike: a field that is nothing but arguments with
// no white space, echoed back, is masked whenever it holds two words or more.
func FuzzEchoCutsAlike(f *testing.F) {
	for _, s := range []string{`a]<]bb[>[</cc>`, `--env=prod,eu`, `x\ny\"zz`, `a.b.c]d`, `{"k":"v"}`, `\\n]]x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, field string) {
		if strings.ContainsAny(field, " \t\n\r\x1b") || len(field) < 5 {
			return
		}
		var d digester
		d.setEcho([]byte(field))
		if d.echo.n >= len(d.echo.slot)/2 {
			return // full: later words were not kept
		}
		words := 0
		for i := 0; ; {
			if i = argWordStart(field, i); i >= len(field) {
				break
			}
			j, _ := argWordEnd(field, i+1)
			if j-i >= 2 {
				words++
			}
			if i == 0 && j == len(field) {
				words = 0 // one word: not the compound echoedParts looks at
				break
			}
			i = j
		}
		if got := d.echoedParts(field); got != (words >= 2) {
			t.Fatalf("echoedParts(%q) = %v after setEcho of it, with %d words", field, got, words)
		}
	})
}

func TestIsUnderline(t *testing.T) {
	for f, want := range map[string]bool{
		"^^^^^": true, "~~~~^^^^": true, "^^": true, "^": false, "~~~": false, "~": false,
		"^x^": false, "a^^": false, "~/src": false, "": false,
	} {
		if got := isUnderline(f); got != want {
			t.Errorf("isUnderline(%q) = %v, want %v", f, got, want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	var d digester
	base := "Your proposed edit has introduced new syntax error(s). Please read the error and retry. ERRORS: E999 IndentationError: unexpected indent at line 90 of manpage.py"
	tests := []struct {
		name     string
		a, b     string
		min, max float64
	}{
		{"identical", base, base, 1, 1},
		{"one word changed", base, strings.Replace(base, "unexpected", "unindent", 1), 0.6, 0.95},
		{"unrelated", base, "total 12 drwxr-xr-x 3 root root 4096 Dec 1 src", 0, 0.2},
		{"both empty", "", "", 1, 1},
		{"one empty", base, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := d.digest(tt.a, false, false), d.digest(tt.b, false, false)
			if s := similarity(&a.sketch, &b.sketch); s < tt.min || s > tt.max {
				t.Errorf("similarity %.2f, want %.2f..%.2f", s, tt.min, tt.max)
			}
		})
	}
}

// digitOrSlash flags exactly the digits, '/' and '\\' of a word, in every position.
func TestDigitOrSlash(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			w := uint64(0x6161616161616161) // "aaaaaaaa"
			w = w&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			m := digitOrSlash(w)
			got := m != 0 && bits.TrailingZeros64(m)/8 == pos
			want := (c >= '0' && c <= '9') || c == '/' || c == '\\'
			if got != want {
				t.Fatalf("byte %#x at %d: flagged %v, want %v", c, pos, got, want)
			}
		}
	}
}

func TestMutatingCalls(t *testing.T) {
	d := newProgressDetector(*DefaultProgress(), catalogueFor("en"))
	tests := []struct {
		tool, args string
		want       bool
	}{
		{"edit_file", `{"path":"a.go"}`, true},
		{"str_replace_editor", `{"command":"view","path":"a.go"}`, false},
		{"str_replace_editor", `{"command":"str_replace","path":"a.go"}`, true},
		{"str_replace_editor", `{"refused_attempt":3}`, false}, // refused before it ran: changed nothing
		{"str_replace_editor", `str_replace_editor view /a.go --view_range 1 20`, false},
		{"str_replace_editor", `str_replace_editor create /a.go --file_text x`, true},
		{"apply_patch", `*** Begin Patch`, true},
		{"Write", `{"file_path":"a.go","content":"x"}`, true},
		{"Read", `{"file_path":"a.go"}`, false},
		{"bash", `{"command":"pytest -q tests/"}`, false},
		{"bash", `{"command":"python reproduce.py 2>&1"}`, false},
		{"bash", `{"command":"ls > /dev/null"}`, false},
		{"bash", `{"command":"make 2> /dev/stderr"}`, false},
		{"execute_command", `{"command":"taskkill /F /IM proxy.exe 2>nul & start /B proxy.exe"}`, false},
		{"execute_command", `{"command":"dir build 2>NUL"}`, false},
		{"execute_command", `{"command":"del build\\out.txt"}`, true},
		{"execute_command", `{"command":"cd c:\\app && ren terraform.tfvars terraform.auto.tfvars && terraform plan"}`, true},
		{"execute_command", `{"command":"dir *.tf && type variables.tf"}`, false},
		{"powershell", `{"command":"Set-Content -Path a.txt -Value 1"}`, true},
		{"powershell", `{"command":"Get-Content a.txt | Select-String Error"}`, false},
		{"powershell", `{"command":"Get-Process proxy -ErrorAction SilentlyContinue 2>$null"}`, false},
		{"powershell", `{"command":"Remove-Item x -ErrorAction SilentlyContinue 2>$null"}`, true},
		{"execute_command", `{"command":"type a.txt > nul.txt"}`, true},
		{"execute_command", `{"command":"echo x > null"}`, true},
		{"bash", `{"command":"sed -i 's/a/b/' x.py"}`, true},
		{"bash", `{"command":"cat > x.py <<'EOF'\nprint(1)\nEOF"}`, true},
		{"bash", `{"command":"echo hi >> log.txt"}`, true},
		{"bash", `{"command":"git checkout -- x.py"}`, true},
		{"bash", `{"command":"pip install -e ."}`, true},
		{"bash", `{"command":"python -c \"open('x','w').write('1')\""}`, true},
		{"bash", `{"command":"grep -n 'a->b' x.c"}`, false},
		// SWE-agent's own editors, run by its shell (validation round r67d M1)
		{"bash", `{"command":"edit 145:145\n    headers = {}\nend_of_edit"}`, true},
		{"bash", "edit 26:28\n        payload = {}\nend_of_edit", true},
		{"bash", `{"command":"create reproduce.py"}`, true},
		{"bash", `{"command":"insert 12\nimport os\nend_of_insert"}`, true},
		{"bash", `{"command":"str_replace_editor str_replace /repo/a.py --old_str x --new_str y"}`, true},
		{"bash", `{"command":"str_replace_editor view /repo/a.py"}`, false},
		{"bash", `{"command":"grep -n \"def edit\" src/editor.py"}`, false},
		{"bash", `{"command":"editor --version"}`, false},
		{"bash", `{"command":"python edit_config.py"}`, false},
		{"Bash", `{"command":"echo \u003e out.txt"}`, true},
		{"shell", `{"command":["apply_patch","*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"]}`, true},
		{"shell", `{"command":["bash","-lc","npx prettier --write src/app.ts"]}`, true},
		{"shell", `{"command":["bash","-lc","ruff check --fix ."]}`, true},
		{"shell", `{"command":["bash","-lc","ruff check ."]}`, false},
		{"write_stdin", `{"session_id":4,"chars":"","yield_time_ms":10000}`, false},
		{"write_stdin", `{"session_id":4,"chars":"y\n"}`, false},
		{"write_stdin", `{"session_id":4,"chars":"echo done > status.txt\n"}`, true},
		{"shell", `{"command":["bash","-lc","rg -n apply_patch_helper src"]}`, false},
		{"bash_command", `[{"keystrokes":"cat > fix.py <<'EOF'\nprint(1)\nEOF\n","duration":1}]`, true},
		{"bash_command", `{"keystrokes":"pytest -q tests/\n","duration":30}`, false},
		{"execute_ipython_cell", `{"code":"open('out.txt','w').write('x')"}`, true},
		// database writes (validation round r174b F6)
		{"Python", "Python(file_path=\"clean.py\"):\ncur.execute(\"UPDATE parking SET fee = 0 WHERE fee < 0\")\nconn.commit()", true},
		{"SQL", `SQL(file_path="db.sqlite", command="DELETE FROM parking WHERE id IS NULL", output="direct")`, true},
		{"execute_ipython_cell", `{"code":"df.to_sql('parking', conn, if_exists='replace')"}`, true},
		{"SQL", `SQL(file_path="db.sqlite", command="SELECT * FROM parking WHERE updated_at > 0 LIMIT 5", output="direct")`, false},
		{"execute_ipython_cell", `{"code":"print(pd.read_sql('SELECT * FROM t', conn))"}`, false},
		{"apply_diff", `{"path":"src/app.ts","diff":"<<<<<<< SEARCH"}`, true},
		{"update_file", `{"path":"a.py","content":"x"}`, true},
		{"read_file", `{"path":"a.py"}`, false},
		// the environment a harness's shell keeps between calls
		{"bash", `{"command":"export JAVA_HOME=/usr/lib/jvm/java-17"}`, true},
		{"bash", `{"command":"unset PYTHONPATH"}`, true},
		{"bash", `{"command":"source .venv/bin/activate"}`, true},
		{"shell", `{"command":["bash","-lc","export PATH=$HOME/go/bin:$PATH"]}`, true},
		{"bash", `{"command":"unset PYTHONPATH && pytest -q"}`, false}, // a line that runs something is that something
		{"bash", `{"command":"export KUBECONFIG=/k/config && kubectl get pods"}`, false},
		{"bash", `{"command":"grep -rn "export default Button" src/"}`, false},
		// a search's pattern and an echo's text name no program (validation round r216a)
		{"bash", `search_dir "pip install"`, false},
		{"bash", `{"command":"search_dir \"pip install -d\""}`, false},
		{"bash", `{"command":"grep -rn \"git checkout\" docs/"}`, false},
		{"bash", `{"command":"echo \"rm -rf build\""}`, false},
		{"bash", `{"command":"git grep -n \"rm -rf\""}`, false},
		{"bash", `{"command":"grep -l foo *.py | xargs sed -i 's/a/b/'"}`, true},
		{"bash", `{"command":"echo start && pip install -e ."}`, true},
		{"bash", "grep -n x a.py\nrm a.pyc", true},
		{"bash", `{"command":"grep -n x a.py\nrm a.pyc"}`, true},
		{"bash", `{"command":"echo $(rm stale.lock)"}`, true},
		{"bash", `{"command":"apt-get update"}`, true},
		{"bash", `{"command":"conda activate testbed"}`, true},
		{"bash", `{"command":"python - <<'PY'\nimport inspect\nsource = inspect.getsource(mod)\nPY"}`, false},
		{"bash", `{"command":"env | grep JAVA"}`, false},
		// a '>' the shell reads as data: quoted, escaped, or code of another language
		{"bash", `{"command":"curl -s -G --data-urlencode \"text=<b>hi</b>\" http://victim:1337/"}`, false},
		// a request that sends data changes the server's state (sendsData); a query does not
		{"bash", `{"command":"curl -s -X POST -d \"text=<b>hi</b>\" http://victim:1337/"}`, true},
		{"bash", `{"command":"curl -s -H 'Content-Type: application/json' --data '{\"amount\":-1000}' http://victim:8080/api/wallet/transaction"}`, true},
		{"bash", `{"command":"wget --post-data 'a=1' http://host/form"}`, true},
		{"run_shell_command", `{"command":"curl.exe -s -X POST \"http://127.0.0.1:1337/v0.1/scan\" -d '{}'"}`, true}, // PowerShell's curl is another program (r103c M1)
		{"run_shell_command", `{"command":"npm.cmd install left-pad"}`, true},
		{"run_shell_command", `{"command":"curl.exe -s http://127.0.0.1:1337/v0.1/"}`, false},
		{"bash", `{"command":"curl -s http://victim:8080/api/wallet/balances"}`, false},
		{"bash", `{"command":"curl -sI -X GET http://host/health"}`, false},
		{"bash", `{"command":"curl -s http://victim:1337/ | sed -e 's/>/>\n/g'"}`, false},
		{"bash", `{"command":"python3 -c \"print(len(xs) > 3)\""}`, false},
		{"bash", `{"command":"echo \\> x"}`, false},
		{"bash", `{"command":"echo \"it's done\" > status.txt"}`, true},
		{"bash", `{"command":"printf '%s' \"a\\\"b\" > out.txt"}`, true},
		{"bash", `{"command":"echo hi \u003e\u003e log.txt"}`, true},
		{"bash", `grep -n "a > b" x.py`, false},
		{"bash", `echo "<p>" > page.html`, true},
		{"execute_ipython_cell", `{"code":"if len(xs) > 3:\n    print(xs)"}`, false},
		{"python", `{"code":"with open('out.txt', 'w') as f:\n    f.write(str(a > b))"}`, true},
		{"execute_ipython_cell", `{"code":"edit_file_by_replace(\n'/workspace/src/App.tsx',\nto_replace=\"<App />\",\nnew_content=\"<App dark />\")"}`, true},
		{"execute_ipython_cell", `{"code":"insert_content_at_line('a.py', 3, 'x = 1')"}`, true},
		{"execute_ipython_cell", `{"code":"open_file('/workspace/src/App.tsx')"}`, false},
		{"bash", `{"command":"# Let's write the config\ncat config.yml > config.bak"}`, true},
		{"bash", `{"command":"echo 'a' # it's a note > not.txt"}`, false},
		{"bash", `{"command":"echo a#b > f.txt"}`, true},
		{"bash", "# Let's look\ncat x > y.txt", true},
		{"execute_ipython_cell", `{"code":"!ls -la > files.txt"}`, true},
		{"execute_ipython_cell", `{"code":"import os\n!grep -rn TODO src > todo.txt"}`, true},
		{"execute_ipython_cell", `{"code":"%%bash\necho hi > greeting.txt"}`, true},
		{"execute_ipython_cell", `{"code":"%%writefile fix.py\nprint(1)"}`, true},
		{"execute_ipython_cell", `{"code":"x = 3\nprint(x > 2)  # !not shell"}`, false},
		// a sign-in changes what the next call may do (validation round r101c F2)
		{"run_shell_command", `{"command":"gh auth login"}`, true},
		{"bash", `{"command":"aws sso login --profile dev"}`, true},
		{"bash", `{"command":"op signin"}`, true},
		{"bash", `{"command":"gh auth status"}`, false},
		{"bash", `{"command":"gh run view 123 --log"}`, false},
	}
	for _, tt := range tests {
		c := d.classify(tt.tool)
		if got := mutates(c.mutating, tt.tool, []byte(tt.args), readArgKeys([]byte(tt.args))); got != tt.want {
			t.Errorf("%s %s: mutating %v, want %v", tt.tool, tt.args, got, tt.want)
		}
	}
}

// The digest reads untrusted tool output: it must never panic, and normalising must not
// depend on where the text sits in memory.
func FuzzDigest(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "x error: y", "Traceback (most recent call last):", "sh: 1: foo: command not found", "\x1b[31mx\x1b]0;t\x07", "2026-12-01T10:00:00Z 12ms pid 7 0xff", "/tmp/x\\Temp\\y",
		strings.Repeat("line 12\n", 200), "\x1b", "\x1b[", "\r", "1 s", "pid=", "éé 12µs",
		`{"error": "x", "ok": true}`, `{"status":"Failed"}`, "Output: {\"error\": 1}\nProcess Group PGID: 3", "Command: x\nOutput: {\"ok\":false}\nExit Code: 0", `{"errors": [], "e\u0072ror": 0.0}`,
		`{"exit_code": 127, "output": "x"}`, `{"returncode": -0, "exitCode": 1e999}`} {
		f.Add(s, `{"a":"b"}`)
	}
	f.Fuzz(func(t *testing.T, text, args string) {
		var d digester
		d.setEcho([]byte(args))
		a := d.digest(text, true, true)
		b := d.digest(strings.Clone(text), true, true)
		if a != b {
			t.Fatalf("two digests of the same text differ")
		}
		if len(d.lines) > maxLines {
			t.Fatalf("%d line hashes kept", len(d.lines))
		}
		if hashLine(text) != hashLineByBytes(text) {
			t.Fatalf("hashLine differs from the byte-by-byte hash")
		}
		if looksFailed(text) != looksFailedByContains(text) {
			t.Fatalf("looksFailed differs from looking for each mark")
		}
		if failureSignature(text) != failureSignatureByLastIndex(text) {
			t.Fatalf("failureSignature differs from its plain statement")
		}
		if got, want := readArgKeys([]byte(args)), argKeysByIndex([]byte(args)); got != want {
			t.Fatalf("readArgKeys(%q) = %+v, want %+v", args, got, want)
		}
		// Setting ideographs apart only adds spaces and turns their punctuation into one.
		spaced := d.spaceIdeographs(text)
		if utf8.ValidString(text) && strings.ReplaceAll(spaced, " ", "") != strings.Map(func(r rune) rune {
			if r == ' ' || isIdeographicPunct(r) {
				return -1
			}
			return r
		}, text) {
			t.Fatalf("spaceIdeographs(%q) = %q: more than spaces changed", text, spaced)
		}
		if a, b := d.digestThought(text), d.digestThought(strings.Clone(text)); a != b {
			t.Fatalf("two thought digests of the same text differ")
		}
	})
}

// hashLineByBytes is the plain statement of what hashLine computes, byte by byte, as the walk
// before sortField did it: every field (run of bytes above ' ') that holds a digit, '/' or
// '\\' is put to volatileKind, and a volatile one is replaced by the marker. hashLine must
// agree with it on every line (it passes over backslashes, which never make a field volatile).
func hashLineByBytes(line string) uint64 {
	h := uint64(mixK2)
	seg := 0
	start := 0
	if fs, fe := leadingLetterID(line); fe > 0 {
		h = hashChunk(h, line[:fs])
		h = mixWord(h, markVolatile)
		seg, start = fe, fe
	}
	for fs := start; fs < len(line); {
		if line[fs] <= ' ' {
			fs++
			continue
		}
		fe := fs
		interesting := false
		for fe < len(line) && line[fe] > ' ' {
			c := line[fe]
			interesting = interesting || (c >= '0' && c <= '9') || c == '/' || c == '\\'
			fe++
		}
		if interesting {
			f := line[fs:fe]
			prev := prevNone
			if fs > 0 {
				pe := fs
				for pe > 0 && (line[pe-1] == ' ' || line[pe-1] == '\t') {
					pe--
				}
				ps := pe
				for ps > 0 && line[ps-1] > ' ' {
					ps--
				}
				last := byte(0)
				if pe > ps {
					last = line[pe-1]
				}
				switch word := line[ps:pe]; {
				case !('a' <= last|0x20 && last|0x20 <= 'z' || last == ':' || last == '='):
					// a count word ends in a letter, ':' or '=' ("pid": 1, pid=1; not "pid" 1)
				case len(labelWord(word)) <= 7: // its wrapping aside: "(attempt 2)"
					prev = countWord(word)
				case handleLabel(word): // a label longer than a count word: "shellId:"
					prev = prevHandle
				case timeLabel(word): // "elapsed_ms", "createdAt"
					prev = prevCount
				}
				if prev == prevCount && !isDigits(f) {
					prev = prevNone // a count word speaks for a bare number only
				}
			}
			if volatileKind(f, prev, line[fe:]) != fieldPlain {
				h = hashChunk(h, line[seg:fs])
				h = mixWord(h, markVolatile)
				seg = fe
			}
		}
		fs = fe
	}
	return hashChunk(h, line[seg:])
}

// fieldSamples are fields of the kinds a tool prints, volatile and not, with the wrapping
// and punctuation that surround them.
var fieldSamples = []string{
	"1", "12", "4242", "123456789012", "3)", "7],", "(12)", "[3]", "\"42\"", "12:", "1.", "3.11.7",
	"result_12", "certificate_3221322", "order-1000457.", "result_12345", "ab_123456", "x_1234567", "items[3],", "transform(items[1],", "module_12.py", "x1", "a1", "v2", "abc123",
	"deadbeef", "deadbeef01", "dead-beef-0123", "3f2a9c1b7e8d", "0x7f3a2b4c", "0X1F", "<0x1f>",
	"123e4567-e89b-42d3-a456-426614174000", "msg_01HZX9K2QW7TBC3", "abcdefghijk1", "abcdefghij123",
	"2026-12-01", "2026-12-01T10:00:00.123Z", "10:04:55", "01/02/2024", "12ms", "1.5s", "2m30s",
	"12µs", ".5s", ".123456789ms", "-12345678", "-1234567", "-12:34:56.789", "pid=4242", "id=9f86d081884c",
	"key=3", "a=b1", "/tmp/x1", "/var/folders/ab/T/1", "/testbed/pkg/module_1.py", "C:\\Temp\\x1",
	"x\\Temp\\1/", "\\", "a\\b1", "12%", "v1.2.3", "1st", "2nd", "e1", "E10", "0", "00000000",
	"ffffffff", "fffffff1", "-", "--1", "=1", "1=", "/", "1/", "ab/1", "(1", "1(", "((1))", "{1}",
	"'1'", "`1`", ";1;", "<1>", "a" + "\x80" + "1", "\xc2\xb5" + "1", "1\xc2\xb5s", "éé12",
	"14:30", "09:05", "24:00", "16:9", "12:60", "(attempt", "2025年3月1日", "14时30分05秒", "1.5秒", "12毫秒", "3分", "3月", "第3次", "3次",
}

// The glance never calls a field plain that volatileKind calls volatile, and finds the same
// field bounds as a byte-by-byte walk, whatever the words before and after the field say.
func TestSortFieldAgreesWithVolatileKind(t *testing.T) {
	befores := []string{"", " ", "pid ", "PGID: ", "attempt\t", "took  ", "x ", "\t", "longerword ", "(attempt ", "[pid: "}
	afters := []string{"", " ", " seconds", " s", " ms", " sec ago", "\tx", " 12", ",", " and more text here", " 秒", " 分"}
	fields := append([]string(nil), fieldSamples...)
	// and every pair of samples run together, for the fields of other lengths and shapes
	for _, a := range fieldSamples {
		for _, b := range fieldSamples[:20] {
			fields = append(fields, a+b, b+a)
		}
	}
	for _, f := range fields {
		for _, before := range befores {
			for _, after := range afters {
				line := before + f + after
				k := nextDigitOrSlash(line, len(before))
				if k >= len(before)+len(f) {
					continue // no digit or '/' in the field: never looked at
				}
				fs, fe, verdict := sortField(line, k)
				ws, we := k, k
				for ws > 0 && line[ws-1] > ' ' {
					ws--
				}
				for we < len(line) && line[we] > ' ' {
					we++
				}
				if fs != ws || fe != we {
					t.Fatalf("%q: field %d..%d, want %d..%d", line, fs, fe, ws, we)
				}
				f := line[fs:fe]
				if got, want := hashLine(line), hashLineByBytes(line); got != want {
					t.Fatalf("%q: hashLine differs from the byte-by-byte hash", line)
				}
				if verdict == quickPlain && (volatileKind(f, prevNone, line[fe:]) != fieldPlain ||
					volatileKind(f, prevCount, line[fe:]) != fieldPlain) {
					t.Errorf("%q in %q: called plain, volatileKind says volatile", f, line)
				}
				if verdict == quickWrappedNumber && !isDigits(trimWrapOnly(f)) {
					t.Errorf("%q: called a wrapped number", f)
				}
				if verdict == quickNumber && !isDigits(f) {
					t.Errorf("%q: called a number", f)
				}
			}
		}
	}
}

func trimWrapOnly(f string) string {
	for len(f) > 0 && isWrap(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && isWrap(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	return f
}

// The word masks flag exactly their bytes, in every position of the word.
func TestWordMasksFlagExactlyTheirBytes(t *testing.T) {
	masks := []struct {
		name string
		mask func(uint64) uint64
		want func(c byte) bool
	}{
		{"lowBytes", lowBytes, func(c byte) bool { return c <= ' ' }},
		{"digitBytes", digitBytes, func(c byte) bool { return c >= '0' && c <= '9' }},
		{"digitOrSlashOnly", digitOrSlashOnly, func(c byte) bool { return (c >= '0' && c <= '9') || c == '/' }},
		{"slashOrEq", slashOrEq, func(c byte) bool { return c == '/' || c == '=' }},
	}
	fills := []uint64{0x6161616161616161, 0, 0x3030303030303030, 0xffffffffffffffff, 0x2020202020202020, 0x2f2f2f2f2f2f2f2f}
	for _, m := range masks {
		for _, fill := range fills {
			for pos := 0; pos < 8; pos++ {
				for c := 0; c < 256; c++ {
					w := fill&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
					got := m.mask(w)>>(8*pos+7)&1 == 1
					if got != m.want(byte(c)) {
						t.Fatalf("%s: byte %#x at %d among %#x: flagged %v", m.name, c, pos, fill, got)
					}
				}
			}
		}
	}
}

// looksFailedByContains is looksFailed's plain statement: a nonzero exit status in the first or last
// exitWindow bytes, any failure mark in the last 2 KB, or a JSON answer reporting an error.
// aptErrorLine is apt's and dpkg's error line, "E: " at a line's start.
var aptErrorLine = regexp.MustCompile(`(?m)^E: `)

func looksFailedByContains(result string) bool {
	full := result
	head, tail := result, result
	if len(result) > exitWindow {
		head, tail = result[:exitWindow], result[len(result)-exitWindow:]
	}
	if nonzeroExitPattern.MatchString(head) || nonzeroExitPattern.MatchString(tail) {
		return true
	}
	if len(result) > 2048 {
		result = result[len(result)-2048:]
	}
	for _, m := range failureMarks {
		if len(markIndexes(result, m)) > 0 {
			return true
		}
	}
	if aptErrorLine.MatchString(result) {
		return true
	}
	return reportsErrorFieldByDecoding(shellBodyByLines(full)) || opensWithFailure(full) || mcpResultReprFailed(full)
}

// shellBodyByLines is shellOutputBody's plain statement, line by line: from an opening line
// "Output: x" (or the first such line within 4 KiB of an opening "Command: " line), x and the
// lines after it, less the trailer lines of Gemini CLI's at the end; else the text as it is.
func shellBodyByLines(text string) string {
	lines := strings.Split(text, "\n")
	start, offset := -1, 0
	for i, l := range lines {
		if strings.HasPrefix(l, "Output: ") && (i == 0 || strings.HasPrefix(lines[0], "Command: ") && offset+8 <= 4096) {
			start = i
			break
		}
		offset += len(l) + 1
	}
	if start < 0 {
		return text
	}
	body := lines[start:]
	body[0] = strings.TrimPrefix(body[0], "Output: ")
	for len(body) > 1 && isShellTrailerLine(body[len(body)-1]) {
		body = body[:len(body)-1]
	}
	return strings.Join(body, "\n")
}

// emptyFieldPattern is what follows a mark's colon when the field says there was none
// (Gemini CLI's "Error: (none)").
var emptyFieldPattern = regexp.MustCompile(`^[ \t]*(?:\(none\)|none|None|null|nil)(?:[\r\n]|$)`)

// caughtAsExpectedPattern is caughtAsExpected's plain statement: a mark after a letter, a
// space and "expected ".
var caughtAsExpectedPattern = regexp.MustCompile(`[A-Za-z] expected $`)

// objectKeyPattern is objectKeyAt's plain statement: the mark ends a longer word that follows
// "{ " or ", " (a JSON object's key, "{ SqliteError: ...", or prose, "none, paniError:").
var objectKeyPattern = regexp.MustCompile(`[{,] [0-9A-Za-z$]+$`)

// markIndexes is where m stands in s as a mark: everywhere, but where a colon mark heads an
// empty field, follows "expected" (caughtAsExpectedPattern) or ends a longer word after "{ " or
// ", " (objectKeyPattern).
func markIndexes(s, m string) (at []int) {
	for i := 0; ; {
		j := strings.Index(s[i:], m)
		if j < 0 {
			return at
		}
		if !strings.HasSuffix(m, ":") || !emptyFieldPattern.MatchString(s[i+j+len(m):]) && !caughtAsExpectedPattern.MatchString(s[:i+j]) &&
			!objectKeyPattern.MatchString(s[:i+j]) {
			at = append(at, i+j)
		}
		i += j + 1
	}
}

// reportsErrorFieldByDecoding is reportsErrorField's plain statement, with encoding/json: the
// text is one JSON object of at most maxErrorEnvelope bytes; an error or success flag
// decides, else a non-empty error field, or a failed status with the message that explains it.
func reportsErrorFieldByDecoding(text string) bool {
	if len(strings.Trim(text, " \t\r\n")) > maxErrorEnvelope {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	var errFlag, okFlag *bool
	var exit *float64
	named, statusFailed, cause := false, false, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return false
		}
		var v any
		_ = json.Unmarshal(raw, &v)
		switch key {
		case "isError", "is_error":
			if b, ok := v.(bool); ok {
				errFlag = &b
			}
		case "success", "ok":
			if b, ok := v.(bool); ok && okFlag == nil {
				okFlag = &b
			}
		case "error", "errors", "error_type", "errorType", "error_message", "errorMessage":
			cause = cause || key == "error"
			switch x := v.(type) {
			case nil:
				named = named || raw[0] != 'n' // a number out of float64's range still names an error
			case bool:
				named = named || x
			case string:
				named = named || strings.TrimSpace(x) != ""
			case float64:
				named = named || x != 0
			case map[string]any:
				named = named || len(x) > 0
			case []any:
				named = named || len(x) > 0
			}
		case "exit_code", "exitCode", "returncode", "return_code":
			if n, ok := v.(float64); ok && exit == nil {
				exit = &n
			} else if !ok && exit == nil && len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
				big := 1.0 // a number out of float64's range is not 0
				exit = &big
			}
		case "status":
			if s, ok := v.(string); ok {
				switch strings.ToLower(s) {
				case "error", "fail", "failed", "failure":
					statusFailed = true
				}
			}
		case "message", "detail", "reason":
			cause = true
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		return false
	}
	switch {
	case errFlag != nil:
		return *errFlag
	case okFlag != nil:
		return !*okFlag
	case exit != nil:
		return *exit != 0
	}
	return named || statusFailed && cause
}

// failureSignatureByLastIndex is failureSignature's plain statement: the line around the last
// occurrence of any mark in the last 2 KB (a traceback's header gives way to its last line), or
// for a JSON answer's error, that line of the error's text, else the whole text.
func failureSignatureByLastIndex(result string) uint64 {
	if msg := jsonErrorMessage(result); msg != "" {
		// A JSON answer's error field says the failure (jsonErrorMessage): the line in it
		// that names one, else the whole message.
		if h := markSignatureByLastIndex(msg); h != 0 {
			return h
		}
		return signatureOf(msg, 0)
	}
	return markSignatureByLastIndex(result)
}

// markSignatureByLastIndex is failureSignatureByLastIndex for text: in the last 2 KB, or, when
// no line there names the failure and a closing tally or verdict was passed over, in the last
// 8 KB if a line there does.
func markSignatureByLastIndex(result string) uint64 {
	tally := tallyAboveByLines(result)
	h, named, tallied := markSignatureIn(result, 2048, tally)
	if !named && tallied && len(result) > 2048 {
		if wide, named, _ := markSignatureIn(result, 8192, tally); named {
			return wide
		}
	}
	return h
}

// tallyAboveByLines is tallyAbove's plain statement, line by line: in the last tallyWindow
// bytes, the first line that is a number and " failing" (spaces and tabs before it, a carriage
// return after it), with the lines just above it, at most two, that count tests passing or
// pending.
func tallyAboveByLines(result string) uint64 {
	if len(result) > tallyWindow {
		result = result[len(result)-tallyWindow:]
	}
	lines := strings.Split(result, "\n")
	for k, l := range lines {
		n, ok := strings.CutSuffix(strings.TrimLeft(strings.TrimSuffix(l, "\r"), " \t"), " failing")
		if !ok || !digitsPattern.MatchString(n) {
			continue
		}
		h := hashLine(strings.TrimSpace(l))
		for above := k - 1; above >= 0 && above >= k-2; above-- {
			a := strings.TrimSpace(lines[above])
			if !testCountPattern.MatchString(a) {
				break
			}
			h = combine(h, hashLine(a))
		}
		return h
	}
	return 0
}

var (
	digitsPattern    = regexp.MustCompile(`^[0-9]+$`)
	testCountPattern = regexp.MustCompile(`^[0-9]+ (?:passing|pending)(?:$|[^A-Za-z0-9])`) // countsTests'
)

// markSignatureIn is markSignatureByLastIndex within the last size bytes; named says a line
// there names the failure, tallied that a tally or verdict with a mark was passed over. tally
// is the tally above the failures (tallyAboveByLines), counted with a failure named.
func markSignatureIn(result string, size int, tally uint64) (h uint64, named, tallied bool) {
	if len(result) > size {
		result = result[len(result)-size:]
	}
	// The last mark whose line is not a bare tally (isFailureTally) names the failure.
	var at, start, end int
	for limit := len(result) + 1; ; {
		at = -1
		for _, m := range failureMarks {
			for _, i := range markIndexes(result, m) {
				if i < limit {
					at = max(at, i)
				}
			}
		}
		if at < 0 {
			// No line names a failure: the lines that count problems, last first, do.
			var counts uint64
			lines := strings.Split(result, "\n")
			for i := len(lines) - 1; i >= 0; i-- {
				if !strings.Contains(strings.ToLower(lines[i]), "fail") && problemCountPattern.MatchString(lines[i]) {
					counts = combine(counts, hashLine(strings.TrimSpace(lines[i])))
				}
			}
			return signatureOf("", counts), false, tallied
		}
		start = strings.LastIndexByte(result[:at], '\n') + 1
		end = len(result)
		if i := strings.IndexByte(result[at:], '\n'); i >= 0 {
			end = at + i
		}
		if !isFailureTally(result[start:end]) {
			break
		}
		tallied = true
		limit = start
	}
	line := strings.TrimSpace(result[start:end])
	var after uint64 // the lines after the mark's that hold "fail" in any case or count problems, last first
	rest := strings.Split(result[end:], "\n")
	for i := len(rest) - 1; i >= 0; i-- {
		if strings.Contains(strings.ToLower(rest[i]), "fail") || problemCountPattern.MatchString(rest[i]) {
			after = combine(after, hashLine(strings.TrimSpace(rest[i])))
		}
	}
	if tally != 0 {
		after = combine(after, tally)
	}
	if strings.HasPrefix(line, "Traceback (most recent call last)") {
		line = lastLine(result[end:])
	}
	return signatureOf(line, after), true, tallied // the hash of what was found; finding it is what is checked
}

// problemCountPattern is countsProblems' plain statement.
var problemCountPattern = regexp.MustCompile(`[0-9] (?i:error|problem|warning)(?i:s)?(?:[^A-Za-z0-9]|$)`)

func TestCountsProblems(t *testing.T) {
	for _, line := range []string{
		"✖ 13 problems (10 errors, 3 warnings)", "Found 3 errors in 2 files.", "1 error", "2 WARNINGS",
		"3 errors generated.", "error: could not compile `x` due to 2 previous errors", "13 problemsets", "errors: 3",
		"3 warningless builds", "0 errors_total", "3 error_codes", "7 problem.", "", "9", " 9 errors", "x 9 Errors!",
	} {
		if got, want := countsProblems(line), problemCountPattern.MatchString(line); got != want {
			t.Errorf("countsProblems(%q) = %v, want %v", line, got, want)
		}
	}
}

// argKeysByIndex is readArgKeys' plain statement: a search for each key.
func argKeysByIndex(args []byte) argKeys {
	var k argKeys
	for _, key := range captionKeys {
		k.caption = k.caption || bytes.Contains(args, key)
	}
	shell := false
	for _, key := range commandLineKeys {
		k.commandLine = k.commandLine || bytes.Contains(args, []byte(key))
		shell = shell || key != `"code"` && bytes.Contains(args, []byte(key))
	}
	k.code = k.commandLine && !shell
	// the first of the typing keys decides
	i, key := -1, ""
	for _, t := range []string{`"keystrokes"`, `"chars"`, `"command"`, `"cmd"`} {
		if j := bytes.Index(args, []byte(t)); j >= 0 && (i < 0 || j < i) {
			i, key = j, t
		}
	}
	if i >= 0 {
		k.sendsNoKeys = bytes.HasPrefix(bytes.TrimLeft(args[i+len(key):], " \t\r\n:"), []byte(`""`))
	} else {
		k.sendsNoKeys = codeSendsNoKeys(args)
	}
	// the first "action", else the first "Action"
	i = bytes.Index(args, []byte(`"action"`))
	if i < 0 {
		i = bytes.Index(args, []byte(`"Action"`))
	}
	if i >= 0 {
		rest := bytes.TrimLeft(args[i+len(`"action"`):], " \t\r\n:")
		if len(rest) >= 2 && rest[0] == '"' {
			if end := bytes.IndexByte(rest[1:], '"'); end >= 0 {
				switch string(rest[1 : 1+end]) {
				case "poll", "wait", "status", "log", "logs":
					k.asksToPoll = true
				}
				k.onScreen = screenActions[string(rest[1:1+end])]
			}
		}
	}
	// the first "is_input"
	if i := bytes.Index(args, isInputKey); i >= 0 {
		rest := bytes.TrimLeft(args[i+len(isInputKey):], " \t\r\n:")
		k.typesIntoRunning = bytes.HasPrefix(rest, []byte("true")) || bytes.HasPrefix(rest, []byte(`"true"`))
	}
	return k
}

func TestReadArgKeysMatchesASearchPerKey(t *testing.T) {
	for _, a := range []string{``, `"`, `""`, `{"command":"ls"}`, `{"path":"x","code":"print(1)"}`, `{"keystrokes":""}`,
		`{"x":"\"cmd\""}`, `{"scripts":1}`, `{"c":"command"}`, `"command"`, `{"k":"s","s":"c"}`, `{"a":1,"script"`, `["cmd"]`,
		`{"keystrokes": "", "duration": 5}`, `{"keystrokes":"ls\n"}`, `{"k":"keystrokes","keystrokes":""}`, `{"x":"\"keystrokes\":\"\""}`,
		`{"keystroke":""}`, `"keystrokes"`, `{"keystrokes" : ""}`, `{"session_id":4,"chars":"","yield_time_ms":10000}`,
		`{"session_id":4,"chars":"y\n"}`, `{"chars":"","keystrokes":"ls"}`, `{"c":"chars"}`, `{"command": "", "is_input": "true"}`,
		`{"command":"pytest -x"}`, `{"cmd":""}`, `{"cmdline":""}`, `{"commands":""}`,
		`{"command":"ls","description":"List"}`, `{"a":{"explanation":"x"}}`, `{"task_progress":"- [x]"}`, `{"justification":1}`, `{"command":"ls","summary":"List"}`, `{"summary":"x"}`, `{"sum":"summary"}`,
		`{"describe":"x"}`, `{"action":"poll"}`, `{"Action":"wait"}`, `{"action":"kill","Action":"poll"}`, `{"Action":"poll","action":"kill"}`,
		`{"action": "logs"}`, `{"action":"`, `{"a":"action","action":"status"}`,
		`await tools.write_stdin({session_id: 4, chars: ""})`, `{"code":"x","command":"ls"}`, `{"command":"ls","code":"a > b"}`, `{"code":"if a > b: pass"}`,
		`{"x":"\"code\"","cmd":"y"}`, `{"command":"C-c","is_input":true}`, `{"is_input": false, "command": "ls"}`, `{"is_input":"true"}`,
		`{"x":"\"is_input\": true"}`, `{"is_input":false,"is_input":true}`, `{"is_inputs":true}`, `{"is_input" : true}`, `"is_input"`} {
		if got, want := readArgKeys([]byte(a)), argKeysByIndex([]byte(a)); got != want {
			t.Errorf("readArgKeys(%q) = %+v, want %+v", a, got, want)
		}
	}
}

// failureSignature reads the lines from the end; its plain statement looks for each mark.
func TestFailureSignatureMatchesItsPlainStatement(t *testing.T) {
	filler := strings.Repeat("ok: value=1 errors none\n", 120)
	texts := []string{"", "\n", "\n\n", "error: x", "x\nerror: y\n", "a\nFAILED t - b\nc\n",
		"Traceback (most recent call last):\n  File \"x\", line 3\nValueError: bad\n",
		"Traceback (most recent call last):", "Traceback (most recent call last):\n\n  \n",
		"E   AssertionError: 1 != 2\nFAILED test_x.py::t - AssertionError\n== 1 failed in 0.2s ==\n",
		"ERROR one\nERROR two", "   Error: padded   \r\n",
		"FAILED t::a - boom\n== 2 failed, 5 passed in 0.4s ==\n", "FAILED t::a - boom\n== 1 failed, 6 passed in 0.4s ==\nFAILURES: none left\n",
		"src/a.jsx\n  3:1  error  'x' is unused\n\n✖ 13 problems (10 errors, 3 warnings)\nExit Code: 1\n",
		"Found 3 errors in 2 files.\n", "error: boom\nFound 3 errors in 2 files.\n1 warning\n",
		"  78 passing (2s)\n  2 pending\n  49 failing\n\n  1) Suite\n       test:\n     TypeError: x is not a function\n",
		"  89 passing (2s)\n  40 failing\r\n\n  1) Suite\n     TypeError: x is not a function\n", "49 failing\nTypeError: y",
		"  3 passing\n  x 4 failing\n  5 failing \nError: z\n", "12 passing\n\t7 failing\nError: z", "7 passingly\n7 failing\nError: z",
		"1 pending\n2 pending\n3 passing\n4 failing\nError: q", " failing\nError: z", "9 failing",
		"  3 passing\n  4 failing\n" + strings.Repeat("x\n", tallyWindow/2) + "Error: z", // the tally before the window read
		"  3 passing\n  4 failing\n" + strings.Repeat("x\n", tallyWindow/2-20) + "Error: z"}
	for _, m := range failureMarks {
		texts = append(texts, m, filler+m, m+"\n"+filler, filler[:2048-len(m)]+m, m+filler[:2048], filler+m+"\n"+m[:len(m)-1])
	}
	// A verdict that names no failure, with the line that does further back than 2 KB, and
	// further than 8 KB.
	for _, verdict := range []string{"BUILD FAILED", "FAILED (failures=1)", "#14 ERROR: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 1"} {
		for _, gap := range []int{2000, 2100, 4000, 8000, 9000} {
			texts = append(texts, "Type error: x is any\n"+strings.Repeat("-", gap)+"\n"+verdict+"\n")
		}
	}
	for _, text := range texts {
		if got, want := failureSignature(text), failureSignatureByLastIndex(text); got != want {
			t.Errorf("failureSignature(%.60q...) = %x, want %x", text, got, want)
		}
	}
}

// looksFailed finds a mark wherever it sits, colon or not, and only in the last 2 KB.
// nonzeroExitPattern is reportsNonzeroExit's plain statement.
var nonzeroExitPattern = regexp.MustCompile(`(?:(?:[eE]xit|EXIT)(?i:(?:ed with)? (?:code|status))|[rR]eturn code|<returncode>|<exit_code>):? *0*[1-9]`)

func TestReportsNonzeroExit(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Chunk ID: b19e45\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\n", true},
		{"Process exited with code 0\nOutput:\nok", false},
		{"Output: hi\nExit Code: 3\nProcess Group PGID: 1", true},
		{"Exit code: 0\nWall time: 0.1 seconds", false},
		{"[Command finished with exit code 2]", true},
		{"[Command finished with exit code -1]", false}, // OpenHands: still running
		{"FAIL\texample.com/p\t0.01s\nexit status 1", true},
		{"EXIT CODE:   10", true},
		{"exit code", false},
		{"texit code 1", true}, // the plain statement looks for the words anywhere too
		{"exit  code 1", false},
		{"exitcode 1", false},
		{"exit code 0 then exit code 4", true},
		{"Exited With Code 2", true},
		{"eXit code 1", false},
		{"Command completed with return code: 1", true},
		{"\n\nCommand completed with return code: 0", false},
		{"Return code 2", true},
		{"RETURN CODE: 127", false}, // not a spelling met
		{"return code", false},
		{"Return Code: 1", false},
		{"return code 0 then return code 3", true},
		{"<returncode>1</returncode>\n<output>\nsed: -e expression #1, char 5: missing command", true}, // mini-swe-agent (r104b U2)
		{"<returncode>0</returncode>\n<output>\nok", false},
		{"<returncode>-1</returncode>", false},
		{"<retrieval_status>success</retrieval_status>\n\n<task_id>bl8h49oh1</task_id>\n\n<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<output>\ngo: downloading", true}, // Claude Code's TaskOutput (r118a U2)
		{"<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\nok", false},
	}
	for _, tt := range tests {
		if got := reportsNonzeroExit(tt.text); got != tt.want {
			t.Errorf("reportsNonzeroExit(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if got := nonzeroExitPattern.MatchString(tt.text); got != tt.want {
			t.Errorf("the pattern on %q = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestLooksFailedFindsEveryMark(t *testing.T) {
	filler := strings.Repeat("ok: value=1 errors none, panic? no. fatal_x:", 60) // colons without a mark
	texts := []string{"", ":", "::", "error", "error :", "rror:", "Error:", "xerror:y", "ERRO", "FAILE",
		"command not foun", "No such file or director", "Traceback (most recent call last", "Exception :",
		"Output: ok\nError: (none)\nExit Code: 0\nSignal: (none)", "Error: (none) but", "error:  none\r\n", "Error:null",
		"fatal: nil\nError: (none)", "Error: (none)\nValueError: bad",
		"[FTL] Application terminated\nHostAbortedException: The host was aborted.\n   at Program.Main()\n\nDone.\n",
		"error: x\n✨  Done in 3.21s.", "ERROR x\nBUILD SUCCESSFUL in 3s", "Error: y\nOK (12 tests)", "Error: y\nOK", "Error: y\nNot OK",
		"Error: y\nDone with errors", "Error: y\nDone.\nError: z", "Traceback (most recent call last):\nDone", "Done.\nexit status 1"}
	for _, m := range failureMarks {
		texts = append(texts, m, m+filler, filler+m, filler[:2048-len(m)]+m, m+filler[:2048],
			m[:len(m)-1]+filler, filler+m[:len(m)-1], ":"+m, m+":")
	}
	for _, text := range texts {
		if got, want := looksFailed(text), looksFailedByContains(text); got != want {
			t.Errorf("looksFailed(%.60q...) = %v, want %v", text, got, want)
		}
	}
	for _, m := range failureMarks {
		if !looksFailed(filler + m) {
			t.Errorf("%q at the end not found", m)
		}
		// (a mark that opens the result is the tool's own word: see opensWithFailure)
		if looksFailed("ok " + m + filler[:2048]) {
			t.Errorf("%q before the last 2 KB found", m)
		}
	}
}

func TestIDLabelBeforeAgreesWithPrevWordKind(t *testing.T) {
	for _, line := range []string{"Chunk ID: b19e45", "id 4242", "ID=77aa", "job id:: 9f", "Id:::::: 12", "Id::::: 12", "kid: 12",
		"xid 12", "\tid\t12", "id12", " ID: 1", "ID:  \t 3", "rapid 5", "\x0bid 7",
		"<shellId: 0", "sessionID=4f2a", "request_id: 9", "job-id 12", "userId: 4", "order_id 7", "android_id 3", "valid: 1"} {
		fs := len(line) - 1
		for fs > 0 && line[fs-1] > ' ' {
			fs--
		}
		prev := prevWordKind(line, fs)
		if got, want := idLabelBefore(line, fs), prev == prevID || prev == prevHandle; got != want {
			t.Errorf("idLabelBefore(%q, %d) = %v, prevWordKind says %v", line, fs, got, want)
		}
	}
}

// An exit status is read where tools print it: Codex's at the top of a long output, others'
// at the end; not in the middle, where a program's own output may mention one.
func TestLooksFailedReadsTheExitStatusAtEitherEnd(t *testing.T) {
	body := strings.Repeat("building module, all fine so far\n", 200)
	tests := []struct {
		name, text string
		want       bool
	}{
		{"Codex's header above a long output", "Chunk ID: b19e45\nWall time: 9.1 seconds\nProcess exited with code 2\nOutput:\n" + body, true},
		{"Codex's header of a command that passed", "Chunk ID: b19e45\nWall time: 9.1 seconds\nProcess exited with code 0\nOutput:\n" + body, false},
		{"an exit code after a long output", body + "[Command finished with exit code 1]", true},
		{"an exit code in the middle is the program's own words", body + "exit code 3 means bad input\n" + body, false},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.text); got != tt.want {
			t.Errorf("%s: looksFailed = %v, want %v", tt.name, got, tt.want)
		}
		if got := looksFailedByContains(tt.text); got != tt.want {
			t.Errorf("%s: the plain statement says %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Failures that Windows shells and Codex's apply_patch print, as real runs show them, read as
// failures without an exit status beside them.
func TestLooksFailedReadsWindowsShellsAndApplyPatch(t *testing.T) {
	for _, text := range []string{
		"= : The term '=' is not recognized as the name of a cmdlet, function, script file, or operable program.",
		"'head' is not recognized as an internal or external command,\noperable program or batch file.",
		"At line:1 char:393\n+ ... | Select-Object -First 5 | ...\nAn empty pipe element is not allowed.",
		"apply_patch verification failed: Failed to find expected lines in /home/u/spec.md:\n### Functional Requirements",
	} {
		if !looksFailed(text) {
			t.Errorf("looksFailed(%q) = false", text)
		}
	}
	if looksFailed("The suite verified the build and recognized 12 tests as passing.") {
		t.Error("a success that says verified and recognized reads as a failure")
	}
}

// A cell of Codex's code mode that threw failed, whatever it printed; one that completed is
// read by what it printed under its header, as Codex's command header is: a printed source
// that formats an error is no failure of a look at a file.
func TestCodeModeCellHeadersAreTheHosts(t *testing.T) {
	tests := []struct {
		result string
		opens  bool
	}{
		{"Script failed\nWall time 0.0 seconds\nOutput:\nScript error:\nTypeError: x is not a function", true},
		{"Script failed\nWall time 0.0 seconds\nOutput:\n", true},
		{"Script completed\nWall time 0.1 seconds\nOutput:\nError: cannot load config", true},
		{"Script completed\nWall time 0.1 seconds\nOutput:\nuse std::error::Error;\nfn main() {}", false},
		{"Script running with cell ID 4\nWall time 10.0 seconds\nOutput:\n", false},
	}
	for _, tt := range tests {
		if got := opensWithFailure(tt.result); got != tt.opens {
			t.Errorf("opensWithFailure(%q) = %v, want %v", tt.result, got, tt.opens)
		}
	}
}

// A tool's JSON answer that reports a failure in its own fields failed; one whose error fields
// are empty, or that is not one JSON object, did not.
func TestLooksFailedReadsAJSONAnswersErrorFields(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{`{"status": "unknown", "error_type": "tool:execution_failed", "retryable": true}`, true},
		{`{"error": "Timeout error...HTTPConnectionPool", "response": ""}`, true},
		{`{"isError": true, "content": [{"type": "text", "text": "no such table"}]}`, true},
		{`{"ok": false, "error": "channel_not_found"}`, true},
		{`{"data": null, "errors": [{"message": "Cannot query field"}]}`, true},
		{` {"status": "Error", "message": "invalid token"} `, true},
		{`{"status": "fail", "data": {"title": "required"}, "reason": "validation"}`, true},
		{`{"error": 404}`, true},
		{`{"\u0065rror": "escaped key"}`, true},
		{`{"error": "", "response": "42 rows"}`, false},
		{`{"error": "\n", "detail": " \u0020 "}`, false},
		{`{"error": null, "errors": [], "result": {"rows": 3}}`, false},
		{`{"error": 0, "is_error": false, "success": true}`, false},
		{`{"status": "ok", "template_id": "t-1"}`, false},
		{`{"id": 42, "name": "nightly", "status": "failed", "duration": 12}`, false}, // a job's status, asked for
		{`{"ok": true, "error": "x"}`, false},
		{`{"success": true, "errors": ["row 3 skipped"]}`, false},
		{`{"isError": false, "error": "a field of the data"}`, false},
		{`{"result": {"error": "nested: a field of the data"}}`, false},
		{`{"chunk_id": "846f55", "exit_code": 127, "output": "/bin/bash:行1: mvn：未找到命令\n"}`, true}, // r92b U2
		{`{"returncode": 1, "stdout": "", "stderr": "boom"}`, true},
		{`{"exit_code": 0, "output": "BUILD OK"}`, false},
		{`{"exitCode": 0, "error": "a warning logged on the way"}`, false}, // the exit status decides before the fields
		{`{"ok": true, "exit_code": 2}`, false},                            // a flag decides before it
		{`{"exit_code": "1", "output": ""}`, false},                        // not a number: no exit status
		{`{"error": "x"} trailing`, false},
		{`[{"error": "x"}]`, false},
		{`{"error": "x", "data": "` + strings.Repeat("a", maxErrorEnvelope) + `"}`, false}, // data, not an envelope
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.want {
			t.Errorf("looksFailed(%.80s) = %v, want %v", tt.result, got, tt.want)
		}
		if got := reportsErrorFieldByDecoding(tt.result); got != tt.want {
			t.Errorf("the plain statement says %v for %.80s, want %v", got, tt.result, tt.want)
		}
	}
}

// Gemini CLI lays out a command's answer as "Output: " and what it printed, then lines of its
// own: an error envelope printed there is the same failure as one printed bare (r103c M1).
func TestLooksFailedReadsAnErrorEnvelopeUnderGeminiCLIsLabels(t *testing.T) {
	tests := []struct {
		name, result string
		want         bool
	}{
		{"an envelope, then the process group", "Output: {\"error\":\"Expected '\\\"' but got 'u'\"}\nProcess Group PGID: 21536", true},
		{"an envelope, then every trailer line", "Output: {\"ok\": false}\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7", true},
		{"an older answer that opens with the command and its folder", "Command: curl -s localhost/api\nDirectory: (root)\nOutput: {\"errors\": [{\"message\": \"denied\"}]}\nProcess Group PGID: 9", true},
		{"a success envelope", "Output: {\"ok\": true, \"id\": 4}\nProcess Group PGID: 21536", false},
		{"an envelope followed by more printed text is no envelope", "Output: {\"error\": \"x\"}\nretrying\nProcess Group PGID: 2", false},
		{"a bare success envelope", `{"status": "ok"}`, false},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.want {
			t.Errorf("%s: looksFailed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The oracle reads the word before a number as hashLine does, labels longer than a count
// word included (a time's, a handle's), and the lines FuzzDigest once found it wrong on agree.
func TestHashLineAgreesWithItsByteByByteOracle(t *testing.T) {
	for _, line := range []string{"elapsed_ms 120", "createdAt 1712", "wall_time 3", "00000aAT 0", "pid\" 0", "\"pid\": 4242",
		// a listing's line number, passed over without sorting it, and the numbers that look like one and are not
		"     7\t    result_3 = transform(items[3])", "1234567\tx", "12345678\tx", "1701234567\tseconds since 1970, a clock's", "1701234567890\tmilliseconds", "1234567890123456789\tan id", "\t 12\tx", "    12 seconds", "    12\t", "12", " 3x\t",
		// a line number before a header's id of letters, which hashLine masks first
		"7\tpid 4242 Chunk ID: cbdcbe"} {
		if hashLine(line) != hashLineByBytes(line) {
			t.Errorf("hashLine(%q) differs from hashLineByBytes: FuzzDigest fails on it", line)
		}
	}
}

// A line is the same line for what a result brought whether the result is short (read field
// by field) or long (read line by line): the same lines are kept, under the same hashes, so a
// listing's lines shown again by a short look at them are not new (validation round r54a P1;
// review r20 M3: a tab-indented line of a `cat -n` view was kept by one path only).
func TestALineIsKeptAlikeInShortAndLongResults(t *testing.T) {
	lines := []string{
		"    12\tvalue_12 = compute(value_11, 84)",
		"    27\t}",
		"\t}",
		"    28\t\treturn nil",
		"src/app/config.py: settings loaded at 2026-12-01T10:00:00Z",
		"src/app/config.py",
		"  Tests  12 passed (12)  ",
		"fi",
		"return;",
	}
	filler := strings.Repeat("filler line of a long listing, number one\n", 40)
	var d digester
	for _, line := range lines {
		d.digest(line, false, true)
		short := slices.Clone(d.lines)
		d.digest(filler+line+"\r\n", false, true)
		if len(filler) < longTextBytes {
			t.Fatalf("setup: the long text is %d bytes", len(filler))
		}
		keptLong := slices.Contains(d.lines, novelLineHash(line))
		if keptShort := len(short) == 1; keptShort != keptLong {
			t.Errorf("%q: kept by the short path %v, by the long path %v", line, keptShort, keptLong)
		}
		if len(short) == 1 && short[0] != novelLineHash(line) {
			t.Errorf("%q: the short path's hash is not the line's", line)
		}
	}
}

func TestSpaceIdeographsSetsApartCharactersOfScriptsWithoutSpaces(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"ASCII is returned as it is", "go test ./... failed", "go test ./... failed"},
		{"Han characters are words, full-width punctuation a space", "检查配置，再测试。", " 检  查  配  置   再  测  试  "},
		{"kana are words", "確認します", " 確  認  し  ま  す "},
		{"Latin words and numbers among them stay whole", "运行pytest 3次", " 运  行 pytest 3 次 "},
		{"Hangul is written with spaces and stays", "설정 파일을 확인합니다", "설정 파일을 확인합니다"},
		{"other non-ASCII letters stay", "café über naïve", "café über naïve"},
	}
	var d digester
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.spaceIdeographs(tt.in); got != tt.want {
				t.Errorf("spaceIdeographs(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// A tool that refuses what it was asked says so in fixed words at the opening of its answer;
// hosts that keep no failure flag still failed the call. A file editor of the
// str_replace_editor family refuses an argument or a path (validation rounds r131c U1, r131a
// U4); a command-line parser refuses its arguments with its usage, then "<program>: error: ..."
// (argparse; r136a U1); a program says what it was doing failed, "Error starting session: ..."
// (r141c M1). A file that only mentions such words, a usage printed on request, or a figure
// named "Error rate" is no refusal.
func TestRefusalsOpenWithFailure(t *testing.T) {
	tests := []struct {
		result string
		opens  bool
	}{
		{"Invalid `view_range`: [2500, 2550]. Its second element `2550` should be smaller than the number of lines in the file: `2528`", true},
		{"Invalid `path` parameter: hello.py. The path should be an absolute path, starting with `/`.", true},
		{"Invalid `insert_line` parameter: 900. It should be within the range of lines of the file: [0, 120]", true},
		{"The path /testbed/django/db/models/functions.py does not exist. Please provide a valid path.", true},
		{"The path src/app.py is not an absolute path, it should start with `/`. Maybe you meant /repo/src/app.py?", true},
		{"Invalid `ViewRange`: not a parameter name in the editor's spelling", false},
		{"Invalid input, try again", false},
		{"The path to the config is set in settings.py", false},
		{"Here's the result of running `cat -n` on /w/a.py:\n     1\tInvalid `path` parameter", false},
		{"The path\n/w/x does not exist. Please provide a valid path.", false},
		{"usage: str_replace_editor [-h] [--file_text FILE_TEXT] [--view_range VIEW_RANGE]\n                          command path\nstr_replace_editor: error: unrecognized arguments: [1060, 1220]\n", true},
		{"usage: manage.py test [-h] [--noinput]\nmanage.py: error: the following arguments are required: label", true},
		{"usage: git [--version] [--help] [-C <path>]\n\nThese are common Git commands used in various situations:", false},
		{"usage: tool [-h]\nother: error: this names another program", false},
		{"usage:\nprog: error: x", false},
		{"Error starting session: The \"paths[0]\" property must be of type string, got undefined", true},
		{"Error reading config file: open /etc/x.yaml: permission denied", true},
		{"Error while connecting to database: connection refused", true},
		{"Error rate: 0.1%\nRequests: 1200", false},
		{"Error count: 0", false},
		{"Error Handling: see the docs", false},
		{"Error starting session and then some more words past five: x", false},
	}
	for _, tt := range tests {
		if got := opensWithFailure(tt.result); got != tt.opens {
			t.Errorf("opensWithFailure(%q) = %v, want %v", tt.result, got, tt.opens)
		}
	}
}

// A program's word that what it was doing failed ("Error starting session: ...") is a failure
// on any line of the answer, as a terminal's copy puts the command line it echoes above it;
// inside a line, or naming no doing ("Error rate:"), it is not.
func TestLooksFailedReadsAnErrorDoingLine(t *testing.T) {
	tests := []struct {
		result string
		failed bool
	}{
		{"edobry@Mac minsky % bun run src/cli.ts session start --task '#011'\nError starting session: The \"paths[0]\" property must be of type string, got undefined\nedobry@Mac minsky %", true},
		{"Initializing project...\nError applying schema after 10 attempts: {'code': -32000}", true},
		{"requests: 1200\nError rate: 0.4%\nlatency p99: 120ms", false},
		{"log: saw Error starting session: earlier, recovered", false},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.failed {
			t.Errorf("looksFailed(%q) = %v, want %v", tt.result, got, tt.failed)
		}
	}
}
