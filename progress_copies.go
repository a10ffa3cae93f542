package loopguard

import (
	"bytes"
	"strings"
)

// The other copy: a model editing one copy of a file while the code that runs is another.
// SWE-bench harnesses copy the repository to /workspace/<name> for OpenHands agents while the
// environment imports it from /testbed: an agent editing
// /workspace/sympy__sympy__1.5/sympy/geometry/point.py and running its script after each edit
// met a traceback through /testbed/sympy/geometry/point.py, line 217, however it changed that
// function. A package installed other than in place (site-packages) does the same. The
// check's answer may still move (the model edits its own script between runs), so the rules
// that compare answers miss it: in 500 OpenHands runs of Claude 3.5 Sonnet, 29 named another
// copy of an edited file in two tracebacks or more after edits, and 11 of those got no notice
// (validation round r217b M1, M3). The traceback says it outright.

// maxEdited is how many of the files the latest changes wrote are remembered.
const maxEdited = 4

// editedFile is one file a change wrote, by hashes of its path: the whole path, and its last
// two parts (three when its name is one many packages have, as __init__.py).
type editedFile struct {
	path, tail uint32
	epoch      uint32 // the workspace its latest change made
	hitEpoch   uint32 // the workspace at the latest run that named another copy of it
	hits       uint8  // such runs, each after a change of it
}

// noteEdited remembers the file a change's arguments name by an absolute path (an editor's
// path, file_path, ...): the last maxEdited files, the least recently changed forgotten.
func (s *progressState) noteEdited(args []byte) {
	path := editedPath(args)
	if path == "" {
		return
	}
	tail, ok := copyTail(path)
	if !ok {
		return
	}
	h := uint32(hashString(path)) | 1 // (0 is a free slot)
	slot := slotFor(s.edited[:], h, func(e *editedFile) (uint32, uint32) { return e.path, e.epoch })
	if s.edited[slot].path != h {
		s.edited[slot] = editedFile{path: h, tail: tail}
	}
	s.edited[slot].epoch = s.epoch
}

// editedPath is the absolute path an editor's JSON arguments name (editPathArg), as written,
// or "".
func editedPath(args []byte) string {
	if p := editPathArg(args); p != nil && p[0] == '/' && bytes.IndexByte(p, '\\') < 0 {
		return string(p)
	}
	return ""
}

// genericNames are file and folder names many packages share: a path ending in one (a file
// so named, or a file in a folder so named: utils/io.py) is known by its last three parts,
// not two.
var genericNames = [...]string{"__init__.py", "__main__.py", "conftest.py", "setup.py", "main.py", "utils.py", "base.py", "index.js", "index.ts",
	"utils", "util", "core", "common", "lib", "src", "tests", "test", "helpers", "internal"}

// copyTail hashes the last two parts of a path (three for a generic name); false when the
// path has fewer.
func copyTail(path string) (uint32, bool) {
	parts := 2
	last := strings.LastIndexByte(path, '/')
	name, dir := path[last+1:], path[strings.LastIndexByte(path[:max(last, 0)], '/')+1:max(last, 0)]
	for _, g := range genericNames {
		if name == g || dir == g {
			parts = 3
		}
	}
	i := len(path)
	for range parts {
		j := strings.LastIndexByte(path[:i], '/')
		if j <= 0 {
			return 0, false
		}
		i = j
	}
	return uint32(hashString(path[i+1:])), true
}

// maxTraceFrames bounds the frames of one result noteOtherCopy reads.
const maxTraceFrames = 64

// traceFrame opens a frame of a Python traceback that names its file by an absolute path.
const traceFrame = `File "/`

// noteOtherCopy reads the frames of a Python traceback in a result (`File "<path>", line N`)
// for another copy of an edited file: a path whose last parts are the edited file's, the whole
// path that of no edited file (when the copy that runs was edited too, the edits reach it).
// It counts the run for that file when the file was changed since the last run counted, and
// returns the file when it did (else nil), and the path of the copy that ran.
func (s *progressState) noteOtherCopy(result string) (*editedFile, string) {
	if s.edited[0].path == 0 {
		return nil, "" // nothing edited (most calls)
	}
	rest := result
	for range maxTraceFrames {
		i := strings.Index(rest, traceFrame)
		if i < 0 {
			return nil, "" // (no traceback through an absolute path: most answers, one look)
		}
		rest = rest[i+len(traceFrame)-1:]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return nil, ""
		}
		path := rest[:end]
		rest = rest[end:]
		tail, ok := copyTail(path)
		if !ok {
			continue
		}
		h := uint32(hashString(path)) | 1
		var match *editedFile
		for i := range s.edited {
			e := &s.edited[i]
			if e.path == h {
				match = nil // the copy that runs was edited too
				break
			}
			if e.path != 0 && e.tail == tail && match == nil {
				match = e
			}
		}
		if match == nil || match.epoch <= match.hitEpoch {
			continue
		}
		match.hits = min(match.hits+1, 255)
		match.hitEpoch = s.epoch
		return match, path
	}
	return nil, ""
}

// maxCopyPath bounds the path of the copy that ran that a notice names.
const maxCopyPath = 200

// otherCopyCheck tells the second run whose traceback named another copy of an edited file,
// each after a change of it: the model edited, ran, and the code that ran was not the code it
// edited, twice. Told before any other notice due at the run: it says what the others
// cannot, where the code that runs is (validation round r218a judged 20 of 20 true, one of
// them twelve calls after an errors notice on the same runs). Told again each time the count
// doubles while the edits go on reaching nothing: in round r219b's blind labelling, an agent
// told once went on for 19 calls of the same loop, a stretch of three calls made again word
// for word among them.
func (s *progressState) otherCopyCheck(c *observedCall, e *editedFile, path string, out []Notice) []Notice {
	if e.hits < 2 || e.hits&(e.hits-1) != 0 {
		return out // (told at 2, 4, 8, ... runs)
	}
	if len(path) > maxCopyPath {
		path = "…" + path[len(path)-maxCopyPath:]
	}
	return append(out, s.notice(c.agent, KindThought, c.tool+" runs another copy of an edited file × "+itoa(int(e.hits)),
		fill(s.d.cat.progressOtherCopy, "tool", c.tool, "count", itoa(int(e.hits)), "path", path)))
}

// slotFor returns the slot of a small table that holds key h (keyRank gives an entry's key,
// 0 for a free slot, and its rank), or else the slot to put it in: the first of least rank (a
// free slot ranks 0). The tables of edited files and of missing programs are a few entries
// each, looked up only on the calls that touch them.
func slotFor[T any](table []T, h uint32, keyRank func(*T) (key, rank uint32)) int {
	slot, least := 0, ^uint32(0)
	for i := range table {
		key, rank := keyRank(&table[i])
		if key == h {
			return i
		}
		if rank < least {
			slot, least = i, rank
		}
	}
	return slot
}
