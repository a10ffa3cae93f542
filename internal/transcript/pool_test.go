package transcript

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Documents are read into reused buffers (documentBuffers). A transcript that kept a pointer
// into its buffer would change when the next file is read into it: every test file is read
// in turn, all transcripts kept, and each must equal a read of its file with reuse off.
func TestReusedDocumentBuffersLeaveEarlierTranscriptsIntact(t *testing.T) {
	var paths []string
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "fuzz" {
			return filepath.SkipDir
		}
		if !d.IsDir() && !strings.HasSuffix(p, "SOURCES") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		tr  *Transcript
		err error
	}
	pooled := make([]result, len(paths))
	for i, p := range paths {
		pooled[i].tr, pooled[i].err = Read(p)
	}
	poolDisabled = true
	defer func() { poolDisabled = false }()
	documents := 0
	for i, p := range paths {
		tr, err := Read(p)
		if (err == nil) != (pooled[i].err == nil) || (err != nil && err.Error() != pooled[i].err.Error()) {
			t.Errorf("%s: error %v with reuse, %v without", p, pooled[i].err, err)
			continue
		}
		if !reflect.DeepEqual(tr, pooled[i].tr) {
			t.Errorf("%s: the transcript read with reused buffers changed after later reads", p)
		}
		if err == nil && strings.Contains(p, "real") {
			documents++
		}
	}
	if documents < 10 {
		t.Fatalf("only %d real files read: the test lost its inputs", documents)
	}
}
