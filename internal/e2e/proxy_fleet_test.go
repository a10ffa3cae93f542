package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/testenv"
)

// responsesTurn sends one streaming Responses request through base and returns the response
// id and the call id of the shell call the scripted model answered with.
func responsesTurn(t *testing.T, base, body string) (respID, callID string) {
	t.Helper()
	resp, err := http.Post(base+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type     string `json:"type"`
			Response struct {
				ID     string `json:"id"`
				Output []struct {
					CallID string `json:"call_id"`
				} `json:"output"`
			} `json:"response"`
		}
		if json.Unmarshal([]byte(data), &ev) == nil && ev.Type == "response.completed" {
			respID = ev.Response.ID
			if len(ev.Response.Output) > 0 {
				callID = ev.Response.Output[0].CallID
			}
		}
	}
	if respID == "" || callID == "" {
		t.Fatalf("no completed response with a call in the stream")
	}
	return respID, callID
}

const responsesTools = `"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}}}}]`

// Two `loopguard proxy` processes share one real redis-server. A Responses conversation that
// keeps its history on the server (previous_response_id: each request carries only the new
// tool result) goes through them in turn, and is counted as one conversation: the reminders
// fall due on the 3rd, 5th and 6th identical result, once each.
func TestProxyFleetSharesResponsesStateInRedis(t *testing.T) {
	redisURL := testenv.Redis(t)
	srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 100})
	proxies := []string{startProxy(t, srv.URL, "--store", redisURL), startProxy(t, srv.URL, "--store", redisURL)}
	respID, callID := responsesTurn(t, proxies[0], `{"model":"m","stream":true,`+responsesTools+`,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`)
	var got []int
	for i := 1; i <= 6; i++ {
		body := fmt.Sprintf(`{"model":"m","stream":true,%s,"previous_response_id":%q,"input":[{"type":"function_call_output","call_id":%q,"output":"e2e-proxy-loop"}]}`, responsesTools, respID, callID)
		respID, callID = responsesTurn(t, proxies[i%2], body)
		got = append(got, strings.Count(string(srv.LastAgentRequest().Body), "<system-reminder>"))
	}
	if fmt.Sprint(got) != "[0 0 1 0 1 1]" {
		t.Errorf("reminders per request = %v, want [0 0 1 0 1 1] (repeat at 3 and 5, dsh-brake at 6)", got)
	}
}

// With Redis unreachable the proxy still forwards every request (unguarded) and /readyz says why.
func TestProxyFailsOpenWithRedisDown(t *testing.T) {
	srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 100})
	p := startProxy(t, srv.URL, "--store", "redis://127.0.0.1:1/0")
	respID, callID := responsesTurn(t, p, `{"model":"m","stream":true,`+responsesTools+`,"input":"go"}`)
	responsesTurn(t, p, fmt.Sprintf(`{"model":"m","stream":true,%s,"previous_response_id":%q,"input":[{"type":"function_call_output","call_id":%q,"output":"x"}]}`, responsesTools, respID, callID))
	resp, err := http.Get(p + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(b), "could not reach redis at 127.0.0.1:1") {
		t.Errorf("/readyz = %d %q, want 503 saying redis cannot be reached", resp.StatusCode, b)
	}
}
