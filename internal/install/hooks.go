package install

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard/internal/hook"
)

// eventSpec is one hook event loopguard installs itself for.
type eventSpec struct {
	Name    string
	Matcher string // "" = no matcher key (the event takes none, or all of it is wanted)
	Timeout int    // in the host's unit: seconds (Claude Code, Codex), milliseconds (Gemini CLI)
}

// hostSpec is what loopguard writes into one host's settings.
type hostSpec struct {
	events []eventSpec
	// name, when set, goes into each handler as "name" (Gemini CLI shows and
	// toggles hooks by name: /hooks disable loopguard).
	name string
}

// The events each host's hook handler needs (internal/hook's action table):
// before a tool (deny mode), after a tool (count it, give notices), the user's
// prompt (reset), and the end of a session or subagent (forget).
var specs = map[hook.Host]hostSpec{
	hook.ClaudeCode: {events: []eventSpec{
		{"PreToolUse", "*", 30},
		{"PostToolUse", "*", 30},
		{"PostToolUseFailure", "*", 30}, // a failed tool call is reported here, not in PostToolUse
		{"PostToolBatch", "*", 30},      // a call rejected before it ran is reported only here
		{"UserPromptSubmit", "", 30},
		{"SessionEnd", "", 30},
		{"SubagentStop", "", 30},
	}},
	// Codex 0.171 has no PostToolUseFailure (a failed command is a PostToolUse);
	// it clamps SessionEnd timeouts to 3 s (default 1 s), so ask for 3 and
	// get no warning.
	hook.Codex: {events: []eventSpec{
		{"PreToolUse", "*", 30},
		{"PostToolUse", "*", 30},
		{"UserPromptSubmit", "", 30},
		{"SubagentStop", "", 30},
		{"SessionEnd", "", 3},
	}},
	// Gemini CLI has no subagent events and no subagent id.
	hook.GeminiCLI: {name: "loopguard", events: []eventSpec{
		{"BeforeTool", "*", 30000},
		{"AfterTool", "*", 30000},
		{"BeforeAgent", "", 30000},
		{"SessionEnd", "", 30000},
	}},
}

// EventNames lists the events loopguard installs itself for on host, with
// their matchers, e.g. `PreToolUse (matcher "*")`.
func EventNames(host hook.Host) []string {
	var out []string
	for _, e := range specs[host].events {
		s := e.Name
		if e.Matcher != "" {
			s += " (matcher " + strconv.Quote(e.Matcher) + ")"
		}
		out = append(out, s)
	}
	return out
}

// handlerValue is the JSON of loopguard's handler for one event.
func (s hostSpec) handlerValue(command string, e eventSpec) *jvalue {
	h := &jvalue{kind: jObject}
	if s.name != "" {
		h.set("name", jstr(s.name))
	}
	h.set("type", jstr("command"))
	h.set("command", jstr(command))
	h.set("timeout", jint(e.Timeout))
	return h
}

// HookCommand returns the shell command a host runs for loopguard's hook:
// exe, "hook", the host, and the configuration and store flags given, each
// word quoted for sh when it needs it.
func HookCommand(exe string, host hook.Host, preset, configFile, store string) string {
	words := []string{shellQuote(exe), "hook", string(host)}
	if preset != "" {
		words = append(words, "--preset", shellQuote(preset))
	}
	if configFile != "" {
		words = append(words, "--config", shellQuote(configFile))
	}
	if store != "" {
		words = append(words, "--store", shellQuote(store))
	}
	return strings.Join(words, " ")
}

// IsLoopguardCommand reports whether a hook command is loopguard's hook for
// host, as installed by any version of loopguard from any place: its first
// word is a program named loopguard* (or exe, the running binary, whatever
// its name), its second "hook", its third the host. Such handlers are the
// ones install replaces and uninstall removes; every other handler is left
// alone.
func IsLoopguardCommand(command string, host hook.Host, exe string) bool {
	w := shellWords(command)
	if len(w) < 3 || w[1] != "hook" || w[2] != string(host) {
		return false
	}
	return strings.HasPrefix(filepath.Base(w[0]), "loopguard") || (exe != "" && w[0] == exe)
}

// shellQuote quotes s for POSIX sh unless it is made only of characters that
// need no quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:@%+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWords splits a command into words the way sh would for a simple
// command: quotes and backslashes are honoured; operators are not special.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += 1 + j
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// hpos is a handler's place in a hooks object: event, group index, handler
// index. Codex keys trust by it.
type hpos struct {
	event   string
	group   int
	handler int // -1: the whole group (one loopguard could not look into)
}

func (p hpos) suffix() string {
	h := "*"
	if p.handler >= 0 {
		h = strconv.Itoa(p.handler)
	}
	return CodexHookEventLabel(p.event) + ":" + strconv.Itoa(p.group) + ":" + h
}

// ourHandler is one of loopguard's handlers after an edit.
type ourHandler struct {
	pos     hpos
	matcher *string // the group's matcher, nil when it has none
	spec    eventSpec
	command string
}

// hooksResult is what editHooks did.
type hooksResult struct {
	oldOurs []hpos          // where our handlers were
	newOurs []ourHandler    // where they are now (install)
	moves   map[hpos]hpos   // other handlers (or whole groups) whose place changed
	events  map[string]bool // events we found ours in
}

type handlerRef struct{ group, handler *jvalue }

// editHooks installs (command != "") or removes (command == "") loopguard's
// handlers in the "hooks" object of a settings document. isOurs says which
// handlers are loopguard's. name is the file, for errors.
//
// Install: for each event of spec, the first handler of ours is rewritten in
// place (and, when its group holds nothing else, the group's matcher set);
// any further ones are removed; when there is none, a new group is appended
// to the event's array. Handlers of ours under other events are removed.
// Remove: every handler of ours goes. Either way a group, an event array or
// the "hooks" object that our removal left empty goes too; nothing else is
// touched, nothing else moves except by the removal of ours before it.
func editHooks(name string, root *jvalue, spec hostSpec, command string, isOurs func(*jvalue) bool) (*hooksResult, error) {
	install := command != ""
	res := &hooksResult{moves: map[hpos]hpos{}, events: map[string]bool{}}
	if root.count("hooks") > 1 {
		return nil, fmt.Errorf(`%s: "hooks" appears more than once; fix the file by hand first`, name)
	}
	hooks := root.get("hooks")
	if hooks != nil && hooks.kind == jScalar && string(hooks.raw) == "null" {
		if !install {
			return res, nil
		}
		hooks = nil // "hooks": null is no hooks
		root.del("hooks")
	}
	if hooks == nil {
		if !install {
			return res, nil
		}
		hooks = &jvalue{kind: jObject}
		root.set("hooks", hooks)
	}
	if hooks.kind != jObject {
		return nil, fmt.Errorf(`%s: "hooks" is not a JSON object; fix the file by hand first`, name)
	}
	wanted := map[string]eventSpec{}
	for _, e := range spec.events {
		wanted[e.Name] = e
		if install && hooks.count(e.Name) > 1 {
			return nil, fmt.Errorf(`%s: "hooks" has more than one %q; fix the file by hand first`, name, e.Name)
		}
		if v := hooks.get(e.Name); install && v != nil && v.kind != jArray {
			return nil, fmt.Errorf(`%s: "hooks"."%s" is not an array; fix the file by hand first`, name, e.Name)
		}
	}

	// Where everything is now.
	oldHandler := map[*jvalue]hpos{}
	oldGroup := map[*jvalue]hpos{}
	ours := map[string][]handlerRef{}
	for _, m := range hooks.members {
		if m.val.kind != jArray {
			continue
		}
		for gi, g := range m.val.items {
			oldGroup[g] = hpos{m.key, gi, -1}
			hs := g.get("hooks")
			if hs == nil || hs.kind != jArray {
				continue
			}
			for hi, h := range hs.items {
				oldHandler[h] = hpos{m.key, gi, hi}
				if isOurs(h) {
					if hooks.count(m.key) > 1 {
						return nil, fmt.Errorf(`%s: "hooks" has more than one %q; fix the file by hand first`, name, m.key)
					}
					ours[m.key] = append(ours[m.key], handlerRef{g, h})
					res.oldOurs = append(res.oldOurs, hpos{m.key, gi, hi})
					res.events[m.key] = true
				}
			}
		}
	}

	// Remove the handlers of ours that do not stay.
	keep := map[*jvalue]bool{}
	for ev, refs := range ours {
		if _, ok := wanted[ev]; ok && install {
			keep[refs[0].handler] = true
		}
	}
	emptied := map[*jvalue]bool{}
	for _, refs := range ours {
		for _, r := range refs {
			if keep[r.handler] {
				continue
			}
			hs := r.group.get("hooks")
			hs.items = removeItem(hs.items, r.handler)
			if len(hs.items) == 0 {
				emptied[r.group] = true
			}
		}
	}
	for i := 0; i < len(hooks.members); i++ {
		m := hooks.members[i]
		if m.val.kind != jArray || len(ours[m.key]) == 0 {
			continue
		}
		before := len(m.val.items)
		out := m.val.items[:0]
		for _, g := range m.val.items {
			if !emptied[g] {
				out = append(out, g)
			}
		}
		m.val.items = out
		if before > 0 && len(out) == 0 {
			hooks.members = append(hooks.members[:i], hooks.members[i+1:]...)
			i--
		}
	}

	if install {
		for _, e := range spec.events {
			h := spec.handlerValue(command, e)
			refs := ours[e.Name]
			if len(refs) > 0 {
				// Rewrite the one we keep in place.
				r := refs[0]
				r.handler.kind, r.handler.members = jObject, h.members
				if onlyOurs(r.group, isOurs) {
					setMatcher(r.group, e.Matcher)
				}
				continue
			}
			g := &jvalue{kind: jObject}
			setMatcher(g, e.Matcher)
			g.set("hooks", &jvalue{kind: jArray, items: []*jvalue{h}})
			arr := hooks.get(e.Name)
			if arr == nil {
				arr = &jvalue{kind: jArray}
				hooks.set(e.Name, arr)
			}
			arr.items = append(arr.items, g)
		}
	} else if len(hooks.members) == 0 && len(res.oldOurs) > 0 {
		root.del("hooks")
	}

	// Where everything is after.
	for _, m := range hooks.members {
		if m.val.kind != jArray {
			continue
		}
		for gi, g := range m.val.items {
			hs := g.get("hooks")
			if hs == nil || hs.kind != jArray {
				if old, ok := oldGroup[g]; ok && old.group != gi {
					res.moves[old] = hpos{m.key, gi, -1}
				}
				continue
			}
			for hi, h := range hs.items {
				if install && isOurs(h) {
					e := wanted[m.key]
					var matcher *string
					if s, ok := g.get("matcher").str(); ok {
						matcher = &s
					}
					cmd, _ := h.get("command").str()
					res.newOurs = append(res.newOurs, ourHandler{pos: hpos{m.key, gi, hi}, matcher: matcher, spec: e, command: cmd})
					continue
				}
				if old, ok := oldHandler[h]; ok && (old.group != gi || old.handler != hi) {
					res.moves[old] = hpos{m.key, gi, hi}
				}
			}
		}
	}
	return res, nil
}

func removeItem(items []*jvalue, x *jvalue) []*jvalue {
	for i, it := range items {
		if it == x {
			return append(items[:i], items[i+1:]...)
		}
	}
	return items
}

// onlyOurs reports whether every handler of a group is loopguard's.
func onlyOurs(g *jvalue, isOurs func(*jvalue) bool) bool {
	for _, h := range g.get("hooks").items {
		if !isOurs(h) {
			return false
		}
	}
	return true
}

// setMatcher sets a group's matcher, or removes it for "".
func setMatcher(g *jvalue, m string) {
	if m == "" {
		g.del("matcher")
		return
	}
	if g.get("matcher") == nil {
		// Put it first, as the hosts' documentation does.
		g.members = append([]jmember{{rawKey: jsonString("matcher"), key: "matcher", val: jstr(m)}}, g.members...)
		return
	}
	g.set("matcher", jstr(m))
}
