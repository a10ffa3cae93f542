package scan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/testenv"
	"github.com/loopguard/loopguard/internal/transcript"
)

// readTranscript decompresses gzip itself; everything else must be as transcript.Read.
func TestReadTranscriptAgreesWithTranscriptRead(t *testing.T) {
	body := events(strings.Repeat("probe a b ", 300))
	z := testenv.Gzip(t, []byte(body))
	badSum := bytes.Clone(z)
	badSum[len(badSum)-6] ^= 0xff // the CRC-32 in the trailer
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"plain", []byte(body), ""},
		{"gzip", z, ""},
		{"two gzip members", append(testenv.Gzip(t, []byte(events("a b"))), testenv.Gzip(t, []byte(events("c d")))...), ""},
		{"truncated in the stream", z[:len(z)/2], "unexpected end of data"},
		{"truncated in the trailer", z[:len(z)-3], "unexpected"},
		{"truncated in the header", z[:5], "gzip: unexpected end of data"},
		{"bad checksum", badSum, "checksum"},
		{"gzip of nothing", testenv.Gzip(t, []byte("")), "empty file"},
		{"gzip of binary", testenv.Gzip(t, []byte("\x00\x01\x02 binary")), "binary content"},
		{"gzip of a broken line", testenv.Gzip(t, []byte(events("a b")+"{\n")), "run.jsonl.gz:3:"},
		{"magic only", []byte{0x1f, 0x8b}, "gzip: unexpected end of data"},
		{"empty", nil, "empty file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "run.jsonl.gz", string(tt.data))
			got, gotErr := readTranscript(p)
			want, wantErr := transcript.Read(p)
			if tt.wantErr == "" {
				if gotErr != nil || wantErr != nil {
					t.Fatalf("errors: %v / %v", gotErr, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the transcripts differ")
				}
				return
			}
			if gotErr == nil || !strings.Contains(gotErr.Error(), tt.wantErr) || !strings.HasPrefix(gotErr.Error(), p) {
				t.Errorf("error %v, want the path and %q (transcript.Read: %v)", gotErr, tt.wantErr, wantErr)
			}
			if wantErr == nil {
				t.Errorf("transcript.Read accepts what readTranscript refuses")
			}
		})
	}
}

func TestReadTranscriptOnTheSharedSet(t *testing.T) {
	r, _ := sharedReport(t)
	for i := 0; i < len(r.Files); i += 7 {
		p := r.Files[i].Path
		got, gotErr := readTranscript(p)
		want, wantErr := transcript.Read(p)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: readTranscript and transcript.Read disagree (%v, %v)", p, gotErr, wantErr)
		}
	}
}
