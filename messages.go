package loopguard

import "strings"

// catalogue holds every text the detectors put in front of a model, in one language.
// Placeholders are {name}; fill replaces them. The English repeat texts are upstream's own;
// the Chinese dsh-brake texts are upstream's own (its only language), the rest are ours.
type catalogue struct {
	repeatGentle   string
	repeatDetailed string // {tool} {count} {arguments}
	brakeCall      string // {count} {tool}
	brakeSequence  string // {seq} {count}
	brakeText      string // {preview} {seconds} {count} {sources}
	brakeDeny      string // {tool} {count}; must start with "dsh-brake:" in every locale
	moreChars      string // {n}: the tail of a cut preview

	// The progress detector's texts. Each says what was seen and what to try instead.
	progressStuck           string // {tool} {count}
	progressStuckDetailed   string // {tool} {count} {arguments}
	progressStuckReplies    string // {tool} {count}: replies the harness answered for their form, the same way each time
	progressCycle           string // {seq} {period} {rounds}
	progressCycleLong       string // {period} {tools}: a long cycle's calls, as {seq} holds them
	progressErrors          string // {tool} {count}
	progressErrorsSame      string // {tool} {count}: the same arguments each time
	progressErrorsBetween   string // {tool} {count}: the same error, other errors between, nothing succeeding
	progressEditsRejected   string // {tool} {count}: edits of one file rejected, however each rejection was worded
	progressNothingRan      string // {count}: commands in a row of which the shell ran nothing
	progressRefail          string // {tool} {count} {edits}
	progressCameBack        string // {tool} {count} {back}: failures of one command coming back across edits
	progressUnmovedReworded string // {tool} {count}: a check unchanged across edits, whatever was said before it
	progressUnmovedSilent   string // {tool} {count}: a script printing nothing after each of the edits
	progressReread          string // {call} {count} {calls}: the same page of a file read {count} times in {calls} calls, unchanged
	progressOtherCopy       string // {tool} {count} {path}: runs whose traceback named another copy of an edited file, at {path}
	progressMissing         string // {program} {count}: calls that failed because the shell found no {program}
	progressLasting         string // {count} {commands} {failure}: one failure met by {commands} different commands
	progressRefailIdle      string // {tool} {count}: the same failure, nothing changed since the first
	progressReapplied       string // {tool} {count}: the same change made again and again
	progressCopies          string // {tool} {count}: one reply holding the same call {count} times, answered alike
	progressChurn           string // {tool} {count}
	progressPoll            string // {tool} {count}: the answer keeps changing
	progressPollStalled     string // {tool} {count}: the same answer every time
	progressPollIdle        string // {tool} {count}: the same answer every time, checked at once every time
	progressPollSleeps      string // {tool} {count}: calls in a row that only sleep, nothing checked between
	progressIdle            string // {tool} {count}: calls in a row whose commands do nothing
	progressThought         string // {count} {preview}: the calls brought nothing new
	progressMusing          string // {tool} {count} {preview}: the same thought recorded again and again, nothing done between
	progressThoughtSweep    string // {count} {preview}: the calls kept moving to other places
	progressThoughtIdle     string // {count} {preview}: no call in between
	progressUnmoved         string // {tool} {count}: a check run after edits answering as before them, the same words before each
	progressReplay          string // {count} {period} {seq}: the last {count} calls made again as {period} calls before, the same words before each
	progressRedo            string // {count} {period} {seq}: progressReplay, the answers moved by the stretch's own doing (redoesAt)
	progressSelfRepeat      string // {count} {lines}: one text repeating a block of lines
	progressResent          string // {count} {preview}: the same message back after each of {count} answers in words alone
	progressSelfRepeatLine  string // {count} {lines}: one text saying a line again every {lines} lines
	progressDeny            string // {tool} {count}; starts with "loopguard:" in every locale
}

var catalogues = map[string]*catalogue{
	"en": {
		repeatGentle: "You are repeating the exact same tool call with identical arguments. " +
			"Carefully analyze the previous result before calling again: if the task is not complete, " +
			"try a different approach or different arguments instead of repeating the call.",
		repeatDetailed: "Repeated tool call detected:\n" +
			"- tool: {tool}\n" +
			"- consecutive_calls: {count}\n" +
			"- arguments: {arguments}\n" +
			"The repeated calls are not making progress. Do not call this tool with these exact arguments again. " +
			"Inspect the latest result and choose a different action, different arguments, or finish the task " +
			"if enough evidence has been gathered.",
		brakeCall: "[dsh-brake] Repeated execution detected: the same call has now run {count} times ({tool}). " +
			"If this is polling or a deliberate wait, ignore this notice; otherwise read the last result, " +
			"then change the arguments or the approach, or report your conclusion to the user.",
		brakeSequence: "[dsh-brake] Call-sequence loop detected: the sequence {seq} has repeated {count} times. " +
			"Stop going in this direction, analyse the problem afresh, or check with the user.",
		brakeText: "[dsh-brake] Repeated context detected: the same text ({preview}) was added {count} times " +
			"within {seconds} seconds (sources: {sources}). Reuse what is already there instead of " +
			"injecting or fetching the same text again.",
		brakeDeny: "dsh-brake: the same call ({tool}, same arguments) has repeated {count} times without progress " +
			"and was refused. Change your approach or report to the user.",
		moreChars: "… (+{n} more chars)",

		progressStuck: "[loopguard] You have made the same call ({tool}) {count} times and got the same " +
			"result each time: nothing done in between changed it. Calling it again will not give a different answer: " +
			"use the result you have, or change the arguments or the approach.",
		progressStuckDetailed: "[loopguard] No progress: {tool} has now run {count} times with the same arguments " +
			"and returned the same result every time, with no change to the files in between.\n" +
			"- arguments: {arguments}\n" +
			"Do not call it again with these arguments. Work from the result you already have, try a different " +
			"approach, or, if you are blocked, say so and stop.",
		progressCycleLong: "({period} of them: {tools})",
		progressStuckReplies: "[loopguard] Your last {count} replies were answered the same way by the harness ({tool}): " +
			"it found no call in them that it could run. Read its message once more, and answer with exactly one call " +
			"in the form it asks for.",
		progressCycle: "[loopguard] You are going round in a cycle: the calls {seq} have come round {rounds} times " +
			"with the same results each time. Going round again will show you the same things. Decide what you " +
			"still need that these calls have not told you, then do something different.",
		progressErrors: "[loopguard] {tool} has failed {count} times in a row with the same error, although the " +
			"arguments changed. The error message names the problem: fix that cause first (or use a different " +
			"tool) instead of retrying variations.",
		progressErrorsBetween: "[loopguard] {tool} has failed {count} times with the same error, with another error " +
			"between them and no success since it first appeared. Moving between two failing attempts is not getting " +
			"closer: the error message names the problem, so fix that cause first (or use a different tool).",
		progressNothingRan: "[loopguard] None of your last {count} commands ran: each time the shell could not parse " +
			"the command line or found no program of the name it began with. Prose, an unclosed quote or a made-up " +
			"program name is not a command. Send one plain command line that the shell can run, with every quote closed, " +
			"using a program you have seen work here.",
		progressEditsRejected: "[loopguard] {tool} has rejected {count} edits of the same file in a row (the text to " +
			"replace not found as written, found more than once, ...). You are editing from a picture of the file " +
			"that no longer matches it: view the lines you want to change as they are now, then make one edit that " +
			"matches them exactly.",
		progressErrorsSame: "[loopguard] {tool} has failed {count} times with the same error, called the same way each " +
			"time. The error message names the problem: fix that cause first (or use a different tool) instead of " +
			"trying again.",
		progressRefailIdle: "[loopguard] {tool} has failed {count} times with the same error, and nothing was changed " +
			"between the runs: run again as it is, it can only fail the same way. Change what the error names first, " +
			"or try another approach.",
		progressCameBack: "[loopguard] {tool} has failed {count} times since it last worked, and {back} of those " +
			"failures were errors it had already given before: your changes are going round in circles, each " +
			"bringing back a failure an earlier attempt met. List the errors seen so far and what each change " +
			"did, then choose an approach none of them took, or read the code the errors point to first.",
		progressRefail: "[loopguard] {tool} has failed {count} times with the same error, and none of the changes " +
			"you made in between ({edits} of them) altered it. The changes are not reaching the cause: read the error " +
			"again, find where it actually comes from, and change that.",
		progressCopies: "[loopguard] You have sent the same {tool} call {count} times in one reply, and every copy " +
			"was answered the same. A copy cannot bring anything the first call did not: send a call once, read " +
			"its answer, and decide the next step from it.",
		progressChurn: "[loopguard] {tool} has been called with {count} different arguments and gave the same answer " +
			"every time. Varying the arguments is not helping, so the cause lies elsewhere: check the assumption " +
			"behind these calls, or try a different approach.",
		progressReapplied: "[loopguard] You have made the same change with {tool} {count} times, with the same " +
			"arguments. Each run applied it again (what it changed may now hold it {count} times over), but it has " +
			"not brought you further. Look at the result as it is now, and undo the extra copies, before you change it again.",
		progressPoll: "[loopguard] You have checked {tool} {count} times. Its answer is still changing, so this is " +
			"fine if what changes is the progress you are waiting for; make sure it is not a count of retries, " +
			"restarts or errors. Consider waiting longer between checks, or checking once for the final result " +
			"instead of following every step.",
		progressPollStalled: "[loopguard] You have checked {tool} {count} times and its answer has not changed once. " +
			"What you are waiting for may be stuck: if it should not take this long, look at it another way (its log, " +
			"the process list, a direct test) or stop it; if it should, wait much longer between checks.",
		progressPollIdle: "[loopguard] You have checked {tool} {count} times in a row, each time at once, and its answer " +
			"has not changed. Checking again right away cannot bring anything new: wait before the next check (sleep " +
			"for a while, or use a check that waits until there is news), or do other work in the meantime.",
		progressPollSleeps: "[loopguard] Your last {count} calls of {tool} only slept, with nothing checked between them. " +
			"A sleep brings no news by itself: look at what you are waiting for (its output, its status, the process " +
			"list) to see whether it is still running, or stop waiting if nothing is.",
		progressIdle: "[loopguard] Your last {count} calls of {tool} ran commands that do nothing (echo of a fixed text, " +
			"true, a comment, exit): they cannot bring new information. If the task is done, finish it the way this " +
			"environment expects (submit or stop); if it is not, run a command that checks or changes something.",
		progressMusing: "[loopguard] You have called {tool} {count} times in a row, thinking the same thing over " +
			"(\"{preview}\"), and done nothing else in between. Thinking it again will not move the task: act on it now (make the call " +
			"it points to, answer the user, or finish), or, if something is missing, say what it is.",
		progressThought: "[loopguard] You have written the same thing {count} times (\"{preview}\") while your calls " +
			"brought back nothing new. Your plan is not moving forward: sum up what you have learnt so far, then " +
			"choose a different next step.",
		progressThoughtSweep: "[loopguard] You have written the same thing {count} times (\"{preview}\") while your calls " +
			"kept moving to other places. If you are looking for something, search for it directly (grep for its name, " +
			"for example) instead of reading window after window; otherwise sum up what you have learnt so far and " +
			"choose a different next step.",
		progressReplay: "[loopguard] You are going through the same steps again: your last {count} calls ({seq}) are " +
			"the ones you made {period} calls ago, in the same order, with the same results, and you said the same " +
			"things before each. Going on the same way will show you the same things again. Say what those steps " +
			"told you the first time, and do something different.",
		progressRedo: "[loopguard] You are going through the same steps again: your last {count} calls ({seq}) are " +
			"the ones you made {period} calls ago, in the same order, and you said the same things before each. Some " +
			"answers differ, but the steps are the ones you already took, your own changes made again among them: " +
			"repeating them will not tell you more than the first time did. Say what those steps told you then, and " +
			"do something different.",
		progressUnmovedReworded: "[loopguard] You have run the same {tool} check {count} times after editing, and " +
			"every time it answered exactly as it did before the edits. The edits are not reaching what the check runs: " +
			"make sure they change the code it actually executes (the right file, the copy that is imported or " +
			"installed), or find the cause another way before editing again.",
		progressOtherCopy: "[loopguard] {count} times now, after you edited a file, {tool} ran with a traceback through " +
			"{path}: a file of the same name as one you edited, in another directory. The code that runs is that copy, " +
			"not the file you are editing (a harness's copy of the repository, an installed package). Edit the file at " +
			"that path, or make the code run from your copy (install it in place, fix the import path), before editing " +
			"again; checking __file__ from inside your own folder finds your copy, not the one that runs.",
		progressMissing: "[loopguard] {count} of your commands have now failed because the shell finds no command " +
			"named {program} (\"command not found\"), and nothing has installed it since: it is not installed here, not " +
			"on the PATH, or not a command at all. Running it again will not work: use a command that exists here " +
			"(install {program} first if you may, or add its folder to the PATH), or go on without it.",
		progressLasting: "[loopguard] The same failure has now answered {count} of your attempts, made with {commands} " +
			"different commands: \"{failure}\". What you changed between them has not reached its cause. Look at what the " +
			"message names (the module, file, key, column or setting) directly, where it is, whether it exists and how it " +
			"is found, before another attempt at it.",
		progressReread: "[loopguard] You have now read the same thing ({call}) {count} times in your last {calls} calls, " +
			"and it showed exactly the same text each time: it has not changed, and reading it again will not tell you " +
			"anything new. Work from what you have already read, or look at something you have not seen yet (another part " +
			"of the file, the code that calls it, what your last command printed).",
		progressUnmovedSilent: "[loopguard] You have run the same {tool} script {count} times after editing, and it " +
			"printed nothing every time, as it did before the edits. What you changed is not code this script runs: a " +
			"print added there is never reached. Check which file, module or copy of the code the script actually " +
			"runs, or make it print what you need to see, before editing again.",
		progressUnmoved: "[loopguard] You have run the same {tool} check {count} times after editing, saying the same " +
			"thing before each run, and every time it answered exactly as it did before the edits. The edits are not " +
			"reaching what the check runs: make sure they change the code it actually executes (the right file, the copy " +
			"that is imported or installed), or find the cause another way before editing again.",
		progressThoughtIdle: "[loopguard] You have written the same message {count} times (\"{preview}\") without " +
			"calling any tool in between. Saying it again will not move the task on: if the work is done, finish " +
			"(use the tool that ends the task) instead of restating it; if not, take the next concrete step with a tool.",
		progressResent: "[loopguard] The same message has come back after each of your last {count} answers ({preview}): " +
			"you answered it each time in words alone. Whatever sends it (a hook, the harness) is not satisfied by an " +
			"explanation, so another one will bring it back again. Do what it asks with a tool call, or say once, " +
			"plainly, what blocks you (the user may need to fix a hook or a setting) and stop answering it.",
		progressSelfRepeat: "[loopguard] Your last message repeats the same {lines} line(s) {count} times in a row: " +
			"your writing is going round in a loop. Stop here. Say in two or three sentences what you know " +
			"and the one thing you will do next, then do it.",
		progressSelfRepeatLine: "[loopguard] Your last message writes the same line {count} times, once every {lines} lines, " +
			"only what lies between them changing: your writing is going round in a loop. Stop here. Say in two or " +
			"three sentences what you know and the one thing you will do next, then do it.",
		progressDeny: "loopguard: the same call ({tool}, same arguments) has already returned the same result {count} " +
			"times with nothing changed since, so it was not run again. Change the arguments or the approach, " +
			"or report to the user.",
	},
	"zh": {
		repeatGentle: "你正在用完全相同的参数重复同一个工具调用。再次调用之前，请仔细分析上一次的结果：" +
			"如果任务尚未完成，请换一种方法或换一组参数，而不要重复这次调用。",
		repeatDetailed: "检测到重复的工具调用：\n" +
			"- 工具：{tool}\n" +
			"- 连续调用次数：{count}\n" +
			"- 参数：{arguments}\n" +
			"这些重复调用没有带来进展。不要再用完全相同的参数调用这个工具。" +
			"请查看最新的结果，然后换一个操作、换一组参数；如果已经收集到足够的证据，就结束任务。",
		brakeCall: "[dsh-brake] 检测到重复执行：同一调用已连续重复 {count} 次（{tool}）。" +
			"如果这是轮询或有意的等待请忽略；否则请检查上一次结果，" +
			"换用不同参数、不同方法，或直接向用户报告结论。",
		brakeSequence: "[dsh-brake] 检测到调用序列循环：{seq} 这一序列已重复 {count} 次。" +
			"请停止该方向，重新分析问题，或向用户确认。",
		brakeText: "[dsh-brake] 检测到重复上下文：相同正文（{preview}）在 {seconds} 秒内新增 {count} 次" +
			"（来源：{sources}）。请复用已有内容，避免再次注入或检索相同文本。",
		brakeDeny: "dsh-brake: 同一调用（{tool}，相同参数）已重复 {count} 次仍未取得进展，已拒绝执行。请改变方法或向用户报告。",
		moreChars: "…（另有 {n} 个字符）",

		progressStuck: "[loopguard] 你已经 {count} 次执行同一个调用（{tool}），每次结果都相同，期间所做的一切都没有改变它。" +
			"再调用一次也不会得到不同的答案：请利用已有的结果，或者换一组参数、换一种方法。",
		progressStuckDetailed: "[loopguard] 没有进展：{tool} 已用相同参数执行 {count} 次，每次返回的结果都相同，期间文件没有任何改动。\n" +
			"- 参数：{arguments}\n" +
			"不要再用这组参数调用它。请基于已有的结果继续，或者换一种方法；如果确实受阻，请说明情况并停止。",
		progressCycleLong: "（共 {period} 个：{tools}）",
		progressStuckReplies: "[loopguard] 你最近的 {count} 次回复都被执行框架以同样的方式退回（{tool}）：它在其中找不到可以执行的调用。" +
			"请再读一遍它的提示，然后按它要求的格式只回复一个调用。",
		progressCycle: "[loopguard] 你在原地兜圈子：{seq} 这一组调用已经循环 {rounds} 次，每次结果都相同。" +
			"再绕一圈看到的还是同样的内容。请想清楚还缺什么信息是这些调用给不了的，然后换一种做法。",
		progressErrors: "[loopguard] {tool} 已连续失败 {count} 次，报错相同，尽管参数有过变化。" +
			"错误信息已经指出了问题所在：请先解决这个原因（或换一个工具），不要再尝试参数的各种变体。",
		progressErrorsBetween: "[loopguard] {tool} 已失败 {count} 次，报错相同，中间夹着另一种报错，自它第一次出现以来没有一次成功。" +
			"在两种都失败的做法之间来回切换不会更接近目标：错误信息已经指出了问题所在，请先解决这个原因（或换一个工具）。",
		progressNothingRan: "[loopguard] 你最近的 {count} 条命令一条都没有执行：每次 shell 要么无法解析这行命令，要么找不到以它开头的程序。" +
			"大段说明文字、没有闭合的引号或编造的程序名都不是命令。请只发送一行 shell 能执行的命令，引号全部闭合，并使用你在这里见过能运行的程序。",
		progressEditsRejected: "[loopguard] {tool} 已连续 {count} 次拒绝你对同一个文件的修改（找不到要替换的原文、匹配到多处……）。" +
			"你是按一个与文件现状不符的印象在修改：请先查看你要改的那几行现在的样子，再做一次与之完全一致的修改。",
		progressErrorsSame: "[loopguard] {tool} 已失败 {count} 次，报错相同，每次的调用方式都一样。" +
			"错误信息已经指出了问题所在：请先解决这个原因（或换一个工具），不要再重复尝试。",
		progressRefailIdle: "[loopguard] {tool} 已失败 {count} 次，报错相同，而这几次运行之间什么都没有改变：原样再运行，" +
			"结果只会一样。请先改正错误信息所指出的问题，或者换一种做法。",
		progressCameBack: "[loopguard] {tool} 自上次成功以来已失败 {count} 次，其中 {back} 次的报错是之前已经出现过的：" +
			"你的修改在兜圈子，每一次都带回了先前尝试遇到过的错误。请先列出目前见到的各个错误以及每次修改做了什么，" +
			"再选择一种这些尝试都没有用过的做法，或者先去阅读错误所指向的代码。",
		progressRefail: "[loopguard] {tool} 已失败 {count} 次，报错相同；期间你做的修改（共 {edits} 处）都没有改变这个错误。" +
			"这些修改没有触及原因：请重新阅读错误信息，找到它真正的来源，再修改那里。",
		progressCopies: "[loopguard] 你在同一次回复中把同一个 {tool} 调用发送了 {count} 次，每一次得到的答案都一样。" +
			"重复的调用不会带来第一次之外的任何信息：每个调用只发送一次，读它的结果，再据此决定下一步。",
		progressChurn: "[loopguard] {tool} 已用 {count} 组不同的参数调用，每次得到的答案都一样。" +
			"改参数没有帮助，原因在别处：请检查这些调用背后的假设，或换一种方法。",
		progressReapplied: "[loopguard] 你已经用 {tool} 以完全相同的参数做了 {count} 次同样的修改。每次都会再应用一遍" +
			"（被修改的内容里可能已经有 {count} 份同样的修改），但并没有让你更进一步。请先查看现在的结果，去掉多余的副本，再决定下一步修改。",
		progressPoll: "[loopguard] 你已经查看 {tool} {count} 次。结果仍在变化：如果变化的正是你在等待的进展，这没有问题；" +
			"请确认变化的不是重试、重启或错误的次数。可以考虑拉长每次检查的间隔，或者一次性检查最终结果，而不是跟踪每一步。",
		progressPollStalled: "[loopguard] 你已经查看 {tool} {count} 次，结果一次都没有变化。你等待的东西可能卡住了：" +
			"如果它本不该这么久，请换一种方式查看（它的日志、进程列表、直接测试）或者停止它；如果确实需要这么久，请把检查间隔拉长很多。",
		progressPollIdle: "[loopguard] 你已经连续 {count} 次立即查看 {tool}，结果没有任何变化。马上再查看不会带来新内容：" +
			"请在下一次查看前先等待（sleep 一段时间，或使用会等到有新结果才返回的查看方式），或者先去做别的工作。",
		progressPollSleeps: "[loopguard] 你最近连续 {count} 次调用 {tool} 都只是在 sleep，中间没有查看任何东西。" +
			"sleep 本身不会带来新信息：请查看你在等待的东西（它的输出、状态、进程列表），确认它是否还在运行；如果什么都没有在运行，就不要再等了。",
		progressIdle: "[loopguard] 你最近连续 {count} 次调用 {tool}，运行的都是什么也不做的命令（输出固定文字的 echo、true、" +
			"注释、exit）：它们不会带来任何新信息。如果任务已经完成，请按这个环境要求的方式结束（提交或停止）；" +
			"如果还没有完成，请运行能检查或改变状态的命令。",
		progressMusing: "[loopguard] 你已经连续 {count} 次调用 {tool}，反复想着同一件事（“{preview}”），中间没有做任何别的事。" +
			"再想一遍不会让任务前进：现在就按它行动（调用它指向的工具、回复用户或结束任务）；如果缺少什么，请说明缺的是什么。",
		progressThought: "[loopguard] 你已经把同样的话写了 {count} 次（“{preview}”），而调用没有带回任何新内容。" +
			"你的计划没有向前推进：请总结目前已经了解到的情况，然后选择一个不同的下一步。",
		progressThoughtSweep: "[loopguard] 你已经把同样的话写了 {count} 次（“{preview}”），而调用一直在换地方查看。" +
			"如果你在找某样东西，请直接搜索它（例如用 grep 搜索它的名字），不要一段一段地读下去；" +
			"否则请总结目前已经了解到的情况，然后选择一个不同的下一步。",
		progressReplay: "[loopguard] 你正在把同样的步骤再走一遍：最近的 {count} 个调用（{seq}）就是你在 {period} 个调用之前" +
			"做过的那些，顺序相同，结果相同，每次调用前说的话也相同。照这样继续只会再看到同样的东西。" +
			"请先说出这些步骤第一次告诉了你什么，然后换一种做法。",
		progressRedo: "[loopguard] 你正在把同样的步骤再走一遍：最近的 {count} 个调用（{seq}）就是你在 {period} 个调用之前" +
			"做过的那些，顺序相同，每次调用前说的话也相同。有些结果不一样，但这些步骤都是你已经做过的，其中也包括再次做出的同样修改：" +
			"重复它们不会比第一次告诉你更多。请先说出这些步骤当时告诉了你什么，然后换一种做法。",
		progressUnmovedReworded: "[loopguard] 你在修改之后已经把同一个 {tool} 检查运行了 {count} 次，" +
			"而每次的结果都和修改前完全相同。这些修改没有触及该检查实际运行的代码：请确认改动落在真正被执行的代码上" +
			"（正确的文件、实际被导入或安装的那一份），或者先用别的办法找到原因，再继续修改。",
		progressOtherCopy: "[loopguard] 你修改文件之后，{tool} 已经 {count} 次给出经过 {path} 的回溯：" +
			"这个文件和你修改的文件同名，却在另一个目录里。实际运行的是这一份副本，而不是你正在修改的文件（比如测试环境复制的仓库、" +
			"已安装的包）。请修改这个路径下的文件，或者让代码从你修改的副本运行（以可编辑方式安装、修正导入路径），再继续修改；" +
			"在你自己的目录里检查 __file__ 只会找到你的副本，而不是实际运行的那一份。",
		progressMissing: "[loopguard] 你已经有 {count} 条命令因为 shell 找不到名为 {program} 的命令而失败（“command not found”），" +
			"而此后没有安装过它：它没有安装在这里、不在 PATH 上，或者根本不是一条命令。再次运行它也不会成功：" +
			"请改用这里存在的命令（如果允许，先安装 {program}，或把它所在的目录加入 PATH），或者不用它继续。",
		progressLasting: "[loopguard] 同一个失败已经第 {count} 次出现在你的尝试里，而这些尝试用了 {commands} 条不同的命令：" +
			"“{failure}”。你在这之间做的改动都没有触及它的原因。请先直接查看消息里提到的东西（模块、文件、键、列或设置）：" +
			"它在哪里、是否存在、是怎样被找到的，然后再尝试。",
		progressReread: "[loopguard] 在最近 {calls} 次调用里，你已经把同一内容（{call}）看了 {count} 次，每次显示的文字都完全相同：" +
			"它没有变化，再看一次也不会告诉你任何新东西。请根据已经读到的内容继续，或者去看还没看过的地方（文件的其他部分、" +
			"调用它的代码、你上一条命令的输出）。",
		progressUnmovedSilent: "[loopguard] 你在修改之后已经把同一个 {tool} 脚本运行了 {count} 次，它每次都没有任何输出，" +
			"和修改前一样。你改动的不是这个脚本运行的代码：加在那里的打印语句根本没有被执行到。请先确认脚本实际运行的是哪个文件、" +
			"哪个模块或哪一份代码，或者让它打印出你需要看到的内容，再继续修改。",
		progressUnmoved: "[loopguard] 你在修改之后已经把同一个 {tool} 检查运行了 {count} 次，每次运行前说的话都一样，" +
			"而每次的结果都和修改前完全相同。这些修改没有触及该检查实际运行的代码：请确认改动落在真正被执行的代码上" +
			"（正确的文件、实际被导入或安装的那一份），或者先用别的办法找到原因，再继续修改。",
		progressThoughtIdle: "[loopguard] 你已经把同样的消息写了 {count} 次（“{preview}”），中间没有调用任何工具。" +
			"再说一遍不会让任务前进：如果工作已经完成，请直接结束（使用结束任务的工具），不要重复陈述；" +
			"如果还没有完成，请用工具执行下一个具体步骤。",
		progressResent: "[loopguard] 你最近的 {count} 次回答之后，同一条消息每次都又出现了（{preview}）：你每次都只用文字回答。" +
			"发送它的一方（钩子或运行框架）不会因为解释而满足，再解释一次它还会再来。请用工具调用去做它要求的事，" +
			"或者只说一次、清楚地说明是什么阻碍了你（可能需要用户修复某个钩子或设置），然后不要再回应它。",
		progressSelfRepeat: "[loopguard] 你上一条消息把同样的 {lines} 行连续重复了 {count} 次：输出陷入了循环。" +
			"请停下来，用两三句话说明你已经知道什么、下一步要做的一件事，然后去做。",
		progressSelfRepeatLine: "[loopguard] 你上一条消息把同一行写了 {count} 次，每 {lines} 行一次，只有其间的内容在变：输出陷入了循环。" +
			"请停下来，用两三句话说明你已经知道什么、下一步要做的一件事，然后去做。",
		progressDeny: "loopguard: 同一调用（{tool}，相同参数）已 {count} 次返回相同结果，且此后没有任何改动，因此未再执行。" +
			"请换一组参数或换一种方法，或向用户报告。",
	},
}

func catalogueFor(locale string) *catalogue {
	if c, ok := catalogues[locale]; ok {
		return c
	}
	return catalogues["en"]
}

// fill replaces {name} placeholders; pairs are name, value, name, value... A placeholder
// with no value is left as it is. Hand-rolled rather than strings.Replacer, which costs more
// to build than a notice costs to write.
func fill(template string, pairs ...string) string {
	var b strings.Builder
	b.Grow(len(template) + 64)
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			break
		}
		name := template[open+1 : open+end]
		value, found := "", false
		for i := 0; i+1 < len(pairs); i += 2 {
			if pairs[i] == name {
				value, found = pairs[i+1], true
				break
			}
		}
		b.WriteString(template[:open])
		if found {
			b.WriteString(value)
		} else {
			b.WriteString(template[open : open+end+1])
		}
		template = template[open+end+1:]
	}
	b.WriteString(template)
	return b.String()
}
