package loopguard

// AgentStats describes what the engine holds for one agent: enough to show a user where an
// agent stands, or for a test to check that no update was lost.
type AgentStats struct {
	// ConsecutiveRepeats is repeat-tool-reminder's current chain: how many identical tracked
	// calls in a row ended the agent's history.
	ConsecutiveRepeats int
	// DistinctCalls is how many call identities dsh-brake is counting.
	DistinctCalls int
	// MaxCallCount is dsh-brake's largest count of one identical call since the user spoke.
	MaxCallCount int
	// Sequences and Texts are how many sequence and text entries dsh-brake holds.
	Sequences, Texts int
}

// Stats returns what the engine holds for agent; ok is false when it holds nothing.
func (e *Engine) Stats(agent string) (s AgentStats, ok bool) {
	a := e.agent(agent, false)
	if a == nil {
		return s, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, st := range a.states {
		switch st := st.(type) {
		case *repeatState:
			s.ConsecutiveRepeats = st.count
		case *brakeState:
			s.DistinctCalls, s.Sequences, s.Texts = st.calls.Len(), st.seqs.Len(), st.texts.Len()
			st.calls.Each(func(_ uint64, c *countEntry) { s.MaxCallCount = max(s.MaxCallCount, int(c.count)) })
		}
	}
	return s, true
}
