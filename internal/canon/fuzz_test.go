package canon

import (
	"bytes"
	"encoding/json"
	"testing"
)

// fuzzSeeds are pairs worth starting from; more live in
// testdata/fuzz/FuzzFingerprintMatchesReference.
var fuzzSeeds = [][2]string{
	{`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1}`},
	{`1`, `1.0`},
	{`-0`, `0e5`},
	{`12345678901234567890`, `12345678901234567891`},
	{`1e400`, `1E400`},
	{`"\u0041\u00e9"`, `"Aé"`},
	{`{"a":1,"a":2}`, `{"a":2}`},
	{`grep x`, `"grep x"`},
	{``, `{}`},
	{` [1, 2] `, `[1,2]`},
	{`{"a":1}x`, `"{\"a\":1}x"`},
	{`"\ud800x"`, `"\ufffdx"`},
	{"\"\xff\"", "\"\uFFFD\""},
	{`["a","b"]`, `["ab"]`},
	{`{"\ud83d\ude00":1,"\uffff":2}`, `{"\uffff":2,"😀":1}`},
	{`1e21`, `1000000000000000000000`},
	{`0.000001`, `1e-6`},
	{`[[[[[]]]]]`, `[[[[{}]]]]`},
	{`"a\"b\\c\/d\b\f\n\r\t"`, `"a\u0022b\u005cc/d\u0008\u000c\u000a\u000d\u0009"`},
	{`true`, `"true"`},
	{`"0123456789abcdef\"0123456789abcdef"`, `"0123456789abcdef\u00220123456789abcdef"`},
	{`333333333.33333329`, `333333333.3333333`},
	{`5e-324`, `4.9e-324`},
	{"\"\t\"", `"\t"`},
	{`{"k":"v","k":{"x":[1,2,{"k":0}]}}`, `{"k":{"x":[1,2.0,{"k":-0}]}}`},
}

// FuzzFingerprintMatchesReference checks Fingerprint and Canonical against
// the encoding/json based reference: two inputs share a fingerprint exactly
// when the reference says they are the same, and Canonical is the
// reference's canonical text. A 64-bit collision between different values
// is practically impossible, so any disagreement is a bug.
func FuzzFingerprintMatchesReference(f *testing.F) {
	for _, p := range fuzzSeeds {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		refA, refB := referenceCanonical(a), referenceCanonical(b)
		fpA, fpB := Fingerprint(a), Fingerprint(b)
		if (refA == refB) != (fpA == fpB) {
			t.Fatalf("reference same=%v but fingerprints %#x, %#x\na=%q\nb=%q\nref(a)=%q\nref(b)=%q",
				refA == refB, fpA, fpB, a, b, refA, refB)
		}
		checkOne(t, a, refA, fpA)
		checkOne(t, b, refB, fpB)
	})
}

// checkOne checks single-input properties of x, whose reference text is ref
// and whose fingerprint is fp.
func checkOne(t *testing.T, x []byte, ref string, fp uint64) {
	t.Helper()
	if got := Canonical(x); got != ref {
		t.Fatalf("Canonical(%q)\n got %q\nwant %q", x, got, ref)
	}
	if got := CanonicalString(string(x)); got != ref {
		t.Fatalf("CanonicalString(%q) = %q, want %q", x, got, ref)
	}
	if got := FingerprintString(string(x)); got != fp {
		t.Fatalf("FingerprintString(%q) = %#x, Fingerprint = %#x", x, got, fp)
	}
	// The canonical text denotes the same arguments as x (for raw text it
	// is the JSON string with that content), so it must share x's
	// fingerprint; this pairs every input with an equal one.
	if got := Fingerprint([]byte(ref)); got != fp {
		t.Fatalf("Fingerprint(%q) = %#x, but its canonical text %q has %#x", x, fp, ref, got)
	}
	if json.Valid(x) {
		// Reformatting JSON does not change what it denotes.
		var buf bytes.Buffer
		if err := json.Indent(&buf, x, "  ", "\t"); err == nil {
			if got := Fingerprint(buf.Bytes()); got != fp {
				t.Fatalf("indenting %q changed its fingerprint (%q)", x, buf.Bytes())
			}
		}
	}
}
