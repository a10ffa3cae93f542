package loopguard

import "testing"

func TestCompileRefusedKnowsAScriptThatNeverRan(t *testing.T) {
	tests := []struct {
		name, answer string
		want         bool
	}{
		{"a syntax error of the script run", "File \"/workspace/./build_model.py\", line 27\n    ``` \n    ^\nSyntaxError: invalid syntax", true},
		{"an indentation error, indented as a shell prints it", "  File \"/w/x.py\", line 3\n    return 1\n    ^\nIndentationError: unexpected indent\n", true},
		{"the error alone", "SyntaxError: invalid syntax", true},
		{"a syntax error raised by an import, after code ran", "Traceback (most recent call last):\n  File \"/w/x.py\", line 1, in <module>\n    import y\n  File \"/w/y.py\", line 2\n    x =\n      ^\nSyntaxError: invalid syntax", false},
		{"a runtime error", "Traceback (most recent call last):\n  File \"/w/x.py\", line 4, in <module>\nKeyError: 'label'", false},
		{"output before the error: something ran", "rows: 120\nloading model\nFile \"/w/x.py\", line 2\nSyntaxError: invalid syntax", false},
		{"a SyntaxError named in other words", "The report says SyntaxError: invalid syntax was fixed", false},
		{"nothing", "", false},
	}
	for _, tt := range tests {
		if got := compileRefused(tt.answer); got != tt.want {
			t.Errorf("%s: compileRefused(%q) = %v, want %v", tt.name, tt.answer, got, tt.want)
		}
	}
}

func TestInstalledNothingKnowsAnInstallThatChangedNothing(t *testing.T) {
	const satisfied = "Requirement already satisfied: pandas in /usr/local/lib/python3.9/site-packages (2.2.2)\n" +
		"Requirement already satisfied: numpy>=1.22.4 in /usr/local/lib/python3.9/site-packages (from pandas) (1.26.4)\n" +
		"WARNING: Running pip as the 'root' user can result in broken permissions"
	tests := []struct {
		name, args, answer string
		want               bool
	}{
		{"pip, everything there already", `{"command":"pip install pandas --upgrade"}`, satisfied, true},
		{"pip, one package installed among those there", `{"command":"pip install pandas seaborn"}`,
			satisfied + "\nInstalling collected packages: seaborn\nSuccessfully installed seaborn-0.13.2", false},
		{"pip run by python -m, as a command line that is no JSON", "python3 -m pip install -q pandas", satisfied, true},
		{"uv's pip", `{"command":"uv pip install pandas"}`, satisfied, true},
		{"apt, nothing newly installed", `{"command":"sudo apt-get install -y git"}`,
			"Reading package lists...\ngit is already the newest version (1:2.39.2-1.1).\n0 upgraded, 0 newly installed, 0 to remove and 3 not upgraded.", true},
		{"apt, a package installed", `{"command":"apt-get install -y default-jdk"}`,
			"Reading package lists...\n0 upgraded, 1 newly installed, 0 to remove and 3 not upgraded.\nSetting up default-jdk (2:1.17-74) ...", false},
		{"npm, the project's packages all there", `{"command":"npm install"}`, "\nup to date, audited 212 packages in 1s\n\nfound 0 vulnerabilities", true},
		{"apt, ten upgraded", `{"command":"apt-get install -y git"}`, "10 upgraded, 0 newly installed, 0 to remove and 3 not upgraded.", false},
		{"npm install of a package, up to date", `{"command":"npm install lodash"}`, "\nup to date, audited 213 packages in 1s", true},
		{"npm, a package added", `{"command":"npm i lodash"}`, "\nadded 1 package, and audited 213 packages in 2s", false},
		{"conda, all there", `{"command":"conda install -y numpy"}`, "Collecting package metadata: done\n# All requested packages already installed.", true},
		{"an install and then a build on one line: the build may write", `{"command":"pip install pandas && python setup.py develop"}`, satisfied, false},
		{"a look at a package, not an install", `{"command":"pip show pandas"}`, satisfied, false},
		{"an install answered otherwise", `{"command":"pip install pandas"}`, "ERROR: Could not find a version that satisfies the requirement pandas", false},
		// uv and poetry (r258e)
		{"uv sync with nothing to do", `{"command":"uv sync --all-extras 2>&1"}`, "Resolved 126 packages in 3ms\nAudited in 0.01ms", true},
		{"uv sync that installed", `{"command":"uv sync"}`, "Resolved 126 packages in 499ms\nPrepared 4 packages in 283ms\nInstalled 35 packages in 63ms\n + anyio==4.12.1", false},
		{"uv sync that uninstalled", `{"command":"uv sync 2>&1"}`, "Resolved 126 packages in 499ms\nUninstalled 118 packages in 2.62s\n - aiohttp==3.13.3\nAudited in 0.2ms", false},
		{"uv's pip, already there", `{"command":"uv pip install pandas"}`, "Audited 1 package in 2ms", true},
		{"poetry, nothing to do", `{"command":"poetry install"}`, "Installing dependencies from lock file\n\nNo dependencies to install or update", true},
		{"a sync of something else", `{"command":"git sync"}`, "Audited in 0.01ms", false},
		{"the output sent elsewhere too", `{"command":"uv sync 2>&1 | tail -3"}`, "Audited in 0.01ms", false},
	}
	for _, tt := range tests {
		if got := installedNothing([]byte(tt.args), tt.answer); got != tt.want {
			t.Errorf("%s: installedNothing(%s) = %v, want %v", tt.name, tt.args, got, tt.want)
		}
	}
}
