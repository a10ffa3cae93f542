package loopguard

import (
	"fmt"
	"testing"
)

// rewrittenScript is DA-Agent's action that saves a script and runs it, its code another try
// each time (i), answered by answer.
func rewrittenScript(i int, answer string) step {
	return ok("Python", fmt.Sprintf("Python(file_path=\"./load_data.py\"):\n```python\nimport pandas as pd\ndf = pd.read_csv('frog_tongue.csv', skiprows=[%d])\nprint(df.head())\n```", i), answer)
}

func TestAnInstallThatInstalledNothingLeavesAFailureChainAsItWas(t *testing.T) {
	const parserError = "Traceback (most recent call last):\n  File \"/workspace/./load_data.py\", line 2, in <module>\n" +
		"    df = pd.read_csv('frog_tongue.csv')\npandas.errors.ParserError: Error tokenizing data. C error: Expected 5 fields in line 15, saw 15"
	install := func(answer string) step { return ok("Bash", `{"command":"pip install pandas --upgrade"}`, answer) }
	runProgressCases(t, []progressCase{
		{"an install that found everything there already: the fourth failure is told",
			[]step{rewrittenScript(1, parserError), rewrittenScript(2, parserError), rewrittenScript(3, parserError),
				install("Requirement already satisfied: pandas in /usr/local/lib/python3.9/site-packages (2.2.2)"),
				rewrittenScript(4, parserError)},
			[]string{"4:errors:Python failed × 4"}},
		{"the same run, an install that found everything there between: nothing changed, stuck at the third",
			[]step{rewrittenScript(1, parserError), rewrittenScript(1, parserError),
				install("Requirement already satisfied: pandas in /usr/local/lib/python3.9/site-packages (2.2.2)"),
				rewrittenScript(1, parserError)},
			[]string{"3:stuck:Python × 3"}},
		{"the same run, an install that installed something between: a change, so no run stuck",
			[]step{rewrittenScript(1, parserError), rewrittenScript(1, parserError),
				install("Collecting pandas\nInstalling collected packages: pandas\nSuccessfully installed pandas-2.2.3"),
				rewrittenScript(1, parserError)},
			nil},
	})
}
