package cli

import "github.com/loopguard/loopguard/internal/hookcmd"

func init() {
	register(command{name: "hook", summary: "answer one hook event of Claude Code, Codex or Gemini CLI (JSON on stdin); always fails open", run: runHook})
}

func runHook(env *Env, args []string) int {
	return hookcmd.Run(args, env.Stdin, env.Stdout, env.Stderr, env.Getenv)
}
