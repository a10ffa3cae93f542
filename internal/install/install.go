// Package install puts loopguard's hook into the settings of Claude Code, Codex
// and Gemini CLI, and takes it out again.
//
// What it edits:
//
//   - Claude Code: settings.json ($CLAUDE_CONFIG_DIR or ~/.claude for the user,
//     <dir>/.claude for a project), "hooks";
//   - Codex: hooks.json ($CODEX_HOME or ~/.codex for the user, <dir>/.codex for a
//     project), and the user's config.toml, where each handler is recorded as
//     trusted ([hooks.state."<hooks.json>:<event>:<group>:<handler>"]
//     trusted_hash), as Codex itself does, so that `codex exec` runs it;
//   - Gemini CLI: settings.json ($GEMINI_CLI_HOME/.gemini or ~/.gemini for the
//     user, <dir>/.gemini for a project), "hooks".
//
// loopguard's handlers are the command hooks whose command runs a program
// named loopguard* (or the running binary) with "hook HOST"
// (IsLoopguardCommand). Install rewrites those in place, or appends a matcher
// group per event, and removes extra ones; uninstall removes them, and any
// group, event array or "hooks" object that their removal left empty.
// Everything else in the files is kept: JSON keys in their order, every value
// with its exact text (only indentation changes, to 2 spaces); config.toml is
// edited line by line (see tomledit.go). A file that is not valid JSON (or
// TOML) is refused with its line and column, and nothing is written.
//
// Changes are planned first (Plan), shown as a unified diff (Plan.Diff), then
// applied (Plan.Apply): a backup of each existing file, then a temporary file
// in the same directory, synced and renamed over the original.
package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loopguard/loopguard/internal/hook"
)

// Scope says whose settings are edited.
type Scope string

const (
	ScopeUser    Scope = "user"    // the user's settings, for every project
	ScopeProject Scope = "project" // the settings of the project in the working directory
)

// Options says what to install where.
type Options struct {
	Host  hook.Host
	Scope Scope // ScopeUser when empty
	// Exe is the absolute path of the loopguard binary the hook runs.
	Exe string
	// Preset, Config (an absolute path) and Store are passed on to
	// `loopguard hook` as --preset, --config and --store when set.
	Preset, Config, Store string
	// Home is the user's home directory; Cwd the working directory (the
	// project, for ScopeProject).
	Home, Cwd string
	// Getenv reads CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME; nil
	// means none is set.
	Getenv func(string) string
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// FileChange is one file a plan rewrites.
type FileChange struct {
	Path    string      // the file written (symbolic links resolved)
	Old     []byte      // its content now (nil when it does not exist)
	Existed bool        // whether it exists now
	New     []byte      // its content after
	Perm    fs.FileMode // its permissions (kept for an existing file)
}

// Plan is an install or uninstall worked out, not yet done.
type Plan struct {
	Host    hook.Host
	Scope   Scope
	Install bool
	// Command is the hook command installed ("" for an uninstall).
	Command string
	// Settings is the file holding the hooks; TrustFile Codex's config.toml.
	Settings, TrustFile string
	// Found is how many loopguard handlers the settings held before.
	Found int
	// Changes lists the files whose content changes, in the order they are
	// written; empty when there is nothing to do.
	Changes []*FileChange
	// Notes are things the user should know (hooks disabled, an untrusted
	// Codex project...).
	Notes []string
}

// Paths of a host's settings for o.
func settingsPath(o *Options) (string, error) {
	base := o.Cwd
	if o.Scope != ScopeProject {
		base = o.Home
		if base == "" {
			return "", errors.New("cannot find your home directory (set HOME)")
		}
	} else if base == "" {
		return "", errors.New("no working directory")
	}
	switch o.Host {
	case hook.ClaudeCode:
		if o.Scope != ScopeProject {
			if d := o.getenv("CLAUDE_CONFIG_DIR"); d != "" {
				return filepath.Join(absFrom(o.Cwd, d), "settings.json"), nil
			}
		}
		return filepath.Join(base, ".claude", "settings.json"), nil
	case hook.Codex:
		if o.Scope != ScopeProject {
			return filepath.Join(codexHome(o), "hooks.json"), nil
		}
		return filepath.Join(base, ".codex", "hooks.json"), nil
	case hook.GeminiCLI:
		if o.Scope != ScopeProject {
			if d := o.getenv("GEMINI_CLI_HOME"); d != "" {
				return filepath.Join(absFrom(o.Cwd, d), ".gemini", "settings.json"), nil
			}
		}
		return filepath.Join(base, ".gemini", "settings.json"), nil
	}
	return "", fmt.Errorf("unknown host %q", o.Host)
}

func codexHome(o *Options) string {
	if d := o.getenv("CODEX_HOME"); d != "" {
		return absFrom(o.Cwd, d)
	}
	return filepath.Join(o.Home, ".codex")
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// realPath resolves the symbolic links of the longest existing prefix of p.
func realPath(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// PlanInstall works out what installing loopguard's hook takes.
func PlanInstall(o Options) (*Plan, error) {
	if o.Exe == "" || !filepath.IsAbs(o.Exe) {
		return nil, fmt.Errorf("the loopguard binary's path must be absolute, got %q", o.Exe)
	}
	return plan(o, HookCommand(o.Exe, o.Host, o.Preset, o.Config, o.Store))
}

// PlanUninstall works out what removing loopguard's hook takes.
func PlanUninstall(o Options) (*Plan, error) {
	return plan(o, "")
}

func plan(o Options, command string) (*Plan, error) {
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	spec, ok := specs[o.Host]
	if !ok {
		return nil, fmt.Errorf("unknown host %q (want claude-code, codex or gemini-cli)", o.Host)
	}
	path, err := settingsPath(&o)
	if err != nil {
		return nil, err
	}
	p := &Plan{Host: o.Host, Scope: o.Scope, Install: command != "", Command: command}
	real, data, perm, exists, err := readTarget(path)
	if err != nil {
		return nil, err
	}
	p.Settings = real
	if !exists && command == "" {
		return p, nil
	}
	root, err := parseJSON(real, data)
	if err != nil {
		return nil, err
	}
	if root.kind != jObject {
		return nil, fmt.Errorf("%s: the top level is not a JSON object; fix the file by hand first", real)
	}
	before := root.compactString()
	isOurs := func(h *jvalue) bool {
		if h.kind != jObject {
			return false
		}
		if t := h.get("type"); t != nil {
			if s, _ := t.str(); s != "command" {
				return false
			}
		}
		cmd, ok := h.get("command").str()
		return ok && IsLoopguardCommand(cmd, o.Host, o.Exe)
	}
	res, err := editHooks(real, root, spec, command, isOurs)
	if err != nil {
		return nil, err
	}
	p.Found = len(res.oldOurs)
	p.Notes = append(p.Notes, notes(&o, root, real)...)
	if !exists || root.compactString() != before {
		if !exists {
			perm = 0o600
			if o.Scope == ScopeProject {
				perm = 0o644
			}
		}
		p.Changes = append(p.Changes, &FileChange{Path: real, Old: data, Existed: exists, New: root.format(), Perm: perm})
	}

	if o.Host == hook.Codex {
		if err := planCodexTrust(&o, p, path, res); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// planCodexTrust adds the config.toml change that trusts our handlers where
// they now are, forgets where they were, and follows the other handlers that
// moved (so that their trust survives our removal).
func planCodexTrust(o *Options, p *Plan, hooksPath string, res *hooksResult) error {
	// Codex keys trust by the path it found hooks.json at: $CODEX_HOME with
	// its symbolic links resolved, or the project directory.
	keyPath := filepath.Join(realPath(filepath.Dir(hooksPath)), filepath.Base(hooksPath))
	prefix := keyPath + ":"
	real, data, perm, exists, err := readTarget(filepath.Join(codexHome(o), "config.toml"))
	if err != nil {
		return err
	}
	p.TrustFile = real
	doc, err := decodeTOML(real, data)
	if err != nil {
		return err
	}
	ch := trustChange{remove: map[string]bool{}, rename: map[string]string{}}
	for _, pos := range res.oldOurs {
		ch.remove[prefix+pos.suffix()] = true
	}
	for _, h := range res.newOurs {
		ch.add = append(ch.add, trustEntry{
			key:  prefix + h.pos.suffix(),
			hash: CodexTrustedHash(h.pos.event, h.matcher, CodexHandler{Command: h.command, Timeout: h.spec.Timeout}),
		})
	}
	byLabel := map[string]hpos{} // "label:g:h" or "label:g:*" -> new place
	for from, to := range res.moves {
		byLabel[from.suffix()] = to
	}
	for _, k := range codexTrustKeys(doc, prefix) {
		label, g, h, ok := splitTrustKey(strings.TrimPrefix(k, prefix))
		if !ok || ch.remove[k] {
			continue
		}
		if to, ok := byLabel[label+":"+g+":"+h]; ok {
			ch.rename[k] = prefix + to.suffix()
		} else if to, ok := byLabel[label+":"+g+":*"]; ok {
			ch.rename[k] = prefix + CodexHookEventLabel(to.event) + ":" + strconv.Itoa(to.group) + ":" + h
		}
	}
	out, err := editCodexConfig(real, data, ch)
	if err != nil {
		return err
	}
	if string(out) != string(data) || (!exists && len(ch.add) > 0) {
		if !exists {
			perm = 0o600
		}
		p.Changes = append(p.Changes, &FileChange{Path: real, Old: data, Existed: exists, New: out, Perm: perm})
	}
	if o.Scope == ScopeProject && len(ch.add) > 0 && !codexProjectTrusted(doc, realPath(o.Cwd)) {
		p.Notes = append(p.Notes, fmt.Sprintf("Codex reads %s only in a trusted project, and %s is not marked trusted in %s: trust it when Codex asks, or add\n  [projects.%s]\n  trust_level = \"trusted\"",
			hooksPath, o.Cwd, real, tomlString(realPath(o.Cwd))))
	}
	return nil
}

// splitTrustKey splits "label:group:handler".
func splitTrustKey(s string) (label, group, handler string, ok bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// codexProjectTrusted reports whether config.toml trusts dir or a parent of it.
func codexProjectTrusted(doc map[string]any, dir string) bool {
	projects, _ := doc["projects"].(map[string]any)
	for d := dir; ; d = filepath.Dir(d) {
		if t, ok := projects[d].(map[string]any); ok && t["trust_level"] == "trusted" {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// notes warns about settings that would keep the hook from running, or make
// it run twice.
func notes(o *Options, root *jvalue, file string) []string {
	var out []string
	switch o.Host {
	case hook.ClaudeCode:
		if v := root.get("disableAllHooks"); v != nil && string(v.raw) == "true" {
			out = append(out, file+` has "disableAllHooks": true, so Claude Code runs no hooks at all`)
		}
	case hook.GeminiCLI:
		hc := root.get("hooksConfig")
		if v := hc.get("enabled"); v != nil && string(v.raw) == "false" {
			out = append(out, file+` has "hooksConfig": {"enabled": false}, so Gemini CLI runs no hooks at all`)
		}
		if d := hc.get("disabled"); d != nil && d.kind == jArray {
			for _, it := range d.items {
				if s, _ := it.str(); s == "loopguard" {
					out = append(out, file+` lists "loopguard" in "hooksConfig"."disabled", so Gemini CLI skips it (/hooks enable loopguard)`)
				}
			}
		}
	}
	// An http hook to `loopguard serve` as well would count every call twice.
	if hooks := root.get("hooks"); hooks != nil && hooks.kind == jObject {
		for _, m := range hooks.members {
			if m.val.kind != jArray {
				continue
			}
			for _, g := range m.val.items {
				for _, h := range g.get("hooks").itemsOrNil() {
					if u, ok := h.get("url").str(); ok && strings.Contains(u, "/hook/"+string(o.Host)) {
						out = append(out, fmt.Sprintf("%s also sends %s to %s (loopguard serve?): with both, every call is counted twice; keep one", file, m.key, u))
					}
				}
			}
		}
	}
	return out
}

func (v *jvalue) itemsOrNil() []*jvalue {
	if v == nil || v.kind != jArray {
		return nil
	}
	return v.items
}

// Diff returns the plan's changes as a unified diff.
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, c := range p.Changes {
		oldName := c.Path
		if !c.Existed {
			oldName = "/dev/null"
		}
		b.WriteString(unifiedDiff(oldName, c.Path, c.Old, c.New))
	}
	return b.String()
}

// Written is a file a plan wrote.
type Written struct {
	Path   string
	Backup string // "" when the file is new
}

// Apply carries the plan out: for each file, a backup of the existing one,
// then the new content written atomically. It stops at the first error; the
// files written before it stay written (each is complete).
func (p *Plan) Apply(now time.Time) ([]Written, error) {
	var done []Written
	for _, c := range p.Changes {
		w := Written{Path: c.Path}
		dirPerm := fs.FileMode(0o700)
		if p.Scope == ScopeProject {
			dirPerm = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(c.Path), dirPerm); err != nil {
			return done, err
		}
		if c.Existed {
			b, err := writeBackup(c.Path, c.Old, c.Perm, now)
			if err != nil {
				return done, fmt.Errorf("backing up %s: %w", c.Path, err)
			}
			w.Backup = b
		}
		if err := writeAtomic(c.Path, c.New, c.Perm, c.Old, c.Existed); err != nil {
			if w.Backup != "" {
				os.Remove(w.Backup) // nothing changed: the backup is not needed
			}
			return done, err
		}
		done = append(done, w)
	}
	return done, nil
}
