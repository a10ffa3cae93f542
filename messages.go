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
