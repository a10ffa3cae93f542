package loopguard

// A call's identity for the progress detector: command lines whatever their spacing, and a
// sleep whatever its length.

import (
	"bytes"

	"github.com/loopguard/loopguard/internal/canon"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// callID is the call's identity for this detector: the engine's (tool and arguments as a JSON
// value), except that command lines (SWE-agent's actions, arguments that are not JSON) are the
// same command whatever their spacing: "edit 90:90\nend_of_edit" and
// "edit 90:90\n\nend_of_edit" ask for the same thing.
//
// A call that sleeps before it looks ("sleep 5 && curl ...") is the same call whatever the
// length of its sleep: a backoff lengthens the wait between two looks at the same thing, and
// each look is a poll of it (see observeCall's waiting), not a new question; sleeps says the
// call is one (see sleepsFirst).
//
// Arguments that only narrate the call for a person (captionKeys: Claude Code's and Gemini
// CLI's "description" of a command, Cline's "task_progress" checklist, Cursor's
// "explanation") are left out: the model writes them afresh each time, and the same command
// under a new caption asks the same thing. buf is scratch space for the arguments without
// them; callID returns it, grown, for the next call.
func callID(c *observedCall, sleeps bool, buf []byte) (uint64, []byte) {
	args, argsID := c.args, c.id
	if len(args) > 0 && args[0] == '{' && hasCaption(args) {
		if stripped, ok := withoutCaptions(buf[:0], args); ok {
			buf, args = stripped, stripped
			argsID = combine(hashString(c.tool), canon.Fingerprint(stripped))
		}
	}
	if sleeps {
		return combine(hashString(c.tool), sleeplessHash(args)), buf
	}
	if len(args) > 0 && args[0] != '{' && args[0] != '[' {
		return combine(hashString(c.tool), spacedHash(args)), buf
	}
	return argsID, buf
}

// captionKeys are the argument names that narrate a call for a person rather than say what
// it does. A tool whose "description" is what it acts on (a ticket's text) is rare, and for
// it only the same result as well makes two calls the same.
var captionKeys = [...][]byte{[]byte(`"description"`), []byte(`"explanation"`), []byte(`"task_progress"`), []byte(`"justification"`)}

// hasCaption says whether args may hold a caption key (anywhere: withoutCaptions looks at
// the top level only). It runs for every call: one pass over the quotes, each looked at only
// when the letter after it starts a caption key, costs a quarter of searching for each key.
func hasCaption(args []byte) bool {
	for i := bytes.IndexByte(args, '"'); i >= 0 && i+1 < len(args); {
		switch args[i+1] {
		case 'd', 'e', 't', 'j':
			if isCaption(args[i:]) {
				return true
			}
		}
		next := bytes.IndexByte(args[i+1:], '"')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// withoutCaptions appends to dst the JSON object args without its top-level caption members,
// or returns false when args is not one well-formed object.
func withoutCaptions(dst, args []byte) ([]byte, bool) {
	dst = append(dst, '{')
	first := true
	i, more, err := jsonscan.Open(args, 0)
	for ; more && err == nil; i, more, err = jsonscan.Next(args, i, '}') {
		start := i
		var v int
		if _, _, v, err = jsonscan.Key(args, i, jsonscan.Strict); err != nil {
			return dst, false
		}
		if i, err = jsonscan.Skip(args, v, jsonscan.Strict, 0); err != nil {
			return dst, false
		}
		if isCaption(args[start:v]) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, args[start:i]...)
	}
	if err != nil || jsonscan.SkipSpace(args, i) != len(args) {
		return dst, false
	}
	return append(dst, '}'), true
}

// isCaption says whether a member's key and colon ("description" :) name a caption.
func isCaption(keyColon []byte) bool {
	for _, k := range captionKeys {
		if bytes.HasPrefix(keyColon, k) {
			return true
		}
	}
	return false
}

// sleepsFirst says whether a call of a tool of class cls sleeps before it looks: its arguments
// hold a sleep, and it is not an editor's (a tool that changes the workspace by its name),
// whose arguments are the text it writes, where a sleep is code.
func sleepsFirst(cls toolClass, args []byte) bool { return !cls.mutating && hasSleep(args) }

// hasSleep says whether args hold a sleep: "sleep" or "Sleep" followed by a space or '('
// ("sleep 5", "time.sleep(5)", "Start-Sleep -Seconds 5", "await sleep(500)").
func hasSleep(args []byte) bool {
	for i := 0; ; {
		k := bytes.Index(args[i:], leep)
		if k < 0 {
			return false
		}
		if sleepAt(args, i+k+3) {
			return true
		}
		i += k + len(leep)
	}
}

var leep = []byte("leep")

// sleepAt says whether b[i] is the 'p' of a sleep (see hasSleep).
func sleepAt(b []byte, i int) bool {
	return i >= 4 && i+1 < len(b) && (b[i+1] == ' ' || b[i+1] == '(') && b[i] == 'p' &&
		b[i-1] == 'e' && b[i-2] == 'e' && b[i-3] == 'l' && b[i-4]|0x20 == 's'
}

// sleeplessHash is spacedHash of args with the duration of each sleep left out ("sleep 5",
// "sleep 0.5", "sleep 2m", "time.sleep(3)", "Start-Sleep -Seconds 5").
func sleeplessHash(args []byte) uint64 { return hashSpaced(args, true) }

// spacedHash hashes text with every run of white space taken as one space and the ends
// trimmed.
func spacedHash(b []byte) uint64 { return hashSpaced(b, false) }

// hashSpaced is spacedHash, leaving out sleeps' durations when skipSleeps is set.
func hashSpaced(b []byte, skipSleeps bool) uint64 {
	var h textHasher
	space := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && h.n > 0 {
			h.writeByte(' ')
		}
		space = false
		h.writeByte(c)
		if skipSleeps && c == 'p' && sleepAt(b, i) {
			// skip the spaces or the parenthesis, a flag ("-Seconds"), then the duration:
			// digits, a point, a unit letter
			j := i + 1
			if b[j] == '(' {
				j++
			}
			for j < len(b) && b[j] == ' ' {
				j++
			}
			if j < len(b) && b[j] == '-' {
				f := j + 1
				for f < len(b) && (b[f]|0x20 >= 'a' && b[f]|0x20 <= 'z') {
					f++
				}
				if f > j+1 && f < len(b) && b[f] == ' ' {
					for j = f; j < len(b) && b[j] == ' '; j++ {
					}
				}
			}
			k := j
			for k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == '.') {
				k++
			}
			if k > j {
				if k < len(b) && (b[k] == 's' || b[k] == 'm' || b[k] == 'h' || b[k] == 'd') {
					k++
				}
				h.writeByte(' ')
				i = k - 1
			}
		}
	}
	return h.sum()
}
