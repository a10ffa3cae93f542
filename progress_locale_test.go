package loopguard

import (
	"fmt"
	"testing"
)

// A shell and the C library say their failures in the machine's language: they are failures
// in any of the languages loopguard knows them in.
func TestShellFailuresInOtherLanguagesAreFailures(t *testing.T) {
	for _, text := range []string{
		"/bin/bash:行1: mvn：未找到命令", // a real Codex run (validation round r92b)
		"cat: config.yml: 没有那个文件或目录",
		"bash: mvn: コマンドが見つかりません",
		"ls: 'x' にアクセスできません: そのようなファイルやディレクトリはありません",
		"bash: mvn: Kommando nicht gefunden.",
		"cat: x: Aucun fichier ou dossier de ce type",
		"bash: semanage: no se encontró la orden",
		"bash: python: commande introuvable",
		"bash: mvn: команда не найдена",
		"cat: x: Нет такого файла или каталога",
		// PowerShell translates its message, not its error record's id (validation round r195b G3)
		"python : Имя \"python\" не распознано как имя командлета, функции, файла сценария или выполняемой программы.\r\n" +
			"строка:1 знак:1\r\n+ python --version\r\n+ ~~~~~~\r\n    + CategoryInfo          : ObjectNotFound: (python:String) [], CommandNotFoundException\r\n" +
			"    + FullyQualifiedErrorId : CommandNotFoundException\r\n",
	} {
		if !looksFailed(text) {
			t.Errorf("looksFailed(%q) = false, want a failure", text)
		}
	}
	if looksFailed("构建成功：所有测试均已通过") {
		t.Error("a success said in Chinese reads as a failure")
	}
}

// Four ways of running a build tool that is not installed, each answered by a Chinese-locale
// bash, are one failure repeated (r92b: with the English message they were told, in Chinese
// they were not).
func TestCommandNotFoundInChineseIsToldAsAnErrorRepeated(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	e, _ := New(cfg)
	var got []string
	for i, cmd := range []string{"mvn test -q", "mvn -q test", "mvn test", "mvn -B test"} {
		ev := Call("a", "exec_command", []byte(fmt.Sprintf(`{"cmd":%q}`, cmd))).WithResult("/bin/bash:行1: mvn：未找到命令\n", false)
		for _, n := range e.Observe(ev) {
			got = append(got, fmt.Sprintf("%d:%s", i, n.Kind))
		}
	}
	if len(got) != 1 || got[0] != "3:errors" {
		t.Errorf("notices %q, want the fourth told as errors", got)
	}
}

// Replies the harness answered for their form are told as replies, in every language: no call
// ran, and there are no arguments to change (validation round r193b).
func TestRepliesRefusedForTheirFormAreToldAsReplies(t *testing.T) {
	for _, locale := range Locales() {
		cfg := defaultProgress(nil)
		cfg.Locale = locale
		e, _ := New(cfg)
		var got []Notice
		for range 3 {
			ev := Call("a", "(no action)", nil).WithResult("Please always provide EXACTLY ONE action in triple backticks.", false)
			ev.Source = SourceHarness
			got = append(got, e.Observe(ev)...)
		}
		want := fill(catalogues[locale].progressStuckReplies, "tool", "(no action)", "count", "3")
		if len(got) != 1 || got[0].Text != want {
			t.Errorf("%s: notices %+v, want one saying %q", locale, got, want)
		}
	}
}
