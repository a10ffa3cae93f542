package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

func TestScopeIDLeavesOutOnlyTheValuesOfScopeOptions(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool // both have a scopeID, and it is one
	}{
		{"grep's context, attached", `{"cmd":"cat pom.xml | grep -E \"a|b\" -B100 -A100 | head -200"}`, `{"cmd":"cat pom.xml | grep -E \"a|b\" -B150 -A150 | head -300"}`, true},
		{"grep's context, apart", `{"command":"grep -C 5 TODO src/a.py"}`, `{"command":"grep -C 20 TODO src/a.py"}`, true},
		{"find's depth", `{"cmd":"find /tmp -maxdepth 5 -name \"pom.xml\" | xargs grep -l x"}`, `{"cmd":"find /tmp -maxdepth 9 -name \"pom.xml\" | xargs grep -l x"}`, true},
		{"tail's lines", "tail -n 50 app.log", "tail -n 80 app.log", true},
		{"head's old form", `{"command":"head -20 a.txt"}`, `{"command":"head -40 a.txt"}`, true},
		{"git log's count", `{"command":"git log -n 5 --oneline"}`, `{"command":"git log -n 9 --oneline"}`, true},
		{"a container's log tail", `{"command":"docker logs --tail=50 web"}`, `{"command":"docker logs --tail=200 web"}`, true},
		{"another file is another question", `{"command":"grep -C 5 TODO a.py"}`, `{"command":"grep -C 20 TODO b.py"}`, false},
		{"another pattern is another question", `{"command":"grep -A 3 foo a.py"}`, `{"command":"grep -A 3 bar a.py"}`, false},
		{"grep's -n takes no value: the number after it is the pattern", `{"command":"grep -n 5 f"}`, `{"command":"grep -n 6 f"}`, false},
		{"git show's -5 is no log's count", `{"command":"git show -5"}`, `{"command":"git show -6"}`, false},
		{"a namespace is no count", `{"command":"kubectl get pods -n kube-system"}`, `{"command":"kubectl get pods -n default"}`, false},
		{"an id is no scope", `{"command":"kill 4242"}`, `{"command":"kill 4243"}`, false},
		{"nor a port", `{"command":"curl -s localhost:8001/health"}`, `{"command":"curl -s localhost:8002/health"}`, false},
		{"an option inside quotes is the pattern's", `{"command":"grep \"-A 5\" notes.txt"}`, `{"command":"grep \"-A 6\" notes.txt"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := scopeID("bash", []byte(tt.a)), scopeID("bash", []byte(tt.b))
			if got := a != 0 && a == b; got != tt.same {
				t.Errorf("scopeID(%s) = %x, scopeID(%s) = %x: one question %v, want %v", tt.a, a, tt.b, b, got, tt.same)
			}
		})
	}
}

func TestAWiderLookAnsweredTheSameIsTheSameCall(t *testing.T) {
	const pom = "<project>\n  <parent>\n    <artifactId>izgateway</artifactId>\n  </parent>\n</project>\n"
	grep := func(n int, answer string) step {
		return ok("execute_bash", fmt.Sprintf(`{"cmd":"cat pom.xml | grep -E \"parent\" -B%d -A%d | head -%d"}`, n, n, 2*n), answer)
	}
	var wider, growing, batch []step
	for i := 1; i <= 4; i++ {
		wider = append(wider, grep(100*i, pom))
		growing = append(growing, grep(i, strings.Repeat("line of the file\n", i)+pom))
		batch = append(batch, ok("bash", fmt.Sprintf(`{"command":"kill %d"}`, 4000+i), ""))
	}
	runProgressCasesRestoredToo(t, []progressCase{
		{"the whole file again at every widening is told at the third", wider, []string{"2:stuck:execute_bash × 3"}},
		{"a widening that shows more each time is reading on", growing, nil},
		{"a batch over ids answered alike is a batch", batch, nil},
		{"a widening after an edit is a new look",
			[]step{wider[0], wider[1], ok("Edit", `{"file_path":"pom.xml","old_string":"a","new_string":"b"}`, "ok"), wider[2], wider[3]}, nil},
	})
}
