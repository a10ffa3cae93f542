package transcript

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Python reprs read as the JSON they stand for: constructor calls as their keyword fields
// (positional arguments left out, the class's name the type when none is given), names and
// <...> objects as null, strings unquoted with their escapes.
func TestPyReprReadsAsJSON(t *testing.T) {
	for _, tc := range []struct{ repr, want string }{
		{`FunctionCall(id='c1', arguments='{"q": 1}', name='f')`, `{"arguments":"{\"q\": 1}","id":"c1","name":"f","type":"FunctionCall"}`},
		{`datetime.datetime(2026, 1, 2, tzinfo=datetime.timezone.utc)`, `{"type":"datetime","tzinfo":null}`},
		{`X(type='T', n=-1.5e-05, ok=True, no=False, none=None, t=(1, 'a'), d={'k': [1], 2: 'two'})`, `{"d":{"2":"two","k":[1]},"n":-1.5e-05,"no":false,"none":null,"ok":true,"t":[1,"a"],"type":"T"}`},
		{`['it\'s', "say \"hi\"\n", '\xe9\u00e9', <object at 0x1>, inf]`, `["it's","say \"hi\"\n","éé",null,null]`},
	} {
		v, rest, ok := pyRepr(tc.repr)
		got, _ := json.Marshal(v)
		if !ok || rest != "" || string(got) != tc.want {
			t.Errorf("%s\n read as %s (ok %v, rest %q)\n want    %s", tc.repr, got, ok, rest, tc.want)
		}
	}
	for _, cut := range []string{`FunctionCall(id='c1`, `[1, 2`, `{'a' 1}`, `X(a=12abc)`} {
		if _, _, ok := pyRepr(cut); ok {
			t.Errorf("%s read as a whole repr", cut)
		}
	}
}

// The literal grammar is ast.literal_eval's: what holds a call, a name, an object without a
// repr or a key that is no string is no literal, and a text that only looks like one is left
// as text by its callers. Both grammars read Python's own syntax: adjacent strings are one
// (pprint splits a long string so), and items are separated by commas.
func TestPyLiteralAndReprGrammars(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		literal    string // the JSON pyLiteral reads, "" when it reads none
		repr       string // the JSON pyRepr reads, "" when it reads none
	}{
		{"a dict of data is both", `{'q': 'x', 'n': [1, (2, None)]}`, `{"n":[1,[2,null]],"q":"x"}`, `{"n":[1,[2,null]],"q":"x"}`},
		{"a call is only a repr", `{'when': datetime.date(2026, 1, 2)}`, ``, `{"when":{"type":"date"}}`},
		{"a name is only a repr", `[Color.RED]`, ``, `[null]`},
		{"an object without a repr is only a repr", `[<object at 0x1>]`, ``, `[null]`},
		{"a key that is no string is only a repr", `{1: 'one'}`, ``, `{"1":"one"}`},
		{"adjacent strings are one", "{'content': 'a long '\n            'text', 'k': 'v' \"w\"}", `{"content":"a long text","k":"vw"}`, `{"content":"a long text","k":"vw"}`},
		{"items without a comma are no list", `['a' 1]`, ``, ``},
		{"a dict without commas is none", `{'a': 1 'b': 2}`, ``, ``},
		{"a call without commas is none", `X(a=1 b=2)`, ``, ``},
		{"a trailing comma is Python's", `[1, 2,]`, `[1,2]`, `[1,2]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, g := range []struct {
				name string
				read func(string) (any, string, bool)
				want string
			}{{"literal", pyLiteral, tc.literal}, {"repr", pyRepr, tc.repr}} {
				v, rest, ok := g.read(tc.text)
				got := ""
				if ok && strings.TrimSpace(rest) == "" {
					b, _ := json.Marshal(v)
					got = string(b)
				}
				if got != g.want {
					t.Errorf("%s read %s as %q, want %q", g.name, tc.text, got, g.want)
				}
			}
		})
	}
}

// pyCalls finds a class's reprs wherever they stand in a printed text, passing over other
// classes whose names end alike; one cut short by the text's end gives the fields before the
// cut.
func TestPyCallsFindsAClassesReprs(t *testing.T) {
	text := "[MyFunctionCall(id='x'), FunctionCall(id='c1', arguments='{}', name='f'), FunctionCall(id='c2', arguments='{\"a\": 1}', name='g'), FunctionCall(id='c3', name='h', arguments='{\"cut"
	got := pyCalls(text, "FunctionCall")
	want := []map[string]any{
		{"id": "c1", "arguments": "{}", "name": "f", "type": "FunctionCall"},
		{"id": "c2", "arguments": `{"a": 1}`, "name": "g", "type": "FunctionCall"},
		{"id": "c3", "name": "h"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pyCalls read\n %v\nwant\n %v", got, want)
	}
}

// Whatever pyLiteral reads, pyRepr reads alike (a literal is a repr), and every value read is
// JSON.
func FuzzPyLiteral(f *testing.F) {
	for _, s := range []string{
		`{'a': 1, 'b': [1, 2.5, None, True], 'c': ('x' 'y',)}`,
		`TaskResult(messages=[TextMessage(source='user', content='x')], stop=None)`,
		`[{'error': 'x'}, <o at 0x1>, datetime.timezone.utc, -inf]`,
		`{1: 'a', "k": "\u00e9\x41"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lv, lrest, lok := pyLiteral(s)
		rv, rrest, rok := pyRepr(s)
		if lok && (!rok || lrest != rrest || !reflect.DeepEqual(lv, rv)) {
			t.Fatalf("%q: literal %v (rest %q), repr %v %v (rest %q)", s, lv, lrest, rv, rok, rrest)
		}
		if rok {
			if _, err := json.Marshal(rv); err != nil {
				t.Fatalf("%q read as %v, which is no JSON: %v", s, rv, err)
			}
		}
	})
}
