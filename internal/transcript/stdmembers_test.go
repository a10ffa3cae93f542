package transcript

import (
	"fmt"
	"reflect"
	"testing"
)

// FuzzStdMembers checks the readers built on stdMembers (info, tokens) and stdFloat against
// std, which they stand for: the same end, the same error and the same value.
func FuzzStdMembers(f *testing.F) {
	for _, s := range []string{
		`{"prompt_tokens": 1661, "completion_tokens": 158, "total_tokens": 1819, "cost": 0.005218, "is_byok": false, "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0}, "cost_details": {"upstream_inference_cost": null}}`,
		`{"prompt_tokens": 1.5, "completion_tokens": "7", "prompt_tokens_details": null}`,
		`{"Prompt_Tokens": 3, "prompt_tokens": 4}`, `{"prompt_tokens": 1, "prompt_tokens": 2}`,
		`{"prompt_tokens_details": {"cached_tokens": 5}, "prompt_tokens_details": {"audio": 1}}`,
		`{"prompt_tokens_details": 5}`, `{"prompt_\u0074okens": 9}`, `{"x": "bad \x escape"}`,
		`{"x": "ctl` + "\x01" + `"}`, `{"prompt_tokens": 99999999999999999999}`, `{"a": [1, {"b": 2}]}`,
		`{"model_stats": {"instance_cost": 1.5, "tokens_sent": 10}, "submission": "diff", "mini_version": "1.0", "config": {"agent": {"action_regex": "x"}, "model": {"model_name": "m"}}}`,
		`{"model_stats": {"tokens_sent": 1}, "model_stats": {"tokens_received": 2}}`, `{"mini_version": 5}`,
		`{"config": []}`, `{"kſ": 1}`, `{"mini_versioN": "2"}`, `[]`, `null`, `"s"`, `12`, `-0.5e3`, `{"a":1,}`, `{`,
		`{"prompt_tokens": -3, "completion_tokens": 0}`, `{"x": "\ud800"}`, "{\"x\": \"\xff\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		data := []byte(s)
		w := &walker{data: data}
		check := func(what string, fast, std func() (int, any, error)) {
			e1, v1, err1 := fast()
			e2, v2, err2 := std()
			if e1 != e2 || fmt.Sprint(err1) != fmt.Sprint(err2) || !reflect.DeepEqual(v1, v2) {
				t.Fatalf("%s of %q: %d %v %+v; std: %d %v %+v", what, s, e1, err1, v1, e2, err2, v2)
			}
		}
		check("tokens", func() (int, any, error) {
			var u *miniTokens
			end, err := w.tokens(0, &u)
			return end, u, err
		}, func() (int, any, error) {
			var u *miniTokens
			end, err := w.std(0, &u)
			return end, u, err
		})
		check("info", func() (int, any, error) {
			var d *docInfo
			end, err := w.info(0, &d)
			return end, d, err
		}, func() (int, any, error) {
			var d *docInfo
			end, err := w.std(0, &d)
			return end, d, err
		})
		check("stdFloat", func() (int, any, error) {
			var x float64
			end, err := w.stdFloat(0, &x)
			return end, x, err
		}, func() (int, any, error) {
			var x float64
			end, err := w.std(0, &x)
			return end, x, err
		})
	})
}
