package scan

import (
	"errors"
	"slices"
	"testing"

	"github.com/loopguard/loopguard/internal/transcript"
)

func TestDamagedLinesAreNamedOnceARun(t *testing.T) {
	notObject := errors.New("invalid JSON line: not an object")
	cutShort := errors.New("invalid JSON line: unexpected end of JSON input")
	at := func(path string, line int, err error) *transcript.Error {
		return &transcript.Error{Path: path, Line: line, Err: err}
	}
	tests := []struct {
		name    string
		damaged []*transcript.Error
		want    []string
	}{
		{"none", nil, nil},
		{"a single line keeps its own name",
			[]*transcript.Error{at("a.jsonl", 7, cutShort)},
			[]string{"a.jsonl:7: invalid JSON line: unexpected end of JSON input"}},
		{"a stack trace printed into the stream is one run",
			[]*transcript.Error{at("s.txt", 81, notObject), at("s.txt", 82, notObject), at("s.txt", 83, notObject)},
			[]string{"s.txt:81-83: invalid JSON line: not an object (3 lines)"}},
		{"a gap ends the run",
			[]*transcript.Error{at("s.txt", 4, notObject), at("s.txt", 5, notObject), at("s.txt", 9, notObject)},
			[]string{"s.txt:4-5: invalid JSON line: not an object (2 lines)", "s.txt:9: invalid JSON line: not an object"}},
		{"another problem ends the run",
			[]*transcript.Error{at("s.txt", 4, notObject), at("s.txt", 5, cutShort)},
			[]string{"s.txt:4: invalid JSON line: not an object", "s.txt:5: invalid JSON line: unexpected end of JSON input"}},
		{"another file ends the run",
			[]*transcript.Error{at("a.jsonl", 4, notObject), at("b.jsonl", 5, notObject)},
			[]string{"a.jsonl:4: invalid JSON line: not an object", "b.jsonl:5: invalid JSON line: not an object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := damagedRuns(tt.damaged); !slices.Equal(got, tt.want) {
				t.Errorf("damagedRuns = %q, want %q", got, tt.want)
			}
		})
	}
}
