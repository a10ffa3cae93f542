// Package cli implements the loopguard command: one file per subcommand, each a function from
// arguments and streams to an exit status, so that tests run them in-process.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/config"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // the job ran and found a problem (e.g. a scan with unreadable files)
	exitUsage = 2 // bad flags, bad configuration, bad input
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

type command struct {
	name    string
	summary string
	run     func(env *Env, args []string) int
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// Main runs the loopguard command line and returns its exit status.
func Main(args []string, env *Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if len(args) == 0 {
		usage(env.Stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(env.Stdout)
		return exitOK
	case "-version", "--version", "version":
		fmt.Fprintf(env.Stdout, "loopguard %s\n", loopguard.Version)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "loopguard: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return exitUsage
	}
	return c.run(env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "loopguard %s: notices when an AI agent repeats itself, and tells the model.\n\nUsage:\n  loopguard <command> [flags]\n\nCommands:\n", loopguard.Version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nEvery command takes --config FILE or --preset NAME (%s); without them it reads\n$%s, then $XDG_CONFIG_HOME/loopguard/config.yaml, else uses the default preset.\nRun 'loopguard <command> -h' for a command's flags and examples.\n", strings.Join(loopguard.PresetNames(), ", "), config.EnvVar)
}

// newFlags returns a flag set that prints its usage, with examples, to stderr.
func newFlags(env *Env, name, synopsis, examples string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: loopguard %s\n\n", synopsis)
		fs.PrintDefaults()
		if examples != "" {
			fmt.Fprintf(env.Stderr, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// configFlags adds --config and --preset to a flag set.
func configFlags(fs *flag.FlagSet) *config.Choice { return config.AddFlags(fs) }

// resolveConfig finds the configuration and prints its warnings; ok=false means it printed an error.
func resolveConfig(env *Env, c *config.Choice) (config.Resolved, bool) {
	r, err := config.Resolve(*c, env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard: %v\n", err)
		return r, false
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(env.Stderr, "loopguard: warning: %s (%s)\n", w, r.Source)
	}
	return r, true
}
