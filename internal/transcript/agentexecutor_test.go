package transcript

import (
	"bufio"
	"testing"
)

// agentExecutorRun is a printout of LangChain's AgentExecutor run with verbose=True, written
// for these tests in its layout: two chains, a search made twice alike in the first.
const agentExecutorRun = `

> Entering new AgentExecutor chain...

Invoking: ` + "`tavily_search`" + ` with ` + "`{'query': 'weather in SF', 'max_results': 2}`" + `


[{'url': 'https://weather.example', 'content': 'Fog, 12C'}]
Invoking: ` + "`tavily_search`" + ` with ` + "`{'query': 'weather in SF', 'max_results': 2}`" + `


[{'url': 'https://weather.example', 'content': 'Fog, 12C'}]It is foggy and 12C in San Francisco.

> Finished chain.


> Entering new AgentExecutor chain...

Invoking: ` + "`get_time`" + ` with ` + "`{'city': 'SF'}`" + `


10:42The time in SF is 10:42.

> Finished chain.
`

// AgentExecutor's printout is read as its chains, a session each: each "Invoking:" line a call
// of the tool, its Python dict of input the arguments, answered by what was printed after it
// to the next call or the chain's end.
func TestAgentExecutorReadsChainsAndCalls(t *testing.T) {
	tr := expectEvents(t, "run.txt", agentExecutorRun, FormatAgentExecutor, []string{
		`call tavily_search "{\"max_results\":2,\"query\":\"weathe…" => "[{'url': 'https://weather.exampl…"`,
		`call tavily_search "{\"max_results\":2,\"query\":\"weathe…" => "[{'url': 'https://weather.exampl…"`,
	})
	if tr.Sessions != 2 || len(tr.Agents) != 2 || len(tr.Agents[1].Calls()) != 1 {
		t.Errorf("%d sessions, %d agents: want a chain each", tr.Sessions, len(tr.Agents))
	}
}

// One call in text that shows no chain is not AgentExecutor's printout.
func TestAgentExecutorHeadNeedsItsCalls(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{agentExecutorRun, true},
		{"[Tool Called]\nInvoking: `a` with `{}`\n\nx\n[Tool Called]\nInvoking: `b` with `{}`\n", true},
		{"The log says Invoking: `a` with `{}` once.\n", false},
		{"Invoking: `a` with `{}`\n", false},
	} {
		if got := isAgentExecutorHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isAgentExecutorHead(%.50q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzAgentExecutor(f *testing.F) {
	f.Add([]byte(agentExecutorRun))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readAgentExecutor(name, br) })
}
