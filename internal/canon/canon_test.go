package canon

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// checkAgainstReference compares an input against the reference: Canonical
// must equal the reference text, and FingerprintString must agree with
// Fingerprint.
func checkAgainstReference(t *testing.T, in string) {
	t.Helper()
	want := referenceCanonical([]byte(in))
	if got := Canonical([]byte(in)); got != want {
		t.Errorf("Canonical(%.80q)\n got %.200q\nwant %.200q", in, got, want)
	}
	if got := CanonicalString(in); got != want {
		t.Errorf("CanonicalString(%.80q) = %.200q, want %.200q", in, got, want)
	}
	if a, b := Fingerprint([]byte(in)), FingerprintString(in); a != b {
		t.Errorf("Fingerprint(%.80q) = %#x but FingerprintString = %#x", in, a, b)
	}
}

func TestSameArgumentsGetSameFingerprint(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"key order at top level", `{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{"key order at depth", `{"x":{"p":[{"m":1,"n":2}],"q":true}}`, `{"x":{"q":true,"p":[{"n":2,"m":1}]}}`},
		{"whitespace between tokens", `{"a":[1,2],"b":null}`, " {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\" : null } "},
		{"whitespace around a scalar", `"x"`, " \t\"x\"\r\n"},
		{"1 and 1.0", `1`, `1.0`},
		{"1 and 1e0", `1`, `1e0`},
		{"1 and 10e-1", `1`, `10e-1`},
		{"1 and 1E+0", `1`, `1E+0`},
		{"0.1 and 1e-1", `0.1`, `1e-1`},
		{"100 and 1e2", `100`, `1e2`},
		{"-0 and 0", `-0`, `0`},
		{"-0.0 and 0", `-0.0`, `0`},
		{"-0 and 0 nested", `{"a":[-0]}`, `{"a":[0]}`},
		{"big ints equal as doubles", `12345678901234567890`, `12345678901234567891`},
		{"2^53+1 rounds to 2^53", `9007199254740993`, `9007199254740992`},
		{"16-digit integer and its exponent form", `1234567890123456`, `1.234567890123456e15`},
		{"underflow is zero", `1e-400`, `0`},
		{"negative underflow is zero", `-1e-400`, `0`},
		{"overflow literal equals itself", `[1e400]`, ` [ 1e400 ] `},
		{"unicode escape and literal", `"\u0041"`, `"A"`},
		{"escaped slash", `"a\/b"`, `"a/b"`},
		{"escape case in hex", `"\u00e9"`, `"\u00E9"`},
		{"escaped and literal non-ASCII", `"\u00e9"`, `"é"`},
		{"surrogate pair and literal", `"\ud83d\ude00"`, `"😀"`},
		{"escaped key equals literal key", `{"\u0061":1}`, `{"a":1}`},
		{"lone high surrogate is U+FFFD", `"\ud800"`, `"` + "\uFFFD" + `"`},
		{"lone low surrogate is U+FFFD", `"\udc00x"`, `"` + "\uFFFDx" + `"`},
		{"reversed pair is two U+FFFD", `"\udc00\ud800"`, `"` + "\uFFFD\uFFFD" + `"`},
		{"high surrogate before a non-surrogate escape", `"\ud800\u0041"`, `"` + "\uFFFDA" + `"`},
		{"invalid UTF-8 byte is U+FFFD", "\"a\xffb\"", "\"a\uFFFDb\""},
		{"each invalid byte is one U+FFFD", "\"\xe2\x82\"", "\"\uFFFD\uFFFD\""},
		{"UTF-8 encoded surrogate is three U+FFFD", "\"\xed\xa0\x80\"", "\"\uFFFD\uFFFD\uFFFD\""},
		{"duplicate key keeps last", `{"a":1,"a":2}`, `{"a":2}`},
		{"duplicate key keeps last, other order", `{"a":1,"b":0,"a":2}`, `{"b":0,"a":2}`},
		{"duplicate key drops an earlier object entirely", `{"a":{"x":1,"y":2},"a":{"x":1}}`, `{"a":{"x":1}}`},
		{"duplicate key spelled differently", `{"a":1,"\u0061":2}`, `{"a":2}`},
		{"duplicate keys nested", `{"o":{"k":true,"k":false}}`, `{"o":{"k":false}}`},
		{"raw text is the JSON string", `grep x`, `"grep x"`},
		{"raw text with quotes", `say "hi"`, `"say \"hi\""`},
		{"raw text with backslash is not unescaped", `a\nb`, `"a\\nb"`},
		{"raw text with a newline", "a\nb", `"a\nb"`},
		{"raw text with invalid UTF-8", "ls \xff", "\"ls \uFFFD\""},
		{"empty is the empty object", ``, `{}`},
		{"empty is the empty object with spaces", ``, ` { } `},
		{"trailing garbage is raw text", `{"a":1}x`, `"{\"a\":1}x"`},
		{"two values are raw text", `1 2`, `"1 2"`},
		{"truncated JSON is raw text", `{"a":`, `"{\"a\":"`},
		{"leading zero is raw text", `01`, `"01"`},
		{"whitespace only is raw text", `  `, `"  "`},
		{"byte order mark makes raw text", "\ufeff{}", "\"\ufeff{}\""},
		{"single quotes are raw text", `{'a':1}`, `"{'a':1}"`},
		{"nested empty containers", `{"a":[],"b":{}}`, `{"b":{},"a":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa, fb := Fingerprint([]byte(tc.a)), Fingerprint([]byte(tc.b))
			if fa != fb {
				t.Errorf("Fingerprint(%q) = %#x, Fingerprint(%q) = %#x; want equal", tc.a, fa, tc.b, fb)
			}
			if ca, cb := Canonical([]byte(tc.a)), Canonical([]byte(tc.b)); ca != cb {
				t.Errorf("Canonical(%q) = %q, Canonical(%q) = %q; want equal", tc.a, ca, tc.b, cb)
			}
			if ra, rb := referenceCanonical([]byte(tc.a)), referenceCanonical([]byte(tc.b)); ra != rb {
				t.Errorf("test case is wrong: reference gives %q and %q", ra, rb)
			}
			checkAgainstReference(t, tc.a)
			checkAgainstReference(t, tc.b)
		})
	}
}

func TestDifferentArgumentsGetDifferentFingerprints(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"string one vs number one", `"1"`, `1`},
		{"string true vs true", `"true"`, `true`},
		{"string null vs null", `"null"`, `null`},
		{"true vs false", `true`, `false`},
		{"null vs false", `null`, `false`},
		{"zero vs false", `0`, `false`},
		{"zero vs null", `0`, `null`},
		{"empty string vs empty object", `""`, `{}`},
		{"empty array vs empty object", `[]`, `{}`},
		{"empty string vs empty array", `""`, `[]`},
		{"two strings vs one concatenated", `["a","b"]`, `["ab"]`},
		{"array pair vs object", `["a","b"]`, `{"a":"b"}`},
		{"object vs its key-value array", `{"a":"b"}`, `[["a","b"]]`},
		{"array order matters", `[1,2]`, `[2,1]`},
		{"nested vs flat array", `[[1],2]`, `[1,[2]]`},
		{"[[]] vs []", `[[]]`, `[]`},
		{"[{}] vs {}", `[{}]`, `{}`},
		{"[null] vs []", `[null]`, `[]`},
		{"extra member", `{"a":1}`, `{"a":1,"b":1}`},
		{"key vs value swap", `{"a":"b"}`, `{"b":"a"}`},
		{"member split differently", `{"ab":"c"}`, `{"a":"bc"}`},
		{"keys with same multiset but different pairing", `{"a":1,"b":2}`, `{"a":2,"b":1}`},
		{"duplicate key: first value is not the one kept", `{"a":1,"a":2}`, `{"a":1}`},
		{"1 vs 1.0000000000000002", `1`, `1.0000000000000002`},
		{"0.1 vs 0.10000000000000002", `0.1`, `0.10000000000000002`},
		{"large ints one ulp apart", `9007199254740992`, `9007199254740994`},
		{"overflow literals compare by text", `1e400`, `1E400`},
		{"overflow literal spellings", `1e400`, `10e399`},
		{"overflow sign", `1e400`, `-1e400`},
		{"overflow literal vs its string", `1e400`, `"1e400"`},
		{"raw text vs different JSON string", `grep x`, `"grep  x"`},
		{"raw text that looks like a number", `1 `, `"1"`}, // "1 " is valid JSON (1), so it is the number
		{"case of raw text", `Grep`, `grep`},
		{"string with NUL vs empty", `"\u0000"`, `""`},
		{"U+FFFD escape vs nothing", `"\ufffd"`, `""`},
		{"trailing space inside string", `"a "`, `"a"`},
		{"long strings differing in last byte", `"` + strings.Repeat("x", 100) + `a"`, `"` + strings.Repeat("x", 100) + `b"`},
		{"strings differing in length by a NUL", "\"abcdefgh\"", "\"abcdefgh\\u0000\""},
		{"16 vs 17 bytes", `"0123456789abcdef"`, `"0123456789abcdef\u0000"`},
		{"empty object vs empty raw", `{}`, `"{}"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa, fb := Fingerprint([]byte(tc.a)), Fingerprint([]byte(tc.b))
			if fa == fb {
				t.Errorf("Fingerprint(%q) == Fingerprint(%q) == %#x; want different", tc.a, tc.b, fa)
			}
			if ca, cb := Canonical([]byte(tc.a)), Canonical([]byte(tc.b)); ca == cb {
				t.Errorf("Canonical(%q) == Canonical(%q) == %q; want different", tc.a, tc.b, ca)
			}
			if ra, rb := referenceCanonical([]byte(tc.a)), referenceCanonical([]byte(tc.b)); ra == rb {
				t.Errorf("test case is wrong: reference gives %q for both", ra)
			}
			checkAgainstReference(t, tc.a)
			checkAgainstReference(t, tc.b)
		})
	}
}

func TestCanonicalText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", ``, `{}`},
		{"sorted keys, no whitespace", `{ "b" : [ 1 , true , null ] , "a" : "x" }`, `{"a":"x","b":[1,true,null]}`},
		{"nested sort", `{"z":{"y":1,"x":2},"a":[{"d":0,"c":0}]}`, `{"a":[{"c":0,"d":0}],"z":{"x":2,"y":1}}`},
		{"duplicate key last wins", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"raw text is quoted", `grep x`, `"grep x"`},
		{"raw text escapes", "say \"hi\"\t\\ now\n", `"say \"hi\"\t\\ now\n"`},
		{"raw text control chars", "a\x01\x1fb\x7f", `"a\u0001\u001fb` + "\x7f" + `"`},
		{"raw text invalid UTF-8", "x\xff\xfe", "\"x\uFFFD\uFFFD\""},
		{"short escapes", `"\b\f\n\r\t\"\\\/"`, `"\b\f\n\r\t\"\\/"`},
		{"other controls as lowercase hex", `"\u0000\u001F\u000b"`, `"\u0000\u001f\u000b"`},
		{"DEL, non-ASCII and line separators stay literal", `"\u007f\u00e9\u2028\u2029"`, "\"\x7f\u00e9\u2028\u2029\""},
		{"html characters stay literal", `"<a>&"`, `"<a>&"`},
		{"surrogate pair decoded", `"\uD83D\uDE00"`, "\"\U0001F600\""},
		{"lone surrogate replaced", `"\uDEAD"`, "\"\uFFFD\""},
		{"overflow literal kept", `[1E400,-2e999, 1e308]`, `[1E400,-2e999,1e+308]`},
		{"literals", ` [true,false,null] `, `[true,false,null]`},
		{"deep mix", `{"a":{"b":{"c":[{"e":1,"d":[]}]}}}`, `{"a":{"b":{"c":[{"d":[],"e":1}]}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Canonical([]byte(tc.in)); got != tc.want {
				t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := CanonicalString(tc.in); got != tc.want {
				t.Errorf("CanonicalString(%q) = %q, want %q", tc.in, got, tc.want)
			}
			checkAgainstReference(t, tc.in)
		})
	}
}

// RFC 8785 numbers: its examples (section 3.2.2.3 and Appendix B) plus the
// boundaries between plain and exponent notation.
func TestCanonicalNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{`0`, `0`},
		{`-0`, `0`},
		{`-0.0e-5`, `0`},
		{`1`, `1`},
		{`-1`, `-1`},
		{`1.0`, `1`},
		{`4.50`, `4.5`},
		{`2e-3`, `0.002`},
		{`0.000001`, `0.000001`},
		{`1e-6`, `0.000001`},
		{`1e-7`, `1e-7`},
		{`0.0000001`, `1e-7`},
		{`1.5e-7`, `1.5e-7`},
		{`123e-10`, `1.23e-8`},
		{`100`, `100`},
		{`1e2`, `100`},
		{`120000`, `120000`},
		{`1e20`, `100000000000000000000`},
		{`1e21`, `1e+21`},
		{`1.5e21`, `1.5e+21`},
		{`999999999999999999999`, `1e+21`},
		{`333333333.33333329`, `333333333.3333333`},
		{`1E30`, `1e+30`},
		{`4.35`, `4.35`},
		{`0.002`, `0.002`},
		{`1e23`, `1e+23`},
		{`12345678901234567890`, `12345678901234567000`},
		{`9007199254740993`, `9007199254740992`},
		{`295147905179352830000`, `295147905179352830000`},
		{`-5e-324`, `-5e-324`},
		{`5e-325`, `0`},
		{`1.7976931348623157e308`, `1.7976931348623157e+308`},
		{`-1.7976931348623157e308`, `-1.7976931348623157e+308`},
		{`1.7976931348623159e308`, `1.7976931348623159e308`}, // rounds past the max: overflow literal
		{`1e400`, `1e400`},
		{`-1e400`, `-1e400`},
		{`0.1`, `0.1`},
		{`0.30000000000000004`, `0.30000000000000004`},
		{`123456.789`, `123456.789`},
		{`1.25e-5`, `0.0000125`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Canonical([]byte(tc.in)); got != tc.want {
				t.Errorf("Canonical(%s) = %s, want %s", tc.in, got, tc.want)
			}
			checkAgainstReference(t, tc.in)
		})
	}
}

// RFC 8785 sorts keys by UTF-16 code units. U+10000 is D800 DC00 in
// UTF-16, so it sorts before U+E000..U+FFFF even though its code point is
// larger.
func TestCanonicalKeyOrderIsUTF16(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"U+10000 before U+FFFF", "{\"\uFFFF\":1,\"\U00010000\":2}", "{\"\U00010000\":2,\"\uFFFF\":1}"},
		{"U+10000 before U+E000", "{\"\uE000\":1,\"\U00010000\":2}", "{\"\U00010000\":2,\"\uE000\":1}"},
		{"U+D7FF before U+10000", "{\"\U00010000\":2,\"\uD7FF\":1}", "{\"\uD7FF\":1,\"\U00010000\":2}"},
		{"within one high surrogate by low unit", "{\"\U0001F601\":1,\"\U0001F600\":2}", "{\"\U0001F600\":2,\"\U0001F601\":1}"},
		{"prefix sorts first", `{"ab":1,"a":2,"":3}`, `{"":3,"a":2,"ab":1}`},
		{"upper case before lower case", `{"b":1,"B":2,"a":3}`, `{"B":2,"a":3,"b":1}`},
		{"RFC 8785 sorting example", "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\",\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\",\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\",\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}",
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Canonical([]byte(tc.in)); got != tc.want {
				t.Errorf("Canonical(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			checkAgainstReference(t, tc.in)
		})
	}
}

func nested(depth int, open, close, inner string) string {
	return strings.Repeat(open, depth) + inner + strings.Repeat(close, depth)
}

// Deep input must not crash, and the 10000-level limit (the one
// encoding/json applies) must be applied the same way by Fingerprint,
// Canonical and the reference.
func TestDeepNesting(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		valid bool
	}{
		{"arrays 1000 deep", nested(1000, "[", "]", "1"), true},
		{"arrays 10000 deep", nested(10000, "[", "]", ""), true},
		{"arrays 10001 deep", nested(10001, "[", "]", ""), false},
		{"objects 10000 deep", nested(10000, `{"a":`, "}", "null"), true},
		{"objects 10001 deep", nested(10000, `{"a":`, "}", "{}"), false},
		{"arrays 100000 deep", nested(100000, "[", "]", ""), false},
		{"objects 100000 deep", nested(100000, `{"k":`, "}", "0"), false},
		{"100000 unclosed brackets", strings.Repeat("[", 100000), false},
		{"mixed 100000 deep", nested(50000, `[{"k":`, "}]", "0"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			fp := Fingerprint(in)
			raw := rawTextHash(in)
			if tc.valid && fp == raw {
				t.Errorf("valid JSON was fingerprinted as raw text")
			}
			if !tc.valid && fp != raw {
				t.Errorf("too-deep input was not fingerprinted as raw text")
			}
			got := Canonical(in)
			if tc.valid != strings.HasPrefix(got, tc.in[:1]) {
				t.Errorf("Canonical starts with %.10q; valid=%v", got, tc.valid)
			}
			if want := referenceCanonical(in); got != want {
				t.Errorf("Canonical disagrees with the reference (len %d vs %d)", len(got), len(want))
			}
		})
	}
}

func TestDeepNestingKeyOrderStillIrrelevant(t *testing.T) {
	const depth = 1000
	a := nested(depth, `{"x":1,"y":`, "}", `{"p":[1,{"q":2,"r":3}],"s":"t"}`)
	b := nested(depth, `{"y":`, `,"x":1.0}`, `{"s":"t","p":[1e0,{"r":3,"q":2}]}`)
	if Fingerprint([]byte(a)) != Fingerprint([]byte(b)) {
		t.Error("objects 1000 deep with reordered keys got different fingerprints")
	}
	c := strings.Replace(b, `"r":3`, `"r":4`, 1)
	if Fingerprint([]byte(a)) == Fingerprint([]byte(c)) {
		t.Error("a change at the bottom of a 1000-deep object did not change the fingerprint")
	}
	if Canonical([]byte(a)) != Canonical([]byte(b)) {
		t.Error("Canonical differs for reordered 1000-deep objects")
	}
}

// Inputs that overflow the fixed stack buffers (frames, members, string
// scratch) take the heap paths; they must give the same answers.
func TestLargeInputsAgreeWithReference(t *testing.T) {
	var wide, wideShuffled, wideDup strings.Builder
	n := 200
	perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
	wide.WriteByte('{')
	wideShuffled.WriteByte('{')
	wideDup.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			wide.WriteByte(',')
			wideShuffled.WriteByte(',')
			wideDup.WriteByte(',')
		}
		fmt.Fprintf(&wide, `"k%d":%d`, i, i)
		fmt.Fprintf(&wideShuffled, `"k%d":%d`, perm[i], perm[i])
		fmt.Fprintf(&wideDup, `"k%d":"old","k%d":%d`, perm[i], perm[i], perm[i])
	}
	wide.WriteByte('}')
	wideShuffled.WriteByte('}')
	wideDup.WriteByte('}')

	longEscaped := `"` + strings.Repeat(`ab\"\u00e9\ud83d\ude00`, 200) + `"`
	longInvalid := "\"" + strings.Repeat("a\xffé", 300) + "\""

	same := []struct{ name, a, b string }{
		{"wide object shuffled", wide.String(), wideShuffled.String()},
		{"wide object with overwritten duplicates", wide.String(), wideDup.String()},
		{"long escaped string", longEscaped, `"` + strings.Repeat("ab\\\"é😀", 200) + `"`},
		{"long invalid UTF-8", longInvalid, "\"" + strings.Repeat("a\uFFFDé", 300) + "\""},
		{"long raw invalid UTF-8", strings.Repeat("a\xffé", 300), "\"" + strings.Repeat("a\uFFFDé", 300) + "\""},
		{"deep objects beyond the frame buffer", nested(100, `{"b":2,"a":`, "}", "[]"), nested(100, `{"a":`, `,"b":2}`, "[]")},
	}
	for _, tc := range same {
		t.Run(tc.name, func(t *testing.T) {
			if Fingerprint([]byte(tc.a)) != Fingerprint([]byte(tc.b)) {
				t.Error("fingerprints differ")
			}
			checkAgainstReference(t, tc.a)
			checkAgainstReference(t, tc.b)
		})
	}
	if Fingerprint([]byte(wide.String())) == Fingerprint([]byte(strings.Replace(wide.String(), `"k150":150`, `"k150":151`, 1))) {
		t.Error("changing one member of a wide object did not change its fingerprint")
	}
}

func TestFingerprintStringMatchesFingerprint(t *testing.T) {
	for _, in := range []string{"", "{}", "grep x", benchArgs, `[1,"a",{"b":null}]`, "\xff", `"\u00e9"`, "1e400"} {
		if a, b := Fingerprint([]byte(in)), FingerprintString(in); a != b {
			t.Errorf("%q: Fingerprint %#x, FingerprintString %#x", in, a, b)
		}
	}
}

// Fingerprints are persisted, so they must not change between builds or
// machines. If this test fails, the hash changed: stored snapshots would no
// longer match. Update the values only for a deliberate format change.
func TestFingerprintIsStable(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{``, 0xbe980817b0a6e589},
		{`{}`, 0xbe980817b0a6e589},
		{`grep x`, 0x612f5fb062f67d10},
		{`"grep x"`, 0x612f5fb062f67d10},
		{`1`, 0xc2be02197aabce42},
		{`[1,"a",null,true,false]`, 0x00b900097150054f},
		{benchArgs, 0xd21a8304268791dc},
		{`[-0.5,1e400,"caf\u00e9 \ud83d\ude00 \"q\"","a string longer than sixteen bytes, in three blocks"]`, 0xa9171f55a7e84202},
		{"{\"b\":{\"z\":[],\"y\":{}},\"a\":\"\xff\"}", 0xdeec0beb4b31765c},
	}
	for _, tc := range tests {
		if got := Fingerprint([]byte(tc.in)); got != tc.want {
			t.Errorf("Fingerprint(%.40q) = %#016x, want %#016x", tc.in, got, tc.want)
		}
	}
}

func TestFingerprintDoesNotAllocate(t *testing.T) {
	inputs := []struct{ name, in string }{
		{"benchmark arguments", benchArgs},
		{"escaped and non-ASCII strings", `{"q":"caf\u00e9 \"x\"","p":"日本語","n":[1.5,-2e-3,12345678901234567890]}`},
		{"raw text", `grep -rn foo .`},
		{"raw text with invalid UTF-8", "ls \xff\xfe " + strings.Repeat("x", 100)},
		{"long string with many escapes", `"` + strings.Repeat(`line \"one\"\n\ttab\u00e9`, 40) + `"`},
		{"object of 16 members", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16}`},
		{"empty", ``},
		{"nested 8 containers deep", nested(4, `{"a":[`, "]}", "1")},
	}
	// (A number literal that overflows float64 does allocate: the error
	// strconv.ParseFloat returns for it. Such literals are rare.)
	for _, tc := range inputs {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(tc.in)
			if n := testing.AllocsPerRun(100, func() { Fingerprint(b) }); n != 0 {
				t.Errorf("Fingerprint allocates %v times per call", n)
			}
			if n := testing.AllocsPerRun(100, func() { FingerprintString(tc.in) }); n != 0 {
				t.Errorf("FingerprintString allocates %v times per call", n)
			}
		})
	}
}

// Malformed input of every kind must fall back to raw text without
// panicking; the fuzz test covers this far more widely.
func TestMalformedInputIsRawText(t *testing.T) {
	inputs := []string{
		`{`, `[`, `"`, `"\`, `"\u12`, `"\u12x4"`, `"\x"`, `-`, `-a`, `1.`, `1.e5`, `1e`, `1e+`, `.5`, `+1`,
		`tru`, `nul`, `nulls`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{1:2}`, `{"a" 1}`,
		`["a" "b"]`, `]`, `}`, `[}`, `{]`, "\"a\x00b\"", "\"\t\"", "{\"a\":1}\x00", `NaN`, `Infinity`, `0x10`,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			b := []byte(in)
			if got, want := Fingerprint(b), rawTextHash(b); got != want {
				t.Errorf("Fingerprint(%q) is not the raw-text fingerprint", in)
			}
			checkAgainstReference(t, in)
		})
	}
}

// plainEnd scans eight bytes at a time; compare it with a byte loop on
// every position and with a second special byte placed after the first
// (where a borrow could otherwise mislead it).
func TestPlainEndMatchesByteLoop(t *testing.T) {
	slow := func(s []byte, i int) int {
		for ; i < len(s); i++ {
			if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
		}
		return i
	}
	interesting := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', 0x23, '\\', 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	for n := 0; n <= 20; n++ {
		for p1 := 0; p1 < n; p1++ {
			for _, c1 := range interesting {
				for p2 := p1 + 1; p2 <= n; p2++ {
					for _, c2 := range interesting {
						s := bytes.Repeat([]byte{'a'}, n)
						s[p1] = c1
						if p2 < n {
							s[p2] = c2
						}
						for start := 0; start <= p1; start++ {
							if got, want := plainEnd(s, start), slow(s, start); got != want {
								t.Fatalf("plainEnd(%q, %d) = %d, want %d", s, start, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// The string hash is computed three ways: in one pass by the fast scanner,
// by the decoding path through a buffer, and by hashBytes. They must agree
// for every length and every position of the first byte that needs decoding,
// and wherever the string sits in the input (the fast scanner pads the last
// bytes of the input differently).
func TestStringHashPathsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 -_/.:,{}[]"
	for n := 0; n <= 300; n++ {
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = alphabet[rng.IntN(len(alphabet))]
		}
		want := hashBytes(seedString, plain)
		check := func(desc, quotedContent string) {
			t.Helper()
			for _, doc := range []string{`"` + quotedContent + `"`, `["` + quotedContent + `",0]`, `{"` + quotedContent + `":0}`} {
				var got uint64
				switch doc[0] {
				case '"':
					got = Fingerprint([]byte(doc))
				case '[':
					got = Fingerprint([]byte(doc))
					if exp := hashArrayEnd(hashArrayStep(hashArrayStep(seedArray, want), hashFloat(0)), 2); got != exp {
						t.Fatalf("%s, n=%d, in an array: got %#x, want %#x", desc, n, got, exp)
					}
					continue
				case '{':
					got = Fingerprint([]byte(doc))
					if exp := hashObjectEnd(seedObject+hashMember(want, hashFloat(0)), 1); got != exp {
						t.Fatalf("%s, n=%d, as a key: got %#x, want %#x", desc, n, got, exp)
					}
					continue
				}
				if got != want {
					t.Fatalf("%s, n=%d: Fingerprint(%q) = %#x, hashBytes = %#x", desc, n, doc, got, want)
				}
			}
		}
		check("plain", string(plain))
		if n == 0 || n > 80 && n%7 != 0 {
			continue // keep the quadratic part small
		}
		for p := 0; p < n; p++ {
			c := plain[p]
			// The same content with one byte escaped.
			check(fmt.Sprintf("\\u escape at %d", p), string(plain[:p])+fmt.Sprintf(`\u%04x`, c)+string(plain[p+1:]))
			if c == '/' {
				check(fmt.Sprintf("\\/ at %d", p), string(plain[:p])+`\/`+string(plain[p+1:]))
			}
		}
	}
	// Non-ASCII content: valid UTF-8 is hashed as is, invalid bytes as
	// U+FFFD, at every offset.
	for p := 0; p < 40; p++ {
		pre := strings.Repeat("x", p)
		for _, tc := range []struct{ in, decoded string }{
			{"é", "é"}, {"😀", "😀"}, {"\xff", "\uFFFD"}, {"\xe2\x82", "\uFFFD\uFFFD"}, {`\n`, "\n"}, {`\ud83d\ude00`, "😀"},
		} {
			content := pre + tc.in + "tail-of-the-string"
			decoded := pre + tc.decoded + "tail-of-the-string"
			if got, want := Fingerprint([]byte(`"`+content+`"`)), hashBytes(seedString, []byte(decoded)); got != want {
				t.Fatalf("%q at offset %d: got %#x, want %#x", tc.in, p, got, want)
			}
		}
	}
}

// blockKeyB, and each seed xor blockKeyA, must contain a byte that never
// occurs in UTF-8, so that no string content can zero a factor of the
// first block's multiplication (see hash.go).
func TestSeedsCannotBeCancelledByText(t *testing.T) {
	notUTF8 := func(x uint64) bool {
		for i := 0; i < 8; i++ {
			if b := byte(x >> (8 * i)); b == 0xC0 || b == 0xC1 || b >= 0xF5 {
				return true
			}
		}
		return false
	}
	if !notUTF8(blockKeyB) {
		t.Errorf("blockKeyB %#x has no byte outside UTF-8", uint64(blockKeyB))
	}
	for name, seed := range map[string]uint64{"seedString": seedString, "seedBigNum": seedBigNum} {
		if !notUTF8(seed ^ blockKeyA) {
			t.Errorf("%s^blockKeyA = %#x has no byte outside UTF-8", name, seed^blockKeyA)
		}
	}
}

// specialBytes must flag exactly the right lowest byte for every byte value,
// whatever byte follows it (borrows travel upwards).
func TestSpecialBytesEveryByte(t *testing.T) {
	isSpecial := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	for c1 := 0; c1 < 256; c1++ {
		for c2 := 0; c2 < 256; c2++ {
			for p := 0; p < 7; p++ {
				var b [8]byte
				for i := range b {
					b[i] = 'a'
				}
				b[p], b[p+1] = byte(c1), byte(c2)
				want := 8
				for i, c := range b {
					if isSpecial(c) {
						want = i
						break
					}
				}
				got := 8
				if m := specialBytes(binary.LittleEndian.Uint64(b[:])); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("bytes %q: first special at %d, want %d", b, got, want)
				}
			}
		}
	}
}

// However deep the input, Fingerprint keeps at most maxDepth frames before
// giving up on it as JSON, so what it allocates does not grow with depth.
func TestDeepNestingUsesBoundedMemory(t *testing.T) {
	for _, depth := range []int{100_000, 1_000_000} {
		in := []byte(nested(depth, "[", "]", ""))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		Fingerprint(in)
		runtime.ReadMemStats(&after)
		// 10000 frames of 24 bytes, grown by doubling: well under 2 MiB.
		if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
			t.Errorf("depth %d: Fingerprint allocated %d bytes", depth, got)
		}
	}
}

// A repeated key replaces the member it repeats, wherever the two stand:
// within the first linearMembers members (found through the Bloom filter and
// replaced in place), across that limit, and beyond it (merged by sorting
// when the object closes). Each object is compared with the same object
// written once, with the last values, in another order.
func TestRepeatedKeysLastWins(t *testing.T) {
	for _, n := range []int{2, 5, 31, 32, 33, 40, 100} {
		for _, repeat := range []struct {
			name  string
			at    int // the repeat is written after the member at this index
			which int // the key repeated
		}{
			{"first key repeated at once", 0, 0},
			{"first key repeated at the end", n - 1, 0},
			{"last key repeated at the end", n - 1, n - 1},
			{"middle key repeated later", n - 1, n / 2},
			{"key repeated across the linear limit", min(n-1, linearMembers+1), min(n-1, linearMembers-1)},
		} {
			t.Run(fmt.Sprintf("%d members, %s", n, repeat.name), func(t *testing.T) {
				values := make([]string, n)
				for i := range values {
					values[i] = strconv.Itoa(i)
				}
				var in strings.Builder
				in.WriteByte('{')
				for i := 0; i < n; i++ {
					if i > 0 {
						in.WriteByte(',')
					}
					fmt.Fprintf(&in, `"key%d":%s`, i, values[i])
					if i == repeat.at {
						fmt.Fprintf(&in, `,"key%d":"again"`, repeat.which)
					}
				}
				in.WriteByte('}')
				values[repeat.which] = `"again"` // every repeat comes after its first
				var want strings.Builder
				want.WriteByte('{')
				for i := n - 1; i >= 0; i-- {
					fmt.Fprintf(&want, `"key%d":%s`, i, values[i])
					if i > 0 {
						want.WriteByte(',')
					}
				}
				want.WriteByte('}')
				if got, exp := Fingerprint([]byte(in.String())), Fingerprint([]byte(want.String())); got != exp {
					t.Errorf("Fingerprint(%.60q...) = %#x, want %#x, the fingerprint of %.60q...", in.String(), got, exp, want.String())
				}
				checkAgainstReference(t, in.String())
				if Canonical([]byte(in.String())) != Canonical([]byte(want.String())) {
					t.Error("Canonical texts differ")
				}
			})
		}
	}
}

// Strings shorter than 16 bytes are hashed in one step with their length,
// longer ones block by block; a string may also end anywhere near the end of
// the input, where the scanner reads the last bytes differently. Contents
// that differ only in trailing NUL bytes (written \u0000) must stay apart at
// every length.
func TestStringLengthsAndEndsOfInput(t *testing.T) {
	seen := map[uint64]string{}
	for n := 0; n <= 40; n++ {
		content := strings.Repeat("x", n)
		for pad := 0; pad <= 2; pad++ {
			quoted := `"` + content + strings.Repeat(`\u0000`, pad) + `"`
			fp := Fingerprint([]byte(quoted))
			if other, dup := seen[fp]; dup {
				t.Fatalf("%s and %s share fingerprint %#x", quoted, other, fp)
			}
			seen[fp] = quoted
			// Raw text (not JSON) is hashed as the string with that
			// content, with no decoding, so it reaches the one-step
			// hash with the NUL bytes themselves.
			raw := content + strings.Repeat("\x00", pad)
			if got := Fingerprint([]byte(raw)); pad > 0 && got != fp {
				t.Fatalf("raw text %q: %#x, but the JSON string %s has %#x", raw, got, quoted, fp)
			}
			// The same string as the last member of an object, as an
			// array element and after trailing spaces: the end of the
			// string moves relative to the end of the input.
			for _, doc := range []string{`{"k":` + quoted + `}`, `[` + quoted + `]`, quoted + `   `, ` ` + quoted} {
				checkAgainstReference(t, doc)
			}
			if a, b := Fingerprint([]byte(quoted+"   ")), fp; a != b {
				t.Errorf("%s: trailing spaces change the fingerprint", quoted)
			}
		}
	}
}

func TestAppendQuotedEscapesLikeRFC8785(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "grep -rn x", `"grep -rn x"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other controls in lowercase hex", "\x00\x1f\x0b", `"\u0000\u001f\u000b"`},
		{"DEL, HTML and line separators as they are", "\x7f<>&\u2028", "\"\x7f<>&\u2028\""},
		{"each invalid byte is U+FFFD", "a\xff\xfeb", "\"a\uFFFD\uFFFDb\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendQuoted([]byte("x="), tc.in)); got != "x="+tc.want {
				t.Errorf("AppendQuoted(%q) = %q, want %q", tc.in, got, "x="+tc.want)
			}
		})
	}
}

func TestAppendUnescapedDecodesLikeEncodingJSON(t *testing.T) {
	for _, body := range []string{
		``, `plain`, `a\"b\\c\/d\b\f\n\r\t`, `\u0041\u00e9\u20ac`, `\ud83d\ude00 pair`,
		`\ud83d alone`, `\ude00\ud83d reversed`, "caf\xc3\xa9 \xff\xfe bytes", `日本語`,
		`\ud83d\u0041`, strings.Repeat(`block of sixteen\n`, 5),
	} {
		var want string
		if err := json.Unmarshal([]byte(`"`+body+`"`), &want); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got := string(AppendUnescaped([]byte("x"), []byte(body))); got != "x"+want {
			t.Errorf("AppendUnescaped(%q) = %q, want %q", body, got, "x"+want)
		}
	}
}
