package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// p10kPrompt is a two-line powerlevel10k prompt as a terminal capture keeps it under a
// command's output (Cursor's, in a SpecStory export): the git counters, the fill between its
// two sides, the last command's time and the clock move from one run to the next.
func p10kPrompt(i int) string {
	return fmt.Sprintf("╭─\ue0b2 \uf179 \ue0b1 \uf07c  ~/dev/app \ue0b1 \uf126 main ⇡7 !4 ?%d \ue0b4%s\ue0b6 1 ✘ \ue0b3 %ds \ue0b3 22:4%d:41 \uf017  \ue0b0\n╰─",
		2+i, strings.Repeat("·", 20+3*i), 9+i, i)
}

func TestShellPromptLinesAreNotTheAnswer(t *testing.T) {
	tests := []struct{ name, result, want string }{
		{"a two-line powerline prompt under the output goes", "Tests  1 failed\n\n" + p10kPrompt(1), "Tests  1 failed\n\n"},
		{"a one-line prompt with a ❯ after it goes", "done\n\ue0b0 ~/app \ue0b0 main \ue0b0\n❯ ", "done\n"},
		{"an answer with no glyph is left whole", "done\n╰─", "done\n╰─"},
		{"a table's border under the output stays", "| a | b |\n└───┴───┘", "| a | b |\n└───┴───┘"},
		{"a glyph above the output's last line stays", "\ue0b0 prompt\nreal output", "\ue0b0 prompt\nreal output"},
		{"an answer that is nothing but a prompt is left whole", p10kPrompt(2), p10kPrompt(2)},
		{"a private-use character outside the Powerline range is output", "icons \uf179\n\uf07c", "icons \uf179\n\uf07c"},
		{"an answer with no prompt is untouched", "3 passed in 0.02s", "3 passed in 0.02s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutPromptLines(tt.result); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestShellPromptUnderAnAnswerHidesNoRepeat(t *testing.T) {
	// vitest in watch mode, as Cursor's terminal captured it (validation round r185b M1): its
	// timings move, and the code frame's numbers move with the edits of the test file above it.
	// The answer is over a kilobyte, so it is compared line by line, the prompt's line one of
	// its lines.
	frame := strings.Repeat("⎯", 48)
	vitest := func(failing string, i int) string {
		line := 10 - i/4 // an edit of the test file above the failing line moved it up at the third run
		return fmt.Sprintf("❯ npm test\n\n> test\n> vitest\n\n\n DEV  v3.2.4 /Users/dev/projects/focuslab\n\n"+
			" ✓ app/components/Footer.test.tsx (2 tests) %dms\n ❯ app/test/accessibility.test.tsx (1 test | 1 failed) %dms\n"+
			"   × index page should have no accessibility violations %dms\n     → %s\n ✓ app/routes/index.test.tsx (1 test) %dms\n\n"+
			"%s Failed Tests 1 %s\n\n FAIL  app/test/accessibility.test.tsx > index page should have no accessibility violations\nError: %s\n"+
			" ❯ app/test/accessibility.test.tsx:%d:17\n     %2d|   const { container } = render(<Index />);\n     %2d|   const results = await axe(container);\n"+
			"     %2d|   expect(results).toHaveNoViolations();\n       |                 ^\n     %2d| }); \n\n%s[1/1]⎯\n\n\n"+
			" Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 3 passed (4)\n   Start at  23:%02d:00\n"+
			"   Duration  1.%02ds (transform %dms, setup %dms, collect %dms, tests %dms, environment %dms, prepare %dms)\n\n"+
			" FAIL  Tests failed. Watching for file changes...\n       press h to show help, press q to quit\n\n%s",
			20+i, 80+i, 80+i, failing, 70+i, frame, frame, failing, line, line-2, line-1, line, line+1, frame+frame,
			10+i, 20+i, 250+i, 690+i, 960+i, 190+i, 530+i, 210+i, p10kPrompt(i))
	}
	edit := func(i int) step { // SpecStory keeps no answer of Cursor's edits
		return unanswered("edit_file", fmt.Sprintf(`{"target_file":"app/test/setup-%d.ts","code_edit":"import 'x%d'"}`, i, i))
	}
	runProgressCases(t, []progressCase{
		{"a test failing alike after each of four edits, the terminal's prompt under it moving, is a command failing across edits (r185b M1)",
			times(8, func(i int) step {
				if i%2 == 0 {
					return edit(i)
				}
				return ok("run_terminal_cmd", `{"command":"npm test"}`, vitest("Invalid Chai property: toHaveNoViolations", i))
			}), []string{"7:errors:run_terminal_cmd failed × 4"}},
		{"a test failing otherwise after each edit, the same prompt under it, is progress",
			times(8, func(i int) step {
				if i%2 == 0 {
					return edit(i)
				}
				return ok("run_terminal_cmd", `{"command":"npm test"}`, vitest([]string{"Invalid Chai property: toHaveNoViolations",
					"axe is not a function", "Cannot find module 'vitest-axe/matchers'", "expected [ 2 violations ] to be empty"}[i/2], 1))
			}), nil},
	})
}
