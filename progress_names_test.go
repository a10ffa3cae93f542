package loopguard

import (
	"fmt"
	"testing"
)

// A tool waits, or lets time pass, when a word of its name says so, not when the letters of
// such a word hide inside another (validation round r92c M2: search_waiting_list_by_rut).
func TestToolNamesThatWaitAreReadWordByWord(t *testing.T) {
	tests := []struct {
		tool          string
		waits, pauses bool
	}{
		{"sleep", true, true},
		{"wait_for_deployment", true, true},
		{"WaitForJob", true, true},
		{"awaitResult", true, true},
		{"ScheduleWakeup", true, true},
		{"schedule", true, true},
		{"set_timer", true, true},
		{"TaskOutput", true, false},
		{"BashOutput", true, false},
		{"check_ci_status", true, false},
		{"TaskStatus", true, false},
		{"Monitor", true, false},
		{"ReadNotifications", true, false},
		{"read_bash", true, false},
		{"search_waiting_list_by_rut", false, false},
		{"get_waiting_list", false, false},
		{"get_schedule", false, false},
		{"schedule_meeting", false, false},
		{"write_output_file", false, false},
		{"statusline_config", false, false},
	}
	for _, tt := range tests {
		if got := waitsByName(tt.tool); got != tt.waits {
			t.Errorf("waitsByName(%q) = %v, want %v", tt.tool, got, tt.waits)
		}
		if got := pausesByName(tt.tool); got != tt.pauses {
			t.Errorf("pausesByName(%q) = %v, want %v", tt.tool, got, tt.pauses)
		}
	}
}

// The same search answered alike three times is stuck, whatever word its name holds
// (r92c M2: a hospital's search_waiting_list_by_rut was taken for a wait, never told).
func TestSearchNamedForAWaitingListIsNoPoll(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	e, _ := New(cfg)
	var got []string
	for i := 0; i < 3; i++ {
		for _, n := range e.Observe(Call("a", "search_waiting_list_by_rut", []byte(`{"rut":"12.345.678-9"}`)).WithResult(`{"results": [], "message": "No patients found for this RUT"}`, false)) {
			got = append(got, fmt.Sprintf("%d:%s:%s", i, n.Kind, n.Summary))
		}
	}
	if len(got) != 1 || got[0] != "2:stuck:search_waiting_list_by_rut × 3" {
		t.Errorf("notices %q, want the third search told stuck", got)
	}
}
