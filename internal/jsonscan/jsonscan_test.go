package jsonscan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// decode runs every string reader of the package over the quoted string q under p and
// checks that they agree: String and AppendUnescaped in turn, and AppendString in one pass.
func decode(t *testing.T, q string, p Policy) (string, error) {
	t.Helper()
	b := []byte(q)
	end, f, err := String(b, 0, p)
	out, end2, err2 := AppendString([]byte{}, b, 0, p)
	if (err == nil) != (err2 == nil) || end != end2 {
		t.Fatalf("%q: String gives (%d, %v), AppendString (%d, %v)", q, end, err, end2, err2)
	}
	if err != nil {
		return "", err
	}
	body := b[1 : end-1]
	un, ok := AppendUnescaped(nil, body, p)
	if !ok || string(un) != string(out) {
		t.Fatalf("%q: AppendUnescaped gives %q (ok %v), AppendString %q", q, un, ok, out)
	}
	if f == 0 && string(out) != string(body) {
		t.Fatalf("%q: flags say plain, but it decodes to %q", q, out)
	}
	return string(out), nil
}

func TestValidStringsDecodeAsEncodingJSONUnderBothPolicies(t *testing.T) {
	for _, q := range []string{
		`""`, `"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u0041\u00e9\u20AC"`, `"\ud83d\ude00 pair"`,
		`"日本語"`, `"` + strings.Repeat(`sixteen bytes \n`, 9) + `"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, p := range []Policy{Strict, AsWritten} {
			if got, err := decode(t, q, p); err != nil || got != want {
				t.Errorf("policy %d, %s: got %q (%v), want %q", p, q, got, err, want)
			}
		}
	}
}

func TestTruncatedStringsAreEndOfInputUnderBothPolicies(t *testing.T) {
	for _, q := range []string{`"`, `"abc`, `"abc\`, `"abc\"`, `"\u00`, `"\ud83d\ude0`, `"` + strings.Repeat("x", 40)} {
		for _, p := range []Policy{Strict, AsWritten} {
			_, err := decode(t, q, p)
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset != len(q) || !Truncated(err, []byte(q)) {
				t.Errorf("policy %d, %q: error %v, want end of input at %d", p, q, err, len(q))
			}
		}
	}
}

func TestStrictRefusesBadEscapesWhereTheyStand(t *testing.T) {
	for _, tt := range []struct {
		q   string
		off int
	}{
		{`"\x"`, 1}, {`"ab\'"`, 3}, {`"\u12G4"`, 1}, {`"\u1"`, 1}, {`"\U0041"`, 1}, {`"ok\n then \a"`, 11},
	} {
		_, err := decode(t, tt.q, Strict)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || Truncated(err, []byte(tt.q)) {
			t.Errorf("%s: error %v, want a bad escape at %d", tt.q, err, tt.off)
		}
	}
}

func TestAsWrittenKeepsBadEscapesAsWritten(t *testing.T) {
	for q, want := range map[string]string{
		`"\x"`:           `\x`,
		`"C:\Users\n"`:   "C:\\Users\n",
		`"\u12G4"`:       `\u12G4`,
		`"\u1"`:          `\u1`,
		`"a\qb\tc"`:      "a\\qb\tc",
		`"\U0041\u0041"`: `\U0041A`,
		`"\\\x"`:         `\\x`,
	} {
		if got, err := decode(t, q, AsWritten); err != nil || got != want {
			t.Errorf("%s: got %q (%v), want %q", q, got, err, want)
		}
	}
}

func TestLoneSurrogatesBecomeReplacementUnderBothPolicies(t *testing.T) {
	for q, want := range map[string]string{
		`"\ud800"`:             "\uFFFD",
		`"\ud800x"`:            "\uFFFDx",
		`"\udc00\ud800"`:       "\uFFFD\uFFFD",
		`"\ud83d\u0041"`:       "\uFFFDA",
		`"\ud83d\ud83d\ude00"`: "\uFFFD😀",
		`"\ude00"`:             "\uFFFD",
	} {
		var ref string
		if err := json.Unmarshal([]byte(q), &ref); err != nil || ref != want {
			t.Fatalf("%s: encoding/json gives %q (%v), the table says %q", q, ref, err, want)
		}
		for _, p := range []Policy{Strict, AsWritten} {
			if got, err := decode(t, q, p); err != nil || got != want {
				t.Errorf("policy %d, %s: got %q (%v), want %q", p, q, got, err, want)
			}
		}
	}
}

func TestInvalidUTF8IsReplacedByStrictAndKeptByAsWritten(t *testing.T) {
	for _, q := range []string{"\"\xff\"", "\"caf\xc3\"", "\"a\xed\xa0\x80b\"", "\"\xc3\xa9\xfe\\n\""} {
		var ref string
		if err := json.Unmarshal([]byte(q), &ref); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if got, err := decode(t, q, Strict); err != nil || got != ref {
			t.Errorf("Strict %q: got %q (%v), want encoding/json's %q", q, got, err, ref)
		}
		want := strings.ReplaceAll(q[1:len(q)-1], `\n`, "\n")
		if got, err := decode(t, q, AsWritten); err != nil || got != want {
			t.Errorf("AsWritten %q: got %q (%v), want the bytes as written %q", q, got, err, want)
		}
	}
}

func TestControlBytesAreRefusedByStrictAndKeptByAsWritten(t *testing.T) {
	q := "\"tab\there\x00\""
	if _, err := decode(t, q, Strict); err == nil {
		t.Error("Strict accepted a raw tab")
	}
	if got, err := decode(t, q, AsWritten); err != nil || got != q[1:len(q)-1] {
		t.Errorf("AsWritten: got %q (%v)", got, err)
	}
}

func TestStrictAppendUnescapedStopsAtTheFirstBadEscape(t *testing.T) {
	out, ok := AppendUnescaped([]byte("x"), []byte(`ab\n\qcd`), Strict)
	if ok || string(out) != "xab\n" {
		t.Errorf("got %q, %v; want what came before the bad escape, false", out, ok)
	}
}

func nest(n int, open, close, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func TestDeepNestingIsAnErrorOnlyPastTheLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		in    string
		limit int
		depth bool // want ErrDepth
	}{
		{"arrays at the limit", nest(MaxDepth, "[", "]", ""), MaxDepth, false},
		{"arrays one past the limit", nest(MaxDepth+1, "[", "]", ""), MaxDepth, true},
		{"objects one past the limit", nest(MaxDepth+1, `{"k":`, "}", "1"), MaxDepth, true},
		{"empty innermost object one past the limit", nest(MaxDepth, `{"k":`, "}", "{}"), MaxDepth, true},
		{"100,000 deep without a limit", nest(100000, "[", "]", ""), 0, false},
		{"100,000 deep mixed without a limit", nest(50000, `[{"k":`, "}]", "0"), 0, false},
		{"100,000 deep with encoding/json's limit", nest(100000, "[", "]", ""), MaxDepth, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			end, err := Skip([]byte(tt.in), 0, Strict, tt.limit)
			if tt.depth {
				if !errors.Is(err, ErrDepth) {
					t.Fatalf("error %v, want ErrDepth", err)
				}
				return
			}
			if err != nil || end != len(tt.in) {
				t.Fatalf("end %d, error %v", end, err)
			}
			// The same depth cut short is end of input, not a depth error.
			cut := []byte(tt.in[:len(tt.in)-1])
			if _, err := Skip(cut, 0, Strict, tt.limit); !Truncated(err, cut) {
				t.Errorf("cut short: error %v, want end of input", err)
			}
		})
	}
	// encoding/json agrees on the limit.
	if json.Valid([]byte(nest(MaxDepth+1, "[", "]", ""))) || !json.Valid([]byte(nest(MaxDepth, "[", "]", ""))) {
		t.Error("MaxDepth is not encoding/json's limit")
	}
}

func TestSkipChecksStructureUnderBothPolicies(t *testing.T) {
	for _, tt := range []struct {
		in  string
		end int // -1: error
	}{
		{`{"a":[1,-2.5e+3,true,false,null,"s"]} tail`, 37},
		{`[]`, 2}, {`{}`, 2}, {`[ ]`, 3}, {`{ }`, 3}, {`0 1`, 1}, {`01`, 1}, {`"x"y`, 3},
		{`[1,]`, -1}, {`{"a"}`, -1}, {`{"a":1,}`, -1}, {`[1 2]`, -1}, {`{1:2}`, -1}, {`[}`, -1},
		{`-`, -1}, {`1.`, -1}, {`1e`, -1}, {`.5`, -1}, {`+1`, -1}, {`tru`, -1}, {`nul!`, -1},
		{`{"a":1]`, -1}, {`[[]`, -1},
	} {
		for _, p := range []Policy{Strict, AsWritten} {
			end, err := Skip([]byte(tt.in), 0, p, MaxDepth)
			if tt.end < 0 && err == nil {
				t.Errorf("policy %d, %s: accepted up to %d", p, tt.in, end)
			}
			if tt.end >= 0 && (err != nil || end != tt.end) {
				t.Errorf("policy %d, %s: end %d (%v), want %d", p, tt.in, end, err, tt.end)
			}
		}
	}
}

func TestSkipChecksStringsOnlyForClosingUnderAsWritten(t *testing.T) {
	in := []byte("[\"\\x\",\"tab\t\",\"\\\\\"]")
	if _, err := Skip(in, 0, Strict, 0); err == nil {
		t.Error("Strict accepted a bad escape")
	}
	if end, err := Skip(in, 0, AsWritten, 0); err != nil || end != len(in) {
		t.Errorf("AsWritten: end %d, error %v", end, err)
	}
}

func TestObjectAndArrayVisitEveryMemberInOrder(t *testing.T) {
	in := []byte(` {"a" : [1, {"b\"c": 2}], "d":"e"} `)
	var got []string
	end, err := Object(in, 1, Strict, func(key []byte, f Flags, v int) (int, error) {
		k, _ := AppendUnescaped(nil, key, Strict)
		got = append(got, string(k))
		if in[v] == '[' {
			return Array(in, v, func(e int) (int, error) {
				if in[e] == '{' {
					return Object(in, e, Strict, func(key []byte, f Flags, v int) (int, error) {
						if f&Escaped == 0 {
							t.Error("escaped key not flagged")
						}
						k, _ := AppendUnescaped(nil, key, Strict)
						got = append(got, string(k))
						return Skip(in, v, Strict, 0)
					})
				}
				got = append(got, "elem")
				return Skip(in, e, Strict, 0)
			})
		}
		return Skip(in, v, Strict, 0)
	})
	if err != nil || end != len(in)-1 || strings.Join(got, ",") != `a,elem,b"c,d` {
		t.Errorf("end %d, error %v, visited %q", end, err, got)
	}
}

func TestNumbersFollowTheJSONGrammar(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "1.5", "1e5", "1E+5", "-0.0e-0", "123456789012345678901234567890"} {
		if end, ok := Number([]byte(s), 0); !ok || end != len(s) || !json.Valid([]byte(s)) {
			t.Errorf("%s: end %d ok %v", s, end, ok)
		}
	}
	for _, s := range []string{"-", "1.", "1.e5", "1e", "1e+", "-a", ""} {
		if _, ok := Number([]byte(s), 0); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestDecodeAtReportsOneByteForEachInvalidUTF8Byte(t *testing.T) {
	r, next, ok := DecodeAt([]byte("\xe2\x82x"), 0)
	if r != utf8.RuneError || next != 1 || !ok {
		t.Errorf("got %q %d %v", r, next, ok)
	}
}
