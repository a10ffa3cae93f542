package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// SWE-agent's line-range edit is known by the block it writes and the line it starts at: the
// same block pasted again from the same line, whatever the range's end, is the same change
// made again while the answer shows the same place of the file (validation rounds r243a,
// r246a, r246b). The same block at other lines, a short line, or an editor's same new text
// over other old text (which changed the file each time) is no such repeat.
func TestTheSameBlockWrittenAgainIsTheSameChange(t *testing.T) {
	const block = `  public TreeTypeAdapter(JsonSerializer<T> serializer, boolean nullSafe) {\n    this.serializer = serializer;\n    this.nullSafe = nullSafe;\n  }`
	// The file as the editor shows it after the edit, around line at: each run of the block
	// leaves one more stray brace, so no two answers are the same.
	const fix = `        value = self._convert(value, strict=True)  # keep the sign`
	window := func(at, total int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "[File: /w/gson/TreeTypeAdapter.java (%d lines total)]\n", total)
		words := []string{"serializer", "deserializer", "gson", "typeToken", "skipPast", "context", "delegate", "nullSafe", "write", "read", "adapter", "factory"}
		for l := at; l < at+12; l++ {
			fmt.Fprintf(&b, "%d:    this.%s = %s.%s();\n", l, words[l%12], words[(l/12)%12], words[(l/7)%12])
		}
		for l := at + 12; l < at+12+total-172; l++ {
			fmt.Fprintf(&b, "%d:  }\n", l)
		}
		return b.String()
	}
	sweEdit := func(from, to int, text string, answer string) Event {
		return Call("a", "edit", []byte(fmt.Sprintf("edit %d:%d\n%s\nend_of_edit", from, to, strings.ReplaceAll(text, `\n`, "\n")))).WithResult(answer, false)
	}
	strReplace := func(old, newText, answer string) Event {
		return Call("a", "str_replace_editor", []byte(fmt.Sprintf(`{"command":"str_replace","path":"/w/wcs/sliced_wcs.py","old_str":%q,"new_str":"%s"}`, old, newText))).WithResult(answer, false)
	}
	snippet := "The file /w/wcs/sliced_wcs.py has been edited. Here's the result of running `cat -n` on a snippet of /w/wcs/sliced_wcs.py:\n   242\t    world_arrays = world_arrays[0]\n   243\t\n   244\t    return world_arrays\n   245\t\n   246\tdef world_to_pixel_values(self, *world_arrays):\n"
	tests := []struct {
		name string
		evs  []Event
		want string // the first notice's summary, "" for none
	}{
		{"the same block over lines that shift, the same window shown", []Event{
			sweEdit(52, 52, block, window(45, 173)),
			sweEdit(52, 60, block, window(45, 174)),
			sweEdit(52, 59, block, window(45, 175)),
		}, "edit × 3"},
		{"the same block at places far apart: a batch", []Event{
			sweEdit(52, 52, block, window(45, 173)),
			sweEdit(120, 120, block, window(113, 177)),
			sweEdit(200, 200, block, window(193, 181)),
		}, ""},
		{"the same fix made at nearby lines on purpose, the windows overlapping: a batch", []Event{
			sweEdit(77, 77, fix, window(45, 173)),
			sweEdit(81, 81, fix, window(45, 174)),
			sweEdit(85, 85, fix, window(45, 175)),
		}, ""},
		{"a short line written over lines that shift: known by its call", []Event{
			sweEdit(52, 52, "  }", window(45, 173)),
			sweEdit(52, 53, "  }", window(45, 174)),
			sweEdit(52, 54, "  }", window(45, 175)),
		}, ""},
		{"an editor's same new text over other old text: each replacement changed the file", []Event{
			strReplace("def world_to_pixel_values(self, *a):", block, snippet),
			strReplace("def world_to_pixel_values(self, *b):", block, snippet),
			strReplace("def world_to_pixel_values(self, *c):", block, snippet),
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			liveAndRestored(t, defaultProgress(nil), func(observe func(Event) []Notice, restored bool) {
				got := ""
				for _, ev := range tt.evs {
					for _, n := range observe(ev) {
						if got == "" {
							got = n.Summary
						}
					}
				}
				if got != tt.want {
					t.Errorf("restored %v: first notice %q, want %q", restored, got, tt.want)
				}
			})
		})
	}
}
