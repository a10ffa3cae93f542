// Command loopguard notices when an AI agent repeats itself and tells the model so.
//
// Run `loopguard help` for the commands; the README has a quick start.
package main

import (
	"os"

	"github.com/loopguard/loopguard/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
