package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/api"
	"github.com/loopguard/loopguard/internal/store"
)

// Any body gets 200 or a 400 naming the problem, never a crash; a 400 stores nothing.
func FuzzEvents(f *testing.F) {
	f.Add("events", call("a", "t", `{"q":1}`)+call("a", "t", `{"q":1.0}`)+call("a", "t", `{"q":1e0}`))
	f.Add("events", `{"type":"text","agent":"a","source":"model","text":"hi","ts":5}`+"\n"+`{"type":"user","agent":"a"}`)
	f.Add("events", `{"type":"call","agent":"a","tool":"t","args":"ls -la"}`+"\n"+"{")
	f.Add("check", `{"type":"call","agent":"a","tool":"t"}`)
	f.Add("check", `{"type":"end","agent":"a"}`)
	cfg := bothSeeds(loopguard.ModeDeny)
	f.Fuzz(func(t *testing.T, path, body string) {
		st, err := store.Open(context.Background(), "memory", store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		h := (&api.Server{Config: cfg, Store: st}).Handler()
		if path != "check" {
			path = "events"
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/"+path, strings.NewReader(body)))
		switch rec.Code {
		case 200:
		case 400:
			if !strings.Contains(rec.Body.String(), `"error":"body`) {
				t.Fatalf("a 400 must name the body's problem: %s", rec.Body)
			}
			if n, _ := st.Purge(context.Background(), farFuture); n != 0 {
				t.Fatalf("a rejected body stored %d agents", n)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

// farFuture is a Purge cut-off after every write: Purge then counts every stored key.
var farFuture = time.Now().Add(24 * time.Hour)
