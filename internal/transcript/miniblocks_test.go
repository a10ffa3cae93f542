package transcript

import (
	"reflect"
	"testing"
)

// FuzzMiniBlocks checks miniDefaultBlocks against the regexp it stands for.
func FuzzMiniBlocks(f *testing.F) {
	for _, s := range []string{
		"", "```bash\nls\n```", "THOUGHT: x\n\n```bash\nls -la\n```\n", "```bash ls\n```",
		"```bash\n```", "```bash\n\n```", "```bash \n \n```", "```bash\n```\n```",
		"```bash\nfoo\n```bash\nbar\n```", "a```bash\nx\n``` b ```bash\n\ny\n```",
		"```bash\nunclosed", "```bash```bash\nx\n```", "```bash\t\r\f\n\x0b\nx\n```",
		"```bash\n\xff\n```", "```bash\n```bash\n```\n```",
	} {
		f.Add(s)
	}
	re := miniDefaultRegexp()
	f.Fuzz(func(t *testing.T, text string) {
		want := re.FindAllStringSubmatchIndex(text, -1)
		got := miniDefaultBlocks(text)
		if len(want) == 0 && len(got) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v, the regexp finds %v", text, got, want)
		}
	})
}

// TestMiniBlocksPieces checks miniDefaultBlocks against the regexp on every text of up to six
// pieces that matter to it, where the fuzzer would rarely put them together.
func TestMiniBlocksPieces(t *testing.T) {
	pieces := []string{"```bash", "```", "\n", " ", "\t", "x", "\n```"}
	re := miniDefaultRegexp()
	var try func(text string, n int)
	try = func(text string, n int) {
		want := re.FindAllStringSubmatchIndex(text, -1)
		if got := miniDefaultBlocks(text); (len(want) > 0 || len(got) > 0) && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v, the regexp finds %v", text, got, want)
		}
		if n == 0 {
			return
		}
		for _, p := range pieces {
			try(text+p, n-1)
		}
	}
	try("", 6)
}
