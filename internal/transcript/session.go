package transcript

import (
	"path/filepath"
	"sort"
	"strings"
)

// ReadSession reads a Claude Code session with its subagents: the main file
// (<project>/<session>.jsonl, possibly gzip-compressed) and every
// <project>/<session>/subagents/agent-*.jsonl[.gz] next to it. The subagents' agents follow the
// main file's, in file-name order; Usage covers them all.
//
// A scan that walks directories gets the same agents by reading each file with Read; this is a
// convenience for callers that start from one session.
func ReadSession(mainPath string) (*Transcript, error) {
	t, err := Read(mainPath)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(strings.TrimSuffix(mainPath, ".gz"), ".jsonl")
	dir := filepath.Join(base, "subagents")
	var files []string
	for _, pat := range []string{"agent-*.jsonl", "agent-*.jsonl.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	for _, f := range files {
		st, err := Read(f)
		if err != nil {
			return nil, err
		}
		for _, a := range st.Agents {
			if t.Agent(a.ID) != nil {
				// Already there (a sidechain also present in the main file): keep the first.
				continue
			}
			t.Agents = append(t.Agents, a)
			t.Usage.add(a.Usage)
		}
	}
	return t, nil
}
