package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A harness that runs a headless CLI often logs each record the CLI prints among its own lines,
// behind its log's prefix, a pretty-printed record running on over the lines after it:
//
//	[2025-11-05T05:28:05.809Z] [INFO] 📁 Log file: /home/hive/solve.log
//	[2025-11-05T05:28:05.809Z] [INFO] {
//	  "type": "system",
//	  "subtype": "init",
//	  ...
//	}
//
// Such a log is read as the records it carries, one a line, by the reader of their format (a
// stream format only: claude-code's stream-json, codex-exec, gemini-stream, ...). A record is
// a JSON object that starts a line or follows a prefix without quotes or braces (a time, a
// level); one whose line ends at its opening brace runs to the first line that is a closing
// brace alone. The harness's own lines are passed over. Validation round r80c U1: an issue
// solver's published logs of `claude -p --output-format stream-json`, 593 calls in 11 runs,
// were "not a transcript".

// maxLogPrefix is how long a log line's prefix before a record may be: a time and a level,
// a logger's name.
const maxLogPrefix = 120

// maxHeadRecords is how many records of a log's head are tried for a stream format: a server's
// own events may come first (opencode's "log" and bus events before its run's).
const maxHeadRecords = 64

// loggedRecordsHead says whether the head of a text file holds, behind log prefixes, records
// of a stream format: the first few objects found are tried until one is.
func loggedRecordsHead(head []byte) bool {
	tried := 0
	found := false
	eachLoggedRecord(head, nil, func(rec []byte) bool {
		tried++
		if s := sniff(rec, true); s.err == nil && isStreamKind(s.kind) {
			found = true
			return false
		}
		return tried < maxHeadRecords
	})
	return found
}

// maxLoggedRecord bounds how far a record whose line ends at its opening brace is followed for
// its closing one: a brace that opens no record (words ending in "{") costs at most that much.
const maxLoggedRecord = 4 << 20

// eachLoggedRecord calls fn with each record of a log, compacted to one line, until fn says to
// stop. A record cut off by the end of text (the head of a big file) is not given. A record
// that runs over lines from a line that is "{" alone to one that is "}" alone but is no JSON
// (a CI log cuts every line at 1,024 characters, and a result's string never closes) is given
// to damaged, if not nil, by the line it starts on (counted from 1), when its next line opens
// with a quoted key as a JSON object's does and no Markdown fence opens it (afterFence),
// rather than passed over in silence as braces in a line of text are (validation round r118a
// U1).
func eachLoggedRecord(text []byte, damaged func(line int), fn func(rec []byte) bool) {
	var buf bytes.Buffer
	whole := text
	for len(text) > 0 {
		start := len(whole) - len(text)
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		open := recordStart(line)
		if open < 0 {
			continue
		}
		rec := bytes.TrimRight(line[open:], " \t\r")
		after := text  // where to go on when the lines below are no record
		spans := false // the record runs over lines between braces alone: it is a record
		if len(rec) == 1 && open > 0 && len(text) > open && samePrefixShape(text[:open], line[:open]) && holdsClockTime(text[:open]) {
			// "{" ends the line and the next line has the same prefix: the harness logged the
			// record's every line behind it, to a line that is "}" alone after it.
			joined, rest, ok := prefixedLines(line[:open], text)
			if !ok {
				continue
			}
			rec, text, spans = joined, rest, true
		} else if len(rec) == 1 {
			// "{" ends the line: the record runs to a line that is "}" alone.
			end := -1
			for k := 0; k < min(len(text), maxLoggedRecord); {
				l, _, _ := bytes.Cut(text[k:], []byte("\n"))
				if t := bytes.TrimRight(l, " \t\r"); len(t) == 1 && t[0] == '}' {
					end = k + len(l)
					break
				}
				k += len(l) + 1
			}
			if end < 0 {
				continue
			}
			rec = append(append([]byte(nil), '{', '\n'), text[:end]...)
			text = text[min(end+1, len(text)):]
			spans = true
		} else if open > 0 && !json.Valid(rec) {
			// A record the harness wrote in chunks, each behind a prefix of its own, goes on
			// on the lines after it (validation round r82b U1: an issue solver split every
			// long line so, and 106 results and 4 calls were lost).
			if joined, rest, ok := joinChunks(bytes.TrimRight(line[open:], "\r"), line[:open], text); ok {
				rec, text = joined, rest
			}
		}
		buf.Reset()
		if json.Compact(&buf, rec) != nil {
			if spans && damaged != nil && opensWithKey(rec) && !afterFence(whole[:start]) {
				damaged(1 + bytes.Count(whole[:start], []byte("\n")))
			}
			text = after // braces in a line of text, not a record
			continue
		}
		if !fn(envelopedRecord(buf.Bytes())) {
			return
		}
	}
}

// opensWithKey says whether the line after a record's opening brace opens with a quoted key,
// as a pretty-printed JSON object's does (code's block after "func f() {" does not).
func opensWithKey(rec []byte) bool {
	_, rest, _ := bytes.Cut(rec, []byte("\n"))
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && rest[0] == '"'
}

// afterFence says whether the last line of before opens a Markdown code block ("```json"): a
// record shown in a document (a prompt's template of the answer it asks for, `...` in its
// list) is an example, not a record the log carries.
func afterFence(before []byte) bool {
	before = bytes.TrimRight(before, "\r\n")
	last := bytes.TrimSpace(before[bytes.LastIndexByte(before, '\n')+1:])
	return bytes.HasPrefix(last, []byte("```"))
}

// envelopedRecord returns the record a logged line wraps as its "data" object, when the line
// is an envelope of the harness's own (no "type" of its own: {"log_type": "stream_output",
// "timestamp_iso": ..., "data": {"type": "item.completed", ...}}), else rec itself. A harness
// that logs each line `codex exec --json` printed so had six runs read as no transcript
// (validation round r94b U1).
func envelopedRecord(rec []byte) []byte {
	top := scanTopObject(rec)
	if _, typed := top.keys["type"]; typed || !top.complete {
		return rec
	}
	if _, ok := top.keys["data"]; !ok {
		return rec
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(rec, &env) != nil || len(env.Data) == 0 || env.Data[0] != '{' {
		return rec
	}
	return env.Data
}

// prefixedLines gathers a pretty-printed record whose lines all stand behind prefixes of the
// shape of the first one's, up to the line that is "}" alone after its prefix.
func prefixedLines(prefix, text []byte) (rec, rest []byte, ok bool) {
	rec = append([]byte(nil), '{', '\n')
	for n := 0; len(text) > 0 && len(rec) < maxLoggedRecord; n++ {
		l, after, _ := bytes.Cut(text, []byte("\n"))
		if len(l) < len(prefix) || !samePrefixShape(l[:len(prefix)], prefix) {
			return nil, nil, false
		}
		body := bytes.TrimRight(l[len(prefix):], "\r")
		rec = append(append(rec, body...), '\n')
		text = after
		if t := bytes.TrimRight(body, " \t"); len(t) == 1 && t[0] == '}' {
			return rec, text, true
		}
	}
	return nil, nil, false
}

// maxRecordChunks bounds how many prefixed lines one record written in chunks may run over.
const maxRecordChunks = 256

// joinChunks joins to a record's first chunk the chunks on the lines after it: lines whose
// prefix has the shape of the first one's (the same bytes but for the digits of its time),
// their text after it appended as written, until the record is whole JSON. It answers the
// record and the text after its last chunk; ok is false when no run of chunks makes it whole.
func joinChunks(first, prefix, text []byte) (rec, rest []byte, ok bool) {
	joined := append([]byte(nil), first...)
	for n := 0; n < maxRecordChunks && len(text) > 0 && len(joined) < maxLoggedRecord; n++ {
		l, after, _ := bytes.Cut(text, []byte("\n"))
		if len(l) < len(prefix) || !samePrefixShape(l[:len(prefix)], prefix) {
			return nil, nil, false
		}
		joined = append(joined, bytes.TrimRight(l[len(prefix):], "\r")...)
		text = after
		if json.Valid(joined) {
			return joined, text, true
		}
	}
	return nil, nil, false
}

// samePrefixShape says whether two log prefixes are alike but for their digits (the time).
func samePrefixShape(a, b []byte) bool {
	for i := range a {
		if a[i] != b[i] && !(isDigit(a[i]) && isDigit(b[i])) {
			return false
		}
	}
	return true
}

// recordStart is where a record starts in a log line: its first '{', at the line's start or
// after a log's prefix of at most maxLogPrefix bytes that holds a time of day and no quote or
// brace ("[2025-11-05T05:28:05.809Z] [INFO] "); -1 when the line holds none. The time tells a
// log from a tool's output that quotes a transcript's lines ("479:{...}", grep's line numbers
// before a session's lines: those lines are read from the session itself).
func recordStart(line []byte) int {
	open := bytes.IndexByte(line[:min(len(line), maxLogPrefix+1)], '{')
	if open < 0 || open > 0 && (bytes.ContainsAny(line[:open], "\"'}") || !holdsClockTime(line[:open])) {
		return -1
	}
	return open
}

// holdsClockTime says whether p holds a time of day, two digits, ':', two digits.
func holdsClockTime(p []byte) bool {
	for i := 0; i+5 <= len(p); i++ {
		if p[i+2] == ':' && isDigit(p[i]) && isDigit(p[i+1]) && isDigit(p[i+3]) && isDigit(p[i+4]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// readLoggedRecords reads a log by the records it carries (see loggedRecordsHead).
func readLoggedRecords(name string, br *bufio.Reader, hint int64) (*Transcript, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	// The records from the first of a stream format on: records of no format before it (a
	// server's log events) would stop its reader from being chosen.
	var lines bytes.Buffer
	started := false
	var damaged []*Error
	eachLoggedRecord(data, func(line int) {
		damaged = append(damaged, &Error{Path: name, Line: line, Err: errors.New("a record over several lines that is not JSON (cut short?)")})
	}, func(rec []byte) bool {
		if !started {
			if s := sniff(rec, true); s.err != nil || !isStreamKind(s.kind) {
				return true
			}
			started = true
		}
		lines.Write(rec)
		lines.WriteByte('\n')
		return true
	})
	s := sniff(lines.Bytes(), true)
	if s.err != nil || !isStreamKind(s.kind) {
		return nil, &Error{Path: name, Line: 1, Err: ErrUnknownFormat}
	}
	t, err := readPlain(name, bufio.NewReaderSize(bytes.NewReader(lines.Bytes()), sniffSize), int64(lines.Len()))
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) && e.Line > 0 {
			// A line of the records is no line of the log: say which record it was.
			e.Err = fmt.Errorf("record %d of those the log carries: %w", e.Line, e.Err)
			e.Line = 0
		}
		return nil, err
	}
	if len(damaged) > 0 {
		t.Damaged = append(damaged, t.Damaged...)
	}
	return t, nil
}
