package transcript

import (
	"bufio"
	"io"
	"regexp"
	"strings"
	"time"
)

// Logging libraries (Python's logging, loguru) write a record's first line under a prefix of
// its own (a time, a level, a logger) and its further lines as they are. The readers of such
// logs (AutoGPT's, OpenManus's, ChatDev's) read them record by record.

// eachLogRecord calls emit for each record of a log: the submatches of record, the pattern of a
// record's first line, and the lines under it up to the next record. Lines before the first
// record are passed over. more is reused between calls.
func eachLogRecord(name string, br *bufio.Reader, record *regexp.Regexp, emit func(m, more []string)) error {
	data, err := io.ReadAll(br)
	if err != nil {
		return &Error{Path: name, Err: readErr(err)}
	}
	var head, more []string
	for line := range strings.SplitSeq(string(lfLines(data)), "\n") {
		if m := record.FindStringSubmatch(line); m != nil {
			if head != nil {
				emit(head, more)
			}
			head, more = m, more[:0]
			continue
		}
		if head != nil {
			more = append(more, line)
		}
	}
	if head != nil {
		emit(head, more)
	}
	return nil
}

// layoutMillis reads a time written in layout, a log's local time without a zone, as Unix
// milliseconds read as UTC (the rules need the spans between a run's events, which one zone
// keeps); 0 when s is not in layout.
func layoutMillis(layout, s string) int64 {
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
