package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/loopguard/loopguard/config"
	"github.com/loopguard/loopguard/internal/hook"
	"github.com/loopguard/loopguard/internal/install"
	"github.com/loopguard/loopguard/internal/store"
)

func init() {
	register(command{name: "install", summary: "install loopguard as the hook of Claude Code, Codex or Gemini CLI (edits their settings; --dry-run shows the diff)", run: runInstall})
	register(command{name: "uninstall", summary: "remove loopguard's hook from the settings of Claude Code, Codex or Gemini CLI", run: runUninstall})
}

// installExecutable finds the loopguard binary the hook will run; tests replace it.
var installExecutable = executablePath

// executablePath is the absolute path of the running binary. When it was started through a
// symbolic link to itself (a package manager's /usr/local/bin/loopguard -> .../1.2.3/loopguard),
// the link is kept: it survives upgrades, the versioned path does not.
func executablePath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return exe, nil
	}
	arg0 := os.Args[0]
	if !strings.Contains(arg0, string(filepath.Separator)) {
		if p, err := exec.LookPath(arg0); err == nil {
			arg0 = p
		}
	}
	if p, err := filepath.Abs(arg0); err == nil {
		if st2, err := os.Stat(p); err == nil && os.SameFile(st, st2) {
			return p, nil
		}
	}
	return exe, nil
}

type installFlags struct {
	project, user, dryRun bool
	store                 string
	choice                *config.Choice
}

func parseInstallArgs(env *Env, name string, args []string, withConfig bool) (hook.Host, *installFlags, bool) {
	synopsis := name + " claude-code|codex|gemini-cli [--user | --project] [--dry-run]"
	examples := `  loopguard install claude-code                 # ~/.claude/settings.json
  loopguard install codex --dry-run             # show the diff, write nothing
  loopguard install gemini-cli --project        # ./.gemini/settings.json
  loopguard install claude-code --config ~/loopguard.yaml --store redis://127.0.0.1:6379/0
  loopguard uninstall codex

Files (--user, the default / --project, in the working directory):
  claude-code  ~/.claude/settings.json ($CLAUDE_CONFIG_DIR) / .claude/settings.json
  codex        ~/.codex/hooks.json ($CODEX_HOME) / .codex/hooks.json, and the trust
               entries in ~/.codex/config.toml
  gemini-cli   ~/.gemini/settings.json ($GEMINI_CLI_HOME) / .gemini/settings.json
Every file changed is backed up first as FILE` + install.BackupSuffix + `<UTC time>.
Exit status: 0 done (or nothing to do), 1 a settings file could not be read, parsed or
written (nothing was changed in it), 2 bad flags or configuration.
See docs/hosts/<host>.md.
`
	if withConfig {
		synopsis += " [--preset NAME | --config FILE] [--store URL]"
	}
	fs := newFlags(env, name, synopsis, examples)
	f := &installFlags{}
	fs.BoolVar(&f.user, "user", false, "edit your own settings, for every project (the default)")
	fs.BoolVar(&f.project, "project", false, "edit the settings of the project in the working directory")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the changes as a unified diff and write nothing")
	if withConfig {
		f.choice = configFlags(fs)
		fs.StringVar(&f.store, "store", "", "the hook's store `URL`: bolt (default), a file path, bolt:///path.db or redis://host:port/db")
	}
	// Flags may come before or after the host.
	var pos []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return "", nil, false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		if len(pos) == 0 {
			fmt.Fprintf(env.Stderr, "loopguard %s: which host? (claude-code, codex or gemini-cli)\n", name)
		} else {
			fmt.Fprintf(env.Stderr, "loopguard %s: one host at a time, got %s\n", name, strings.Join(pos, " "))
		}
		fs.Usage()
		return "", nil, false
	}
	host, err := hook.ParseHost(pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard %s: %v\n", name, err)
		return "", nil, false
	}
	if f.user && f.project {
		fmt.Fprintf(env.Stderr, "loopguard %s: give --user or --project, not both\n", name)
		return "", nil, false
	}
	return host, f, true
}

func (f *installFlags) options(env *Env, host hook.Host) (install.Options, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return install.Options{}, err
	}
	o := install.Options{Host: host, Scope: install.ScopeUser, Home: env.Getenv("HOME"), Cwd: cwd, Getenv: env.Getenv}
	if f.project {
		o.Scope = install.ScopeProject
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	return o, nil
}

func runInstall(env *Env, args []string) int {
	host, f, ok := parseInstallArgs(env, "install", args, true)
	if !ok {
		return exitUsage
	}
	o, err := f.options(env, host)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard install: %v\n", err)
		return exitFail
	}
	// Check the configuration now rather than in every hook run.
	if f.choice.File != "" || f.choice.Preset != "" {
		r, ok := resolveConfig(env, f.choice)
		if !ok {
			return exitUsage
		}
		if err := r.Config.Validate(); err != nil {
			fmt.Fprintf(env.Stderr, "loopguard install: %v\n", err)
			return exitUsage
		}
		o.Preset = f.choice.Preset
		if f.choice.File != "" {
			o.Config = absFrom(o.Cwd, f.choice.File)
		}
	}
	if o.Store, err = hookStore(f.store, o.Cwd); err != nil {
		fmt.Fprintf(env.Stderr, "loopguard install: %v\n", err)
		return exitUsage
	}
	if o.Exe, err = installExecutable(); err != nil {
		fmt.Fprintf(env.Stderr, "loopguard install: cannot find the loopguard binary: %v\n", err)
		return exitFail
	}
	o.Exe = hookExecutable(o.Exe, o.Store)
	if isGoRunBinary(o.Exe) && !f.dryRun {
		// `go run` builds into a temporary folder that is deleted when it exits: a hook
		// pointing there would fail (open) on every call from then on.
		fmt.Fprintf(env.Stderr, "loopguard install: %s is a temporary build from `go run`; install the binary first (go install ./cmd/loopguard) and run it from there\n", o.Exe)
		return exitUsage
	}
	p, err := install.PlanInstall(o)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard install: %v\n", err)
		return exitFail
	}
	return finish(env, "install", p, f.dryRun)
}

func runUninstall(env *Env, args []string) int {
	host, f, ok := parseInstallArgs(env, "uninstall", args, false)
	if !ok {
		return exitUsage
	}
	o, err := f.options(env, host)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard uninstall: %v\n", err)
		return exitFail
	}
	o.Exe, _ = installExecutable() // only to recognise a hook installed under another name
	p, err := install.PlanUninstall(o)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard uninstall: %v\n", err)
		return exitFail
	}
	return finish(env, "uninstall", p, f.dryRun)
}

// finish prints the diff (--dry-run) or applies the plan, and says what happened.
func finish(env *Env, name string, p *install.Plan, dryRun bool) int {
	for _, n := range p.Notes {
		fmt.Fprintf(env.Stderr, "loopguard %s: note: %s\n", name, n)
	}
	if dryRun {
		if len(p.Changes) == 0 {
			fmt.Fprintf(env.Stderr, "loopguard %s: dry run: nothing would change in %s\n", name, p.Settings)
			return exitOK
		}
		fmt.Fprint(env.Stdout, p.Diff())
		fmt.Fprintf(env.Stderr, "loopguard %s: dry run: nothing written (%d file(s) would change)\n", name, len(p.Changes))
		return exitOK
	}
	if len(p.Changes) == 0 {
		if p.Install {
			fmt.Fprintf(env.Stdout, "loopguard %s: the %s hook is already installed in %s; nothing changed\n", name, p.Host, p.Settings)
		} else {
			fmt.Fprintf(env.Stdout, "loopguard %s: no loopguard hook in %s; nothing changed\n", name, p.Settings)
		}
		return exitOK
	}
	written, err := p.Apply(time.Now())
	for _, w := range written {
		fmt.Fprintf(env.Stdout, "loopguard %s: wrote %s", name, w.Path)
		if w.Backup != "" {
			fmt.Fprintf(env.Stdout, " (backup: %s)", w.Backup)
		}
		fmt.Fprintln(env.Stdout)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard %s: %v\n", name, err)
		return exitFail
	}
	if p.Install {
		fmt.Fprintf(env.Stdout, "  command: %s\n  events:  %s\n", p.Command, strings.Join(install.EventNames(p.Host), ", "))
		if p.TrustFile != "" {
			fmt.Fprintf(env.Stdout, "  trusted: each handler has a [hooks.state] trusted_hash in %s\n", p.TrustFile)
		}
	} else {
		fmt.Fprintf(env.Stdout, "  removed %d loopguard handler(s)\n", p.Found)
	}
	return exitOK
}

// hookStore checks a --store for a hook and makes a file path absolute (the host runs the
// hook in its own working directory).
func hookStore(s, cwd string) (string, error) {
	switch {
	case s == "" || s == "bolt" || strings.HasPrefix(s, "redis://") || strings.HasPrefix(s, "rediss://"):
		return s, nil
	case s == "memory":
		return "", fmt.Errorf("--store memory keeps nothing between hook processes; use bolt (the default), a file path or redis://")
	case strings.HasPrefix(s, "bolt:"):
		if !strings.HasPrefix(s, "bolt:///") {
			return "", fmt.Errorf("--store %s: want bolt:///absolute/path.db", s)
		}
		return s, nil
	case strings.Contains(s, "://"):
		return "", fmt.Errorf("--store %s: unsupported (want bolt, a file path, bolt:///path.db, redis:// or rediss://)", s)
	case s == "~" || strings.HasPrefix(s, "~/"):
		return s, nil // loopguard expands it
	}
	return absFrom(cwd, s), nil
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// isGoRunBinary reports whether exe is a temporary binary that `go run` built.
func isGoRunBinary(exe string) bool {
	return strings.Contains(exe, string(filepath.Separator)+"go-build") && strings.HasPrefix(exe, os.TempDir())
}

// hookExecutable prefers loopguard-hook, the hook-only binary, when it is installed beside
// loopguard (go install ./cmd/...): hosts start a process for every hook event, and the
// smaller binary starts faster. It takes the same arguments. A Redis store is the exception:
// loopguard-hook does not link Redis and would hand every event to loopguard.
func hookExecutable(exe, storeURL string) string {
	if store.IsRemote(storeURL) {
		return exe
	}
	slim := filepath.Join(filepath.Dir(exe), "loopguard-hook")
	if fi, err := os.Stat(slim); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return slim
	}
	return exe
}
