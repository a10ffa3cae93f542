package cli

import (
	"fmt"

	"github.com/loopguard/loopguard/config"
)

func init() {
	register(command{name: "config", summary: "check a configuration file and print the effective configuration", run: runConfig})
}

func runConfig(env *Env, args []string) int {
	if len(args) == 0 || (args[0] != "check" && args[0] != "schema") {
		fmt.Fprint(env.Stderr, "Usage:\n  loopguard config check [FILE | --config FILE | --preset NAME]\n  loopguard config schema\n\n"+
			"check validates the configuration (the one every command would use, or FILE) and prints it\nwith every default filled in; schema prints the JSON Schema for editors.\n")
		return exitUsage
	}
	if args[0] == "schema" {
		env.Stdout.Write(config.Schema)
		return exitOK
	}
	fs := newFlags(env, "config check", "config check [FILE | --config FILE | --preset NAME]",
		"  loopguard config check ~/.config/loopguard/config.yaml\n  loopguard config check --preset dsh-brake\n")
	choice := configFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 || (fs.NArg() == 1 && choice.File != "") {
		fmt.Fprintln(env.Stderr, "loopguard config check: give one file")
		return exitUsage
	}
	if fs.NArg() == 1 {
		choice.File = fs.Arg(0)
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	fmt.Fprintf(env.Stdout, "# effective configuration, from %s\n", r.Source)
	env.Stdout.Write(config.Format(r.Config))
	return exitOK
}
