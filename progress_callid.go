package loopguard

// A call's identity for the progress detector: command lines whatever their spacing, and a
// sleep whatever its length.

import "bytes"

// callID is the call's identity for this detector: the engine's (tool and arguments as a JSON
// value), except that command lines (SWE-agent's actions, arguments that are not JSON) are the
// same command whatever their spacing: "edit 90:90\nend_of_edit" and
// "edit 90:90\n\nend_of_edit" ask for the same thing.
//
// A call that sleeps before it looks ("sleep 5 && curl ...") is the same call whatever the
// length of its sleep: a backoff lengthens the wait between two looks at the same thing, and
// each look is a poll of it (see observeCall's waiting), not a new question; sleeps says the
// call is one (see sleepsFirst).
func callID(c *observedCall, sleeps bool) uint64 {
	if sleeps {
		return combine(hashString(c.tool), sleeplessHash(c.args))
	}
	if len(c.args) > 0 && c.args[0] != '{' && c.args[0] != '[' {
		return combine(hashString(c.tool), spacedHash(c.args))
	}
	return c.id
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
