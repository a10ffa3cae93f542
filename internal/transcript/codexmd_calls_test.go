package transcript

import "testing"

const codexMDHead = "# Codex Conversation Export\n\n## Metadata\n\n- Thread ID: t1\n- Model: gpt-5.4\n\n## Transcript\n\n### Turn 1: fix it\n\n#### 👤 User Prompt\n\n- Time: 2026-04-20T00:28:24.659Z\n\n```text\nfix the test\n```\n\n#### 🤖 gpt-5.4 (medium)\n\n- Time: 2026-04-20T00:28:34.490Z\n\nChecking first.\n\n"

func TestCodexMarkdownReadsCallsResultsAndPolls(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"shell call and its output", "#### Tool: exec_command\n\n```sh\nnpm test\n```\n\nOutput:\n\n```text\nok\n```\n",
			[]string{`call exec_command "{\"cmd\":\"npm test\"}" => "ok"`}},
		{"nonzero exit in the output's header fails", "#### Tool: exec_command\n\n```sh\nnpm test\n```\n\nOutput:\n\n```text\nChunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\nFAIL\n```\n",
			[]string{`call exec_command "{\"cmd\":\"npm test\"}" => "Chunk ID: a\nWall time: 0.1 secon…" FAILED`}},
		{"an exit code quoted in a log is not the call's", "#### Tool: exec_command\n\n```sh\ngh run view\n```\n\nOutput:\n\n```text\nstep 1\nProcess exited with code 1\n```\n",
			[]string{`call exec_command "{\"cmd\":\"gh run view\"}" => "step 1\nProcess exited with code …"`}},
		{"a poll keeps its empty chars", "#### Tool: write_stdin\n\n```json\n{\n  \"session_id\": 5,\n  \"chars\": \"\"\n}\n```\n\nOutput:\n\n```text\nProcess running with session ID 5\n```\n",
			[]string{`call write_stdin "{\"session_id\":5,\"chars\":\"\"}" => "Process running with session ID …"`}},
		{"a plan is kept as written", "#### Tool: update_plan\n\n- Plan:\n  - [pending] test\n\nOutput:\n\n```text\nPlan updated\n```\n",
			[]string{`call update_plan "{\"input\":\"- Plan:\\n  - [pending]…" => "Plan updated"`}},
		{"a call with no output has no result", "#### Tool: spawn_agent\n\n```json\n{\"task\": \"x\"}\n```\n",
			[]string{`call spawn_agent "{\"task\":\"x\"}" => -`}},
		{"a heading inside an output stays in it", "#### Tool: exec_command\n\n```sh\ncat a.md\n```\n\nOutput:\n\n````text\n#### Tool: fake\n```\nx\n```\n````\n\n#### 🤖 gpt-5.4 (medium)\n\nDone.\n",
			[]string{`call exec_command "{\"cmd\":\"cat a.md\"}" => "#### Tool: fake\n` + "```" + `\nx\n` + "```" + `"`, `text[model] "Done."`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := append([]string{`user "fix the test"`, `text[model] "Checking first."`}, c.want...)
			tr := expectEvents(t, "s.md", codexMDHead+c.doc, FormatCodexMarkdown, want)
			if tr.Agents[0].Usage.Model != "gpt-5.4" {
				t.Errorf("model %q", tr.Agents[0].Usage.Model)
			}
		})
	}
}

func TestCodexMarkdownTitleAloneIsNotEnough(t *testing.T) {
	doc := "# Codex Conversation Export\n" + string(make([]byte, 0)) + "notes about exporting codex conversations\n"
	for len(doc) < 5000 {
		doc += "more notes, no entries\n"
	}
	if s := sniff([]byte(doc), false); s.kind == kindCodexMarkdown {
		t.Error("a long note with the title but no entry headings was read as an export")
	}
}

// Codex's own word that a command did not run through fails the call in the export too, which
// keeps no exit code for it (validation round r138a U1).
func TestCodexFailedReadsCodexsOwnVerdicts(t *testing.T) {
	for _, tt := range []struct {
		result string
		want   bool
	}{
		{"exec_command failed for `npm test`: CreateProcess { message: \"Rejected\" }", true},
		{"write_stdin failed: stdin is closed for this session", true},
		{"Chunk ID: 9c1e\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:\nFAIL", true},
		{"Chunk ID: 9c1e\nWall time: 0.2 seconds\nProcess exited with code 0\nOutput:\nok", false},
		{"the log says exec_command failed for x", false},
	} {
		if got := codexFailed(tt.result); got != tt.want {
			t.Errorf("codexFailed(%q) = %v, want %v", tt.result, got, tt.want)
		}
	}
}
