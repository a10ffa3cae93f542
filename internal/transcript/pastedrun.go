package transcript

import "strings"

// pastedRun follows, in a printout pasted into a Markdown document, the fenced blocks of the
// message being read: a README pastes each run of an agent into a block of its own, and the
// block's close ends the run, while a block of the message's own ("```python" ... "```") is its
// words. (LangChain's and AutoGen's printouts, langchaintext.go and autogenconsole.go.)
type pastedRun struct {
	inner bool // a block of the message's own is open
}

// message says a new message begins.
func (p *pastedRun) message() { p.inner = false }

// ends reads a trimmed line of the message being read and says whether it closes the block
// the run was pasted into: a bare fence while no block of the message's own is open. A fence
// with a language, or any fence while one is open, opens or closes the message's own.
func (p *pastedRun) ends(t string) bool {
	if !strings.HasPrefix(t, "```") {
		return false
	}
	if p.inner || t != "```" {
		p.inner = !p.inner
		return false
	}
	return true
}

// runCount counts the runs of a printout that holds several one after another (runs pasted into
// a README's blocks, AG2's terminated runs) and numbers the builder's sessions by them: a run
// that held no message is no session. (AutoGen's, LangChain's and AG2's printouts.)
type runCount struct {
	ended int  // runs ended that held a message
	held  bool // the run under way holds a message
}

// message says the run under way holds a message.
func (r *runCount) message() { r.held = true }

// end ends the run under way and reports whether it held a message: then what follows is
// another session, and the agents b makes from now on are its.
func (r *runCount) end(b *builder) bool {
	if !r.held {
		return false
	}
	r.ended++
	b.session, r.held = r.ended, false
	return true
}

// sessions is how many runs held a message, at least 1.
func (r *runCount) sessions() int {
	if r.held {
		return r.ended + 1
	}
	return max(r.ended, 1)
}
