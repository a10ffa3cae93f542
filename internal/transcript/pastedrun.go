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
