package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
)

func init() {
	register(command{name: "demo", summary: "watch a scripted agent walk into loops and make progress, and what loopguard tells it", run: runDemo})
}

// The demo is a real agent loop (package agent) with loopguard installed; only the model is
// scripted. Its scenes are two loops loopguard exists for (a failing call repeated, a cycle of
// calls) and the work it must leave alone: a test re-run after each edit, and a build polled
// while it advances. The transcript is printed from the session log, i.e. from exactly what the
// model was shown.

type demoScene struct {
	title   string
	prompt  string
	replies []agent.Message
}

func demoScenes() []demoScene {
	tests := agent.ToolCall{Name: "run_tests", Args: `{"pkg":"./parser"}`}
	grep := agent.ToolCall{Name: "grep", Args: `{"pattern":"Token"}`}
	read := agent.ToolCall{Name: "read_file", Args: `{"path":"lexer.go"}`}
	var cycle []agent.Message
	for range 4 {
		cycle = append(cycle, agent.Reply("", grep), agent.Reply("", read))
	}
	edit := func(n int) agent.ToolCall {
		return agent.ToolCall{Name: "edit_file", Args: fmt.Sprintf(`{"path":"lexer.go","change":%d}`, n)}
	}
	build := agent.ToolCall{Name: "build_status", Args: `{"id":"b-7"}`}
	return []demoScene{
		{"a failing call, repeated", "The parser tests fail. Please fix them.", append(repeatReply(6, tests),
			agent.Reply("Rerunning gives the same failure every time. I'll read TestTokens instead."))},
		{"a cycle of calls", "Where is the Token type defined?", append(cycle,
			agent.Reply("I'm going in circles. lexer.go only uses Token; I'll search for `type Token` instead."))},
		{"progress, left alone", "Fix the lexer, then wait for the release build.", []agent.Message{
			agent.Reply("", agent.ToolCall{Name: "run_lexer_tests", Args: `{}`}),
			agent.Reply("", edit(1)),
			agent.Reply("", agent.ToolCall{Name: "run_lexer_tests", Args: `{}`}), // the same test after an edit: progress
			agent.Reply("", edit(2)),
			agent.Reply("", agent.ToolCall{Name: "run_lexer_tests", Args: `{}`}),
			agent.Reply("", build), agent.Reply("", build), agent.Reply("", build), agent.Reply("", build), // advancing
			agent.Reply("The lexer tests pass and the build is done."),
		}},
	}
}

func repeatReply(n int, c agent.ToolCall) []agent.Message {
	out := make([]agent.Message, n)
	for i := range out {
		out[i] = agent.Reply("", c)
	}
	return out
}

func demoTools() []agent.Tool {
	result := func(text string, failed bool) func(context.Context, *agent.Execution) (agent.Result, error) {
		return func(context.Context, *agent.Execution) (agent.Result, error) {
			return agent.Result{Content: text, IsError: failed}, nil
		}
	}
	// The lexer tests fail twice the same way, then pass after the second edit; the build
	// advances on each check. Both are progress, and stateful the way real tools are.
	lexerRuns, buildChecks := 0, 0
	return []agent.Tool{
		{Name: "run_tests", Description: "run a package's tests", Run: result("FAIL TestTokens: want 3 tokens, got 2", true)},
		{Name: "grep", Description: "search the code", Run: result("lexer.go:12: tok Token", false)},
		{Name: "read_file", Description: "read a file", Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
			var in struct{ Path string }
			ex.Call.Decode(&in)
			return agent.Result{Content: "package parser // " + in.Path + ", 120 lines"}, nil
		}},
		{Name: "run_lexer_tests", Description: "run the lexer's tests", Run: func(context.Context, *agent.Execution) (agent.Result, error) {
			lexerRuns++
			if lexerRuns < 3 {
				return agent.Result{Content: "FAIL TestNumbers: 1e3 lexed as 1", IsError: true}, nil
			}
			return agent.Result{Content: "ok lexer 0.012s"}, nil
		}},
		{Name: "edit_file", Description: "edit a file", Run: result("edited lexer.go", false)},
		{Name: "build_status", Description: "check a build", Run: func(context.Context, *agent.Execution) (agent.Result, error) {
			buildChecks++
			return agent.Result{Content: fmt.Sprintf("build b-7: running, %d of 4 steps done (compile, test, package, upload)", buildChecks)}, nil
		}},
	}
}

func runDemo(env *Env, args []string) int {
	fs := newFlags(env, "demo", "demo [--preset NAME | --config FILE] [--log FILE]",
		`  loopguard demo
  loopguard demo --preset dsh-brake
  loopguard demo --log session.jsonl && jq -c '{role, source, text}' session.jsonl

The demo uses the default preset unless --preset or --config says otherwise.
`)
	choice := configFlags(fs)
	logPath := fs.String("log", "", "write the session log to `FILE` (default: a file in a new temporary directory)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "loopguard demo: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	// Always the same show, whatever the user's own configuration file says, unless asked.
	if choice.File == "" && choice.Preset == "" {
		choice.Preset = loopguard.PresetDefault
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	guard, err := loopguardplugin.New(r.Config)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", err)
		return exitUsage
	}

	path := *logPath
	if path == "" {
		dir, err := os.MkdirTemp("", "loopguard-demo-")
		if err != nil {
			fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", err)
			return exitFail
		}
		path = filepath.Join(dir, "session.jsonl")
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", err)
		return exitFail
	}
	scenes := demoScenes()
	runErr := runDemoAgent(f, guard, scenes)
	if err := f.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", runErr)
		return exitFail
	}
	f, err = os.Open(path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", err)
		return exitFail
	}
	defer f.Close()
	recs, err := agent.ReadLog(f)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard demo: %v\n", err)
		return exitFail
	}
	printDemo(env.Stdout, newStyle(env), r.Source, scenes, recs, path)
	return exitOK
}

func runDemoAgent(log io.Writer, guard *loopguardplugin.Plugin, scenes []demoScene) error {
	var replies []agent.Message
	for _, s := range scenes {
		replies = append(replies, s.replies...)
	}
	reg := agent.NewRegistry()
	if err := reg.Register(demoTools()...); err != nil {
		return err
	}
	loop := &agent.Loop{Model: agent.NewScript(replies...), Tools: reg, Log: log}
	loop.Use(guard)
	a := loop.NewAgent("demo")
	defer a.Dispose()
	for _, s := range scenes {
		if _, err := a.Send(context.Background(), agent.User(s.prompt)); err != nil {
			return err
		}
	}
	return nil
}

// style colours the transcript on a terminal and leaves it plain elsewhere.
type style struct{ on bool }

func newStyle(env *Env) style {
	if env.Getenv("NO_COLOR") != "" || env.Getenv("TERM") == "dumb" {
		return style{}
	}
	f, ok := env.Stdout.(*os.File)
	if !ok {
		return style{}
	}
	fi, err := f.Stat()
	return style{on: err == nil && fi.Mode()&os.ModeCharDevice != 0}
}

func (s style) paint(code, text string) string {
	if !s.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(t string) string   { return s.paint("1", t) }
func (s style) dim(t string) string    { return s.paint("2", t) }
func (s style) red(t string) string    { return s.paint("31", t) }
func (s style) cyan(t string) string   { return s.paint("36", t) }
func (s style) notice(t string) string { return s.paint("1;33", t) }

const demoWidth = 100

func printDemo(w io.Writer, s style, source string, scenes []demoScene, recs []agent.Record, path string) {
	fmt.Fprintf(w, "%s  a scripted model drives the real agent loop into two loops, then makes progress (%s)\n",
		s.bold("loopguard demo"), source)
	scene, notices, calls, refused := 0, map[string]int{}, 0, 0
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		switch {
		case r.Source.Kind == agent.FromUser:
			title := ""
			if scene < len(scenes) {
				title = scenes[scene].title
			}
			scene++
			fmt.Fprintf(w, "\n%s\n", s.bold(fmt.Sprintf("%d. %s", scene, title)))
			fmt.Fprintf(w, "  %s %s\n", s.cyan(label("user")), r.Text)
		case r.Source.Kind == agent.FromModel && len(r.ToolCalls) > 0:
			for _, c := range r.ToolCalls {
				calls++
				line := c.Name + " " + c.Args
				// A single call and its result read best on one line.
				if len(r.ToolCalls) == 1 && i+1 < len(recs) && recs[i+1].ToolCallID == c.ID {
					i++
					res := recs[i]
					if strings.HasPrefix(res.Text, "Error: "+loopguard.PluginDSHBrake+":") || strings.HasPrefix(res.Text, "Error: loopguard:") {
						refused++
					}
					fmt.Fprintf(w, "  %s %s  %s\n", s.dim(label("model")), line, result(s, res, demoWidth-12-utf8.RuneCountInString(line)))
					continue
				}
				fmt.Fprintf(w, "  %s %s\n", s.dim(label("model")), cut(line, demoWidth-10))
			}
		case r.Source.Kind == agent.FromModel:
			fmt.Fprintf(w, "  %s %s\n", s.dim(label("model")), r.Text)
		case r.Source.Kind == agent.FromTool:
			fmt.Fprintf(w, "  %s %s\n", s.dim(label("tool")), result(s, r, demoWidth-10))
		case r.Source.Form == agent.FormNotice:
			notices[r.Source.Plugin]++
			text := strings.TrimPrefix(strings.Join(strings.Fields(r.Text), " "), "["+r.Source.Plugin+"] ")
			fmt.Fprintf(w, "  %s\n    %s\n", s.notice("▲ "+r.Source.Plugin+": "+r.Source.Summary), cut(text, demoWidth-4))
		default:
			fmt.Fprintf(w, "  %s %s\n", s.dim(label(r.Source.Plugin)), cut(r.Text, demoWidth-10))
		}
	}
	total, parts := 0, []string{}
	for _, p := range []string{loopguard.PluginProgress, loopguard.PluginRepeatToolReminder, loopguard.PluginDSHBrake} {
		if n := notices[p]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", p, n))
		}
	}
	summary := fmt.Sprintf("%d notices in %d tool calls", total, calls)
	if len(parts) > 0 {
		summary += " (" + strings.Join(parts, ", ") + ")"
	}
	if refused > 0 {
		summary += fmt.Sprintf(", %d refused", refused)
	}
	fmt.Fprintf(w, "\n%s.\nSession log, every message the model saw with its source: %s\n", summary, path)
}

func label(l string) string { return fmt.Sprintf("%-7s", l) }

func result(s style, r agent.Record, width int) string {
	if r.IsError {
		return s.red("✗ " + cut(strings.TrimPrefix(r.Text, "Error: "), width-2))
	}
	return s.dim("→ " + cut(r.Text, width-2))
}

// cut shortens t to at most n code points, ending in "…" when it had to cut.
func cut(t string, n int) string {
	if n < 1 {
		n = 1
	}
	if utf8.RuneCountInString(t) <= n {
		return t
	}
	r := []rune(t)
	return string(r[:n-1]) + "…"
}
