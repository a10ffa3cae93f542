package install

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Codex's config.toml is edited as text: no maintained Go TOML library writes
// a document back with its comments, key order and formatting intact
// (go-toml/v2 decodes to values and re-encodes them; comments are lost). So
// go-toml/v2 is used only to read: its parser locates the [hooks.state."KEY"]
// tables (or dotted keys) that belong to loopguard's handlers, those lines
// alone are cut, rewritten or appended, and the result is decoded again and
// compared with the original: everything but loopguard's trust entries must
// decode to the same values, or nothing is written.

// trustEntry records one handler as trusted.
type trustEntry struct{ key, hash string }

// trustChange is what to do to [hooks.state].
type trustChange struct {
	remove map[string]bool   // entries that go
	rename map[string]string // entries that stay, under another key (a handler moved)
	add    []trustEntry      // entries to have, with this hash
}

// existingTrust returns the [hooks.state] table of a decoded config.toml.
func existingTrust(doc map[string]any) map[string]any {
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	return state
}

// decodeTOML decodes a document, with errors that name the file, line and column.
func decodeTOML(name string, data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: not valid TOML: %v", name, line, col, de)
		}
		return nil, fmt.Errorf("%s: not valid TOML: %v", name, err)
	}
	return doc, nil
}

type textEdit struct {
	start, end int
	repl       string
}

// editCodexConfig applies ch to a config.toml. It returns data itself when
// nothing needs to change.
func editCodexConfig(name string, data []byte, ch trustChange) ([]byte, error) {
	doc, err := decodeTOML(name, data)
	if err != nil {
		return nil, err
	}
	state := existingTrust(doc)
	hashOf := func(k string) (string, bool) {
		t, ok := state[k].(map[string]any)
		if !ok {
			return "", false
		}
		h, ok := t["trusted_hash"].(string)
		return h, ok
	}

	// Work out the edits per key.
	remove := map[string]bool{}
	for k := range ch.remove {
		if _, ok := state[k]; ok {
			remove[k] = true
		}
	}
	update := map[string]string{} // key -> new hash, for entries that exist
	var appendEntries []trustEntry
	for _, e := range ch.add {
		delete(remove, e.key)
		if h, ok := hashOf(e.key); ok && h == e.hash {
			continue
		}
		if _, ok := state[e.key]; ok {
			update[e.key] = e.hash
		} else {
			appendEntries = append(appendEntries, e)
		}
	}
	rename := map[string]string{}
	for from, to := range ch.rename {
		if _, ok := state[from]; ok && !remove[from] && from != to {
			rename[from] = to
		}
	}
	sources := map[string]bool{}
	for from := range rename {
		sources[from] = true
	}
	for _, to := range rename {
		// A stale entry where a moved handler lands is dropped.
		if _, ok := state[to]; ok && !sources[to] {
			remove[to] = true
		}
	}
	if len(remove) == 0 && len(update) == 0 && len(appendEntries) == 0 && len(rename) == 0 {
		return data, nil
	}

	// Find the lines.
	var edits []textEdit
	p := unstable.Parser{}
	p.Reset(data)
	var table []string            // the current table's path
	var cut *textEdit             // the table being cut, if any
	headerEnd := map[string]int{} // [hooks.state."K"] -> end of its header line
	updated := map[string]bool{}
	flush := func() {
		if cut != nil {
			edits = append(edits, *cut)
			cut = nil
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		keys, parts := keyParts(e)
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			flush()
			table = keys
			start := lineStart(data, int(parts[0].raw.Offset))
			if k, ok := stateKey(keys); ok {
				switch {
				case remove[k]:
					cut = &textEdit{start: blankBefore(data, start), end: lineEnd(data, int(parts[len(parts)-1].raw.Offset))}
				case rename[k] != "":
					edits = append(edits, renameEdit(parts[2], rename[k]))
				}
				if len(keys) == 3 {
					headerEnd[k] = lineEnd(data, int(parts[len(parts)-1].raw.Offset))
				}
			}
		case unstable.KeyValue:
			end := lineEnd(data, int(e.Raw.Offset+e.Raw.Length)-1)
			if cut != nil {
				cut.end = end
				continue
			}
			full := append(append([]string{}, table...), keys...)
			k, ok := stateKey(full)
			if !ok {
				continue
			}
			switch {
			case remove[k]:
				edits = append(edits, textEdit{start: lineStart(data, int(e.Raw.Offset)), end: end})
			case rename[k] != "" && len(table) < 3:
				edits = append(edits, renameEdit(parts[2-len(table)], rename[k]))
			case update[k] != "" && len(full) == 4 && full[3] == "trusted_hash":
				v := e.Value()
				edits = append(edits, textEdit{start: int(v.Raw.Offset), end: int(v.Raw.Offset + v.Raw.Length), repl: tomlString(update[k])})
				updated[k] = true
			}
		}
	}
	flush()
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("%s: not valid TOML: %v", name, err)
	}
	for k, h := range update {
		if updated[k] {
			continue
		}
		end, ok := headerEnd[k]
		if !ok {
			return nil, fmt.Errorf("%s: cannot update the trust entry %q in place (it is not a [hooks.state.\"...\"] table); remove it by hand and run again", name, k)
		}
		edits = append(edits, textEdit{start: end, end: end, repl: "trusted_hash = " + tomlString(h) + "\n"})
	}

	out, err := applyEdits(data, edits)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(appendEntries) > 0 {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		for _, e := range appendEntries {
			if len(out) > 0 {
				out = append(out, '\n')
			}
			out = append(out, CodexTrustTable(e.key, e.hash)...)
		}
	}

	if err := checkTrustEdit(name, doc, out, remove, rename, ch.add); err != nil {
		return nil, err
	}
	return out, nil
}

type partRef struct {
	key string
	raw unstable.Range
}

func keyParts(e *unstable.Node) ([]string, []*partRef) {
	var keys []string
	var parts []*partRef
	it := e.Key()
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		parts = append(parts, &partRef{key: string(n.Data), raw: n.Raw})
	}
	return keys, parts
}

// stateKey returns K for a key path hooks.state.K[...].
func stateKey(path []string) (string, bool) {
	if len(path) >= 3 && path[0] == "hooks" && path[1] == "state" {
		return path[2], true
	}
	return "", false
}

func renameEdit(part *partRef, to string) textEdit {
	return textEdit{start: int(part.raw.Offset), end: int(part.raw.Offset + part.raw.Length), repl: tomlString(to)}
}

func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineEnd returns the offset just past the newline ending the line holding off.
func lineEnd(data []byte, off int) int {
	i := bytes.IndexByte(data[off:], '\n')
	if i < 0 {
		return len(data)
	}
	return off + i + 1
}

// blankBefore moves a line start up over one empty line before it: the one
// loopguard writes before each table it appends.
func blankBefore(data []byte, start int) int {
	if start >= 1 && data[start-1] == '\n' && (start == 1 || data[start-2] == '\n') {
		return start - 1
	}
	return start
}

func applyEdits(data []byte, edits []textEdit) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out []byte
	pos := 0
	for _, e := range edits {
		if e.start < pos {
			return nil, errors.New("overlapping edits of the trust entries; edit the file by hand")
		}
		out = append(out, data[pos:e.start]...)
		out = append(out, e.repl...)
		pos = e.end
	}
	return append(out, data[pos:]...), nil
}

// checkTrustEdit decodes the edited document and checks that it holds the
// entries wanted, and that everything else decodes exactly as before.
func checkTrustEdit(name string, before map[string]any, out []byte, remove map[string]bool, rename map[string]string, add []trustEntry) error {
	after, err := decodeTOML(name+" (as loopguard would write it)", out)
	if err != nil {
		return fmt.Errorf("%v; loopguard cannot edit this file safely: add the entries by hand", err)
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: loopguard cannot edit this file safely (%s); nothing was written", name, fmt.Sprintf(format, a...))
	}
	bs, as := existingTrust(before), existingTrust(after)
	for _, e := range add {
		t, _ := as[e.key].(map[string]any)
		if h, _ := t["trusted_hash"].(string); h != e.hash {
			return fail("the trust entry for %s did not come out as intended", e.key)
		}
	}
	targets := map[string]bool{}
	for _, to := range rename {
		targets[to] = true
	}
	for k := range remove {
		if _, ok := as[k]; ok && !hasKey(add, k) && !targets[k] {
			return fail("the trust entry %s could not be removed", k)
		}
	}
	for from, to := range rename {
		if !reflect.DeepEqual(bs[from], as[to]) {
			return fail("the trust entry %s could not be moved to %s", from, to)
		}
	}
	// Now forget every key loopguard touched, on both sides, and compare the rest.
	b, a := cloneMap(before), cloneMap(after)
	forget := func(doc map[string]any, keys []string, addKeys []trustEntry) {
		st := existingTrust(doc)
		if st == nil {
			return
		}
		for _, k := range keys {
			delete(st, k)
		}
		for _, e := range addKeys {
			if t, ok := st[e.key].(map[string]any); ok {
				delete(t, "trusted_hash")
				if len(t) == 0 {
					delete(st, e.key)
				}
			}
		}
		hooks := doc["hooks"].(map[string]any)
		if len(st) == 0 {
			delete(hooks, "state")
		}
		if len(hooks) == 0 {
			delete(doc, "hooks")
		}
	}
	var keys []string
	for k := range remove {
		keys = append(keys, k)
	}
	for from, to := range rename {
		keys = append(keys, from, to)
	}
	forget(b, keys, add)
	forget(a, keys, add)
	if !reflect.DeepEqual(a, b) {
		return fail("the rest of the file would not decode as before")
	}
	return nil
}

func hasKey(entries []trustEntry, k string) bool {
	for _, e := range entries {
		if e.key == k {
			return true
		}
	}
	return false
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneMap(sub)
		}
		out[k] = v
	}
	return out
}

// codexTrustKeys lists the [hooks.state] keys of a decoded config.toml that
// start with prefix, sorted.
func codexTrustKeys(doc map[string]any, prefix string) []string {
	var keys []string
	for k := range existingTrust(doc) {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
