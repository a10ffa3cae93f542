package loopguard

import "testing"

func TestCompileRefusedKnowsAScriptThatNeverRan(t *testing.T) {
	tests := []struct {
		name, answer string
		want         bool
	}{
		{"a syntax error of the script run", "File \"/workspace/./build_model.py\", line 27\n    ``` \n    ^\nSyntaxError: invalid syntax", true},
		{"an indentation error, indented as a shell prints it", "  File \"/w/x.py\", line 3\n    return 1\n    ^\nIndentationError: unexpected indent\n", true},
		{"the error alone", "SyntaxError: invalid syntax", true},
		{"a syntax error raised by an import, after code ran", "Traceback (most recent call last):\n  File \"/w/x.py\", line 1, in <module>\n    import y\n  File \"/w/y.py\", line 2\n    x =\n      ^\nSyntaxError: invalid syntax", false},
		{"a runtime error", "Traceback (most recent call last):\n  File \"/w/x.py\", line 4, in <module>\nKeyError: 'label'", false},
		{"output before the error: something ran", "rows: 120\nloading model\nFile \"/w/x.py\", line 2\nSyntaxError: invalid syntax", false},
		{"a SyntaxError named in other words", "The report says SyntaxError: invalid syntax was fixed", false},
		{"nothing", "", false},
	}
	for _, tt := range tests {
		if got := compileRefused(tt.answer); got != tt.want {
			t.Errorf("%s: compileRefused(%q) = %v, want %v", tt.name, tt.answer, got, tt.want)
		}
	}
}
