// Package agent is a small agent loop with seams: the places where a plugin can watch and
// steer an agent without the loop knowing about it. It exists so that loopguard's detectors
// (and anyone's policies) can run inside a Go agent exactly as they run inside the DeepSeek
// Harness, whose seams these are.
//
// Hooks are plain functions that get next, as in net/http middleware or grpc interceptors:
// a hook may call next and amend what it returns, or decide on its own. There is no framework
// beyond that.
//
// # Messages
//
// Every Message has a Source: the user, a plugin (with a form: instructions, catalog,
// snapshot, notice, relay or recall), the model, or a tool. A plugin notice carries a
// one-line summary. Models receive plugin messages in the user role, but the source travels
// with them, so a transcript never passes a plugin's notice off as the user's own words.
//
// # The tool seams
//
// A Registry holds the tools of a process and is shared by all its agents, subagents too, so
// a policy installed once sees every call. Each call goes through:
//
//  1. pre-execute hooks: Allow, Deny(reason) or Ask(question). An Ask goes to the registry's
//     Asker; with none it is a denial, because an unattended agent must neither hang nor do
//     what a hook wanted a person to approve.
//  2. guards: may refuse with a reason. This is where run-wide policies live, such as
//     dsh-brake's deny mode.
//  3. the tool.
//  4. the post-execute waterfall: each hook gets the execution, the result and next, and
//     returns a Decision: Accept (optionally replacing the content the model reads, or the
//     value) or Block(feedback). Any decision may carry additional contexts: messages for the
//     model, each with its own source, kept apart from the result.
//
// A call refused in steps 1 or 2 does not run its tool, and still flows through step 4 as a
// failed result "Error: <reason>": a plugin that counts calls must see hammering on a refused
// call, since that is exactly the loop to break.
//
// # The loop
//
// A Loop asks its Model for the next message, runs the tool calls through the registry and
// goes on until the model answers without calling a tool. Calls of one step may run
// concurrently (Loop.Concurrency), but their post-execute hooks run, and their results are
// committed, in the order the model made them. Additional contexts go after all of the
// step's tool results. They are carried by the next step, and there always is one: a step
// with tool calls always leads to another model call, so a context is never left unsaid.
//
// Before each model call, the pre-step waterfall sees the step's inbox: the previous step's
// tool results and contexts, and any new user message. A hook may Enter with other messages
// (adding some, say) or Reject the step. A user message in the inbox is how plugins learn
// that the user spoke, which resets loopguard's counters.
//
// An Agent is one conversation; Dispose ends it. A new agent with the same session id is a
// new agent: plugins keep state per agent object.
//
// # The session log
//
// Every message the model is shown is written to the loop's Log as a JSON line (Record), with
// its source, before the model sees it; the model is given the agent's recorded history and
// nothing else. So what the model saw is what the log says, by construction. ReadLog reads it.
//
// # Example
//
//	reg := agent.NewRegistry()
//	reg.Register(agent.Tool{Name: "grep", Run: grep})
//	reg.UsePostExecute(func(ctx context.Context, ex *agent.Execution, res agent.Result, next func() agent.Decision) agent.Decision {
//		d := next()
//		if len(res.Text()) > 10000 {
//			d = d.WithContent(res.Text()[:10000]).WithContexts(
//				agent.Notice("trim", "output cut", "The output was cut to 10000 bytes; narrow the search."))
//		}
//		return d
//	})
//	loop := &agent.Loop{Model: model, Tools: reg, Log: logFile}
//	a := loop.NewAgent("session-1")
//	defer a.Dispose()
//	reply, err := a.Send(ctx, agent.User("Find where the config is parsed."))
//
// Package loopguardplugin puts loopguard on these seams with one line, loop.Use(p).
// Package openaimodel is a Model for OpenAI-compatible Chat Completions APIs; Script is a
// Model that plays back fixed replies, for tests and demos.
package agent
