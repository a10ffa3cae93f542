// Command loopguard-hook is `loopguard hook` alone, for agent CLIs that start a new process for
// every hook event: it links only the hook path, so it starts faster than the full loopguard
// binary (see BENCHMARKS.md, "Hook latency"). It takes the same arguments:
//
//	loopguard-hook hook claude-code|codex|gemini-cli [--preset NAME | --config FILE] [--store URL]
//
// `loopguard install` writes it into the host's settings when it is installed beside loopguard
// (go install ./cmd/...). Like `loopguard hook`, it always exits 0.
package main

import (
	"fmt"
	"os"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/hookcmd"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && (args[0] == "--version" || args[0] == "version") {
		fmt.Printf("loopguard-hook %s\n", loopguard.Version)
		return
	}
	if len(args) > 0 && args[0] == "hook" {
		args = args[1:]
	}
	os.Exit(hookcmd.Run(args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
