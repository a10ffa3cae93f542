package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/testenv"

	_ "github.com/loopguard/loopguard/internal/store/redisstore" // the Redis backend, for the shared-store tests
)

// responsesUpstream answers every Responses request like a provider that keeps history: a
// stream whose response (resp_N) calls the shell once more (call_N).
func responsesUpstream(t testing.TB) *upstream {
	var n atomic.Int64
	return newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		item := fmt.Sprintf(`{"type":"function_call","call_id":"call_%d","name":"exec_command","arguments":"{\"cmd\":\"ls /tmp/job\"}"}`, i)
		fmt.Fprintf(w, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_%d\",\"output\":[]}}\n\n", i)
		w.(http.Flusher).Flush()
		fmt.Fprintf(w, "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"item\":%s}\n\n", item)
		fmt.Fprintf(w, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_%d\",\"output\":[%s]}}\n\n", i, item)
	})
}

// continueConversation sends a user turn and then turns results of the shell call, each
// request continuing the previous response by id, through the proxies in turn. It returns the
// number of reminders each upstream request carried.
func continueConversation(t *testing.T, proxies []string, up *upstream, turns int) []int {
	t.Helper()
	post := func(base, body string) {
		resp, err := http.Post(base+"/v1/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	post(proxies[0], `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"wait for the job"}]}]}`)
	var reminders []int
	for i := 1; i <= turns; i++ {
		post(proxies[i%len(proxies)], fmt.Sprintf(`{"model":"m","stream":true,"previous_response_id":"resp_%d","input":[{"type":"function_call_output","call_id":"call_%d","output":"started"}]}`, i, i))
		reminders = append(reminders, strings.Count(string(up.last(t).Body), "<system-reminder>"))
	}
	return reminders
}

// With previous_response_id the request holds only the new items; the state kept per
// response id makes the notices fall due on the right call all the same: the 3rd and 5th
// identical result carry repeat-tool-reminder's, the 6th dsh-brake's (callWarnCount 6), one
// reminder each, as with the whole history in every request.
func TestResponsesPreviousResponseIDKeepsCounting(t *testing.T) {
	up := responsesUpstream(t)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	got := continueConversation(t, []string{p.URL}, up, 6)
	if fmt.Sprint(got) != "[0 0 1 0 1 1]" {
		t.Errorf("reminders per request = %v, want [0 0 1 0 1 1]", got)
	}
}

// An id the proxy never saw: the request passes through untouched.
func TestResponsesUnknownPreviousIDPassesThrough(t *testing.T) {
	up := responsesUpstream(t)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	body := `{"model":"m","previous_response_id":"resp_elsewhere","input":[{"type":"function_call_output","call_id":"c","output":"x"}]}`
	resp, err := http.Post(p.URL+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := string(up.last(t).Body); got != body {
		t.Errorf("upstream body = %s, want the client's", got)
	}
}

// Two proxy processes' worth of servers share one real redis-server: whichever gets each
// request, the conversation is counted as one. With Redis gone, requests still pass and
// /readyz says why.
func TestResponsesTwoProxiesShareOneRedis(t *testing.T) {
	url := testenv.Redis(t)
	up := responsesUpstream(t)
	var proxies []string
	for range 2 {
		st, err := store.Open(context.Background(), url, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		proxies = append(proxies, newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}, Store: st}).URL)
	}
	got := continueConversation(t, proxies, up, 6)
	if fmt.Sprint(got) != "[0 0 1 0 1 1]" {
		t.Errorf("reminders per request = %v, want [0 0 1 0 1 1]", got)
	}
}

func TestResponsesRedisDownFailsOpen(t *testing.T) {
	up := responsesUpstream(t)
	st, err := store.Open(context.Background(), "redis://127.0.0.1:1/0", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}, Store: st})
	got := continueConversation(t, []string{p.URL}, up, 3)
	if fmt.Sprint(got) != "[0 0 0]" {
		t.Errorf("reminders with the store down = %v, want none (unguarded, but served)", got)
	}
	resp, err := http.Get(p.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(string(b), "could not reach redis") {
		t.Errorf("/readyz = %d %q", resp.StatusCode, b)
	}
}

// The state is saved as soon as the response.completed event is whole, before the client has
// it, even when its end arrives in a later read and the stream stays open after it.
func TestResponsesStateSavedWhenCompletedEventEnds(t *testing.T) {
	st, err := store.Open(context.Background(), "memory", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	endEvent, hold := make(chan struct{}), make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_split\"}}\n\n")
		io.WriteString(w, "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_split\",\"output\":[]}}")
		w.(http.Flusher).Flush()
		<-endEvent
		io.WriteString(w, "\n\n")
		w.(http.Flusher).Flush()
		<-hold // the stream stays open
	})
	defer close(hold)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}, Store: st})
	resp, err := http.Post(p.URL+"/v1/responses", "application/json", strings.NewReader(`{"model":"m","stream":true,"input":"go"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	saved := func() bool {
		v, err := st.Get(context.Background(), stateKey("resp_split"))
		return err == nil && v != nil
	}
	time.Sleep(100 * time.Millisecond)
	if saved() {
		t.Fatal("state saved before the completed event ended")
	}
	close(endEvent)
	deadline := time.Now().Add(5 * time.Second)
	for !saved() {
		if time.Now().After(deadline) {
			t.Fatal("state not saved once the completed event ended (the stream is still open)")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
