package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loopguard/loopguard"
)

// Choice is how a command was asked to configure itself.
type Choice struct {
	File   string // --config FILE
	Preset string // --preset NAME
}

// AddFlags adds --config FILE and --preset NAME to fs, the way every command takes them.
func AddFlags(fs *flag.FlagSet) *Choice {
	var c Choice
	fs.StringVar(&c.File, "config", "", "configuration `FILE` (YAML or JSON)")
	fs.StringVar(&c.Preset, "preset", "", "start from preset `NAME`: "+strings.Join(loopguard.PresetNames(), ", "))
	return &c
}

// Resolved is a configuration and where it came from.
type Resolved struct {
	Config   loopguard.Config
	Source   string // "--config FILE", "--preset NAME", "$LOOPGUARD_CONFIG (FILE)", "FILE", or "built-in default preset"
	Warnings []string
}

// EnvVar names the environment variable that points at a configuration file.
const EnvVar = "LOOPGUARD_CONFIG"

// Resolve finds the configuration the same way for every subcommand: --config FILE or
// --preset NAME; else $LOOPGUARD_CONFIG; else $XDG_CONFIG_HOME/loopguard/config.yaml
// (~/.config/loopguard/config.yaml when XDG_CONFIG_HOME is unset) if that file exists; else
// the default preset. getenv is os.Getenv outside tests.
func Resolve(c Choice, getenv func(string) string) (Resolved, error) {
	if c.File != "" && c.Preset != "" {
		return Resolved{}, errors.New("give either --config or --preset, not both")
	}
	if c.Preset != "" {
		cfg, err := loopguard.Preset(c.Preset)
		return Resolved{Config: cfg, Source: "--preset " + c.Preset}, err
	}
	if c.File != "" {
		return load(c.File, "--config "+c.File)
	}
	if f := getenv(EnvVar); f != "" {
		return load(f, fmt.Sprintf("$%s (%s)", EnvVar, f))
	}
	if f := userFile(getenv); f != "" {
		if _, err := os.Stat(f); err == nil {
			return load(f, f)
		}
	}
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	return Resolved{Config: cfg, Source: "built-in default preset"}, nil
}

func load(path, source string) (Resolved, error) {
	cfg, warnings, err := Load(path)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Config: cfg, Source: source, Warnings: warnings}, nil
}

// userFile is the per-user configuration file's path, or "" when there is no home to put it in.
func userFile(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "loopguard", "config.yaml")
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "loopguard", "config.yaml")
}
