package loopguard

import "bytes"

// A call that only widens how much it looks at (grep's context lines, head's and tail's line
// counts, find's depth, a log's tail) and is answered exactly as before learnt nothing from
// the wider look: the same question, asked again. A Qwen agent grepped one pom.xml 47 times,
// -B100 -A100 | head -200 up to -B1200 -A1200 | head -2400, every answer the whole file
// byte for byte, and another ran `find /tmp -maxdepth N` for N from 5 to 20 with the same two
// paths each time (validation rounds r258a, r259e); neither was "the same call" to the stuck
// rule, whose calls must match to the byte.
//
// scopeID is such a call's identity with the values of its scope options left out, or 0 when
// it has none. Two calls of one scopeID are the same question; only when the wider one is
// answered exactly as the narrower one does it continue that one's chain (recentRepeat). An
// option counts only for the programs whose option it is: grep's -n prints line numbers and
// takes no value, so `grep -n 5 f` and `grep -n 6 f` stay two searches. Numbers anywhere
// else (an id, a port, a pattern) tell calls apart as before: a batch over ids is no widening.
func scopeID(tool string, args []byte) uint64 {
	if !mayHoldScopeValue(args) {
		return 0 // most calls: a look at their options' bytes
	}
	_, line, _, ok := commandLine(args)
	if !ok {
		return 0
	}
	a := bytes.TrimSpace(args)
	inJSON := len(a) > 0 && a[0] == '{'
	// The line is read once for its words, as the shell splits them (lastPipe's reading:
	// JSON's escapes decoded, quotes kept in their word); only when a scope value is found is
	// it hashed, in the spans between the values.
	var h textHasher
	seg := 0
	var st scopeStage
	var q shellQuoting
	word := -1 // where the word being read starts, -1 between words
	n := len(line)
	for i := 0; i <= n; {
		c, w := byte(' '), 1 // the line's end ends its last word
		if i < n {
			c = line[i]
			if inJSON && c == '\\' {
				c, w = jsonEscape(line[i:])
			}
		}
		if (i == n || q.bare(c, !inJSON || w > 1)) && commandBreak(c) {
			if word >= 0 {
				if vs, ve := st.take(line[word:i]); ve > 0 {
					if seg == 0 {
						h.write(tool)
						h.writeByte(0)
					}
					h.writeBytes(line[seg : word+vs])
					h.writeByte('#')
					seg = word + ve
				}
				word = -1
			}
			if c != ' ' && c != '\t' {
				st = scopeStage{} // another command begins
			}
		} else if word < 0 {
			word = i
		}
		i += w
	}
	if seg == 0 {
		return 0
	}
	h.writeBytes(line[seg:])
	return h.sum() | 1
}

// commandBreak says whether c, outside quotes, ends a word of a command line: white space, or
// an operator that also ends the command (| ; & ( ) `).
func commandBreak(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '|', ';', '&', '(', ')', '`':
		return true
	}
	return false
}

// scopeStage is scopeID's reading of one command of a line: its program, how many words so
// far, and whether the next word is a scope option's value.
type scopeStage struct {
	words  int
	opts   []string // the program's scope options (scopeOptions)
	git    bool     // the program is git, whose options count for its log alone
	expect bool
}

// take reads the stage's next word w and returns where in it a scope option's value is, or
// 0, 0.
func (st *scopeStage) take(w []byte) (vs, ve int) {
	st.words++
	switch st.words {
	case 1:
		st.opts = scopeOptions(w)
		st.git = st.opts != nil && string(w) == "git"
		return 0, 0
	case 2:
		if st.git && string(w) != "log" {
			st.opts = nil // git's options count only for its log
		}
	}
	if st.opts == nil {
		return 0, 0 // most programs
	}
	if st.expect {
		st.expect = false
		if isDigitBytes(w) {
			return 0, len(w)
		}
	}
	if v, ok := scopeOptionValue(w, st.opts); ok {
		if len(v) == 0 {
			st.expect = true // the value is the next word
			return 0, 0
		}
		return len(w) - len(v), len(w)
	}
	return 0, 0
}

// mayHoldScopeValue says whether args hold an option with a number for its value, attached
// or after one space or '=' ("-A20", "-n 5", "--tail=50", "-maxdepth 3", "-200"): every scope
// option's value is written so, and most calls' options are not (`sed -n '1,40p'`), so that
// scopeID reads their words only when one is.
func mayHoldScopeValue(args []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(args[i:], '-')
		if k < 0 {
			return false
		}
		j := i + k + 1
		for j < len(args) && (args[j]|0x20 >= 'a' && args[j]|0x20 <= 'z' || args[j] == '-') {
			j++
		}
		if j < len(args) && (args[j] == ' ' || args[j] == '=') {
			j++
		}
		if j < len(args) && args[j]-'0' < 10 {
			return true
		}
		i = i + k + 1
	}
}

// isDigitBytes says whether b is one or more ASCII digits.
func isDigitBytes(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// The options that say how much a program shows, by program: their value is a count of lines,
// matches, levels or entries.
var (
	grepScope    = [...]string{"-A", "-B", "-C", "-m", "--context=", "--after-context=", "--before-context=", "--max-count="}
	headScope    = [...]string{"-n", "-c", "--lines=", "--bytes=", "-"}
	findScope    = [...]string{"-maxdepth"}
	treeScope    = [...]string{"-L"}
	duScope      = [...]string{"-d", "--max-depth=", "--max-depth"}
	gitLogScope  = [...]string{"-n", "--max-count=", "-"}
	logsScope    = [...]string{"--tail=", "--tail", "-n", "--lines="}
	journalScope = [...]string{"-n", "--lines="}
)

// scopeOptions returns the scope options of a program, or nil.
func scopeOptions(prog []byte) []string {
	switch string(prog) {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack":
		return grepScope[:]
	case "head", "tail":
		return headScope[:]
	case "find":
		return findScope[:]
	case "tree":
		return treeScope[:]
	case "du":
		return duScope[:]
	case "docker", "podman", "kubectl":
		return logsScope[:]
	case "journalctl":
		return journalScope[:]
	case "git":
		return gitLogScope[:] // narrowed to `git log` by its second word
	}
	return nil
}

// scopeOptionValue says whether w is one of opts with a value of digits attached ("-A20",
// "--tail=50", "-200" where "-" is in opts) or to come as the next word ("-A", "--tail": v
// empty), and returns the value.
func scopeOptionValue(w []byte, opts []string) (v []byte, ok bool) {
	for _, o := range opts {
		if !bytes.HasPrefix(w, []byte(o)) {
			continue
		}
		rest := w[len(o):]
		switch {
		case len(rest) == 0 && o != "-" && o[len(o)-1] != '=':
			return rest, true
		case isDigitBytes(rest):
			return rest, true
		}
	}
	return nil, false
}
