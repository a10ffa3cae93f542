package install

import (
	"reflect"
	"strings"
	"testing"
)

// editCodexConfig on the forms a [hooks.state] entry can take, not only the
// [hooks.state."KEY"] tables loopguard and Codex write.
func TestEditCodexConfigForms(t *testing.T) {
	const k, k2 = "/h/hooks.json:pre_tool_use:1:0", "/h/hooks.json:pre_tool_use:2:0"
	cases := []struct {
		name string
		in   string
		ch   trustChange
		want string
	}{
		{"append to empty", "", trustChange{add: []trustEntry{{k, "sha256:1"}}},
			"[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:1\"\n"},
		{"append after text without a final newline", "a = 1", trustChange{add: []trustEntry{{k, "sha256:1"}}},
			"a = 1\n\n[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:1\"\n"},
		{"same hash: untouched", "x = 1\n[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:1\" # mine\n",
			trustChange{add: []trustEntry{{k, "sha256:1"}}}, "x = 1\n[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:1\" # mine\n"},
		{"update in place, dotted key in [hooks.state]", "[hooks.state]\n\"" + k + "\".trusted_hash = \"sha256:0\" # c\n\"" + k + "\".enabled = false\n",
			trustChange{add: []trustEntry{{k, "sha256:1"}}},
			"[hooks.state]\n\"" + k + "\".trusted_hash = \"sha256:1\" # c\n\"" + k + "\".enabled = false\n"},
		{"update a table without trusted_hash", "[hooks.state.'" + k + "']\nenabled = false\n",
			trustChange{add: []trustEntry{{k, "sha256:1"}}},
			"[hooks.state.'" + k + "']\ntrusted_hash = \"sha256:1\"\nenabled = false\n"},
		{"remove a root dotted key", "a = 1\nhooks.state.\"" + k + "\".trusted_hash = \"sha256:0\"\nb = 2\n",
			trustChange{remove: map[string]bool{k: true}}, "a = 1\nb = 2\n"},
		{"remove a table and the blank line before it", "a = 1\n\n[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:0\"\n\n[b]\nc = 1\n",
			trustChange{remove: map[string]bool{k: true}}, "a = 1\n\n[b]\nc = 1\n"},
		{"remove keeps comments after the entry", "[hooks.state.\"" + k + "\"]\ntrusted_hash = \"sha256:0\"\n# about b\n[b]\n",
			trustChange{remove: map[string]bool{k: true}}, "# about b\n[b]\n"},
		{"rename under [hooks]", "[hooks]\nstate.\"" + k2 + "\".trusted_hash = \"sha256:2\"\n",
			trustChange{rename: map[string]string{k2: k}}, "[hooks]\nstate.\"" + k + "\".trusted_hash = \"sha256:2\"\n"},
		{"rename a table", "[hooks.state.\"" + k2 + "\"]\r\ntrusted_hash = \"sha256:2\"\r\n",
			trustChange{rename: map[string]string{k2: k}}, "[hooks.state.\"" + k + "\"]\r\ntrusted_hash = \"sha256:2\"\r\n"},
		{"missing keys: nothing to do", "a = 1\n", trustChange{remove: map[string]bool{k: true}, rename: map[string]string{k2: k}}, "a = 1\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := editCodexConfig("config.toml", []byte(c.in), c.ch)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, c.want)
			}
		})
	}
}

func TestEditCodexConfigRefuses(t *testing.T) {
	const k = "/h/hooks.json:stop:0:0"
	cases := []struct{ name, in, want string }{
		{"inline table", "hooks = { state = { \"" + k + "\" = { trusted_hash = \"x\" } } }\n", "cannot"},
		{"duplicate key", "a = 1\na = 2\n", "config.toml:2:1: not valid TOML"},
	}
	for _, c := range cases {
		_, err := editCodexConfig("config.toml", []byte(c.in), trustChange{remove: map[string]bool{k: true}, add: []trustEntry{{k + "x", "sha256:1"}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// Adding a trust entry to any config.toml, then removing it, either is
// refused or gives back a document that decodes as the original did.
func FuzzEditCodexConfig(f *testing.F) {
	for _, s := range []string{"", "a = 1\n", "[hooks.state.\"k\"]\ntrusted_hash = \"x\"\n", "[hooks]\nstate.k.trusted_hash = 'x'\n",
		"# c\n[x]\ny = [\n 1,\n]\n[[z]]\nw = \"\"\"\n[hooks.state.\"/h:stop:0:0\"]\n\"\"\"\n", "hooks = {}\n"} {
		f.Add([]byte(s))
	}
	const k = "/h:stop:0:0"
	f.Fuzz(func(t *testing.T, data []byte) {
		before, err := decodeTOML("c", data)
		if err != nil {
			return
		}
		out, err := editCodexConfig("c", data, trustChange{add: []trustEntry{{k, "sha256:1"}}})
		if err != nil {
			return
		}
		if h, _ := existingTrust(mustDecode(t, out))[k].(map[string]any); h["trusted_hash"] != "sha256:1" {
			t.Fatalf("entry not added:\n%s", out)
		}
		if _, had := existingTrust(before)[k]; had {
			return
		}
		back, err := editCodexConfig("c", out, trustChange{remove: map[string]bool{k: true}})
		if err != nil {
			t.Fatalf("cannot remove what was added: %v\n%s", err, out)
		}
		b := mustDecode(t, back)
		forgetEmptyHooks(b)
		forgetEmptyHooks(before)
		if !reflect.DeepEqual(b, before) {
			t.Fatalf("add then remove changed the document:\n%q\n->\n%q", data, back)
		}
	})
}

func mustDecode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	doc, err := decodeTOML("c", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return doc
}

// forgetEmptyHooks drops an empty hooks.state and hooks, which removal leaves.
func forgetEmptyHooks(doc map[string]any) {
	hooks, ok := doc["hooks"].(map[string]any)
	if !ok {
		return
	}
	if st, ok := hooks["state"].(map[string]any); ok && len(st) == 0 {
		delete(hooks, "state")
	}
	if len(hooks) == 0 {
		delete(doc, "hooks")
	}
}
