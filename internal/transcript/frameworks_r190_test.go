package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// DSPy's, CAMEL's and Haystack's printed runs are found by the sniffer, in a file and in the
// text a notebook's cells printed (validation round r190a: their runs were read as none).
func TestFrameworkPrintoutsAreFoundInFilesAndNotebooks(t *testing.T) {
	for _, tt := range []struct {
		name, text, format string
	}{
		{"dspy prediction", dspyPrediction, FormatDSPy},
		{"dspy history", dspyHistory, FormatDSPy},
		{"camel", camelOlderRun, FormatCAMELConsole},
		{"camel glued", camelGluedRun, FormatCAMELConsole},
		{"haystack", haystackRun, FormatHaystackConsole},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("run.log", strings.NewReader(tt.text))
			if err != nil || tr.Format != tt.format || len(tr.Agents) == 0 || len(tr.Agents[0].Calls()) == 0 {
				t.Fatalf("run.log: %v, read as %q: want %s with calls", err, formatOf(tr), tt.format)
			}
			lines, _ := json.Marshal(strings.SplitAfter(tt.text, "\n"))
			doc := `{"cells": [{"cell_type": "code", "source": ["run()"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ` +
				string(lines) + `}]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
			nb, err := ReadFrom("run.ipynb", strings.NewReader(doc))
			if err != nil || nb.Format != tt.format || len(nb.Agents[0].Calls()) != len(tr.Agents[0].Calls()) {
				t.Errorf("run.ipynb: %v, read as %q: want %s with the file's %d calls", err, formatOf(nb), tt.format, len(tr.Agents[0].Calls()))
			}
		})
	}
}

func formatOf(tr *Transcript) string {
	if tr == nil {
		return ""
	}
	return tr.Format
}
