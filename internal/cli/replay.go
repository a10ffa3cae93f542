package cli

import (
	"errors"
	"fmt"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/replay"
)

func init() {
	register(command{name: "replay", summary: "replay events (JSONL on stdin) through the engine; notices and denials as JSONL on stdout", run: runReplay})
}

func runReplay(env *Env, args []string) int {
	fs := newFlags(env, "replay", "replay [--preset NAME | --config FILE] [--skip-invalid] < events.jsonl",
		`  echo '{"type":"call","agent":"a1","tool":"probe","args":{"q":"same"}}' | loopguard replay
  loopguard replay --preset dsh-brake < events.jsonl > notices.jsonl
  loopguard replay --config loopguard.yaml --skip-invalid < events.jsonl

The input and output formats are described in docs/events.md.
`)
	choice := configFlags(fs)
	skip := fs.Bool("skip-invalid", false, "report malformed lines on stderr and skip them, instead of stopping")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "loopguard replay: unexpected argument %q (events come on stdin)\n", fs.Arg(0))
		return exitUsage
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	eng, err := loopguard.New(r.Config)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard replay: %v\n", err)
		return exitUsage
	}
	st, err := replay.Run(env.Stdin, env.Stdout, eng, replay.Options{
		Name:        "stdin",
		SkipInvalid: *skip,
		Invalid: func(e *replay.LineError) {
			fmt.Fprintf(env.Stderr, "loopguard replay: skipped %v\n", e)
		},
	})
	var le *replay.LineError
	switch {
	case errors.As(err, &le):
		fmt.Fprintf(env.Stderr, "loopguard replay: %v\n", err)
		return exitUsage
	case err != nil:
		fmt.Fprintf(env.Stderr, "loopguard replay: %v\n", err)
		return exitFail
	}
	if st.Skipped > 0 {
		fmt.Fprintf(env.Stderr, "loopguard replay: %s\n", replay.FormatSkipped(st.Skipped))
	}
	return exitOK
}
