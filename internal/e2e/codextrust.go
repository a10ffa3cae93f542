package e2e

import (
	"sort"
	"strings"

	"github.com/loopguard/loopguard/internal/install"
)

// Codex hook trust: the algorithm lives in internal/install (codextrust.go),
// which `loopguard install codex` uses; these adapt it to HooksConfig.

// CodexTrustedHash returns the trusted_hash Codex expects for h, declared
// under event in a matcher group with the given matcher (nil: none).
func CodexTrustedHash(event string, matcher *string, h HookHandler) string {
	return install.CodexTrustedHash(event, matcher, install.CodexHandler{
		Command: h.Command, Timeout: h.Timeout, StatusMessage: h.StatusMessage})
}

// CodexTrustState returns config.toml text that marks every handler of cfg,
// declared in the hooks.json at hooksPath, as trusted. A HookGroup's empty
// Matcher is treated as absent, as HooksFileJSON writes it.
func CodexTrustState(hooksPath string, cfg HooksConfig) string {
	events := make([]string, 0, len(cfg))
	for ev := range cfg {
		events = append(events, ev)
	}
	sort.Strings(events)
	var b strings.Builder
	for _, ev := range events {
		for gi, g := range cfg[ev] {
			var matcher *string
			if g.Matcher != "" {
				m := g.Matcher
				matcher = &m
			}
			for hi, h := range g.Hooks {
				b.WriteString("\n")
				b.WriteString(install.CodexTrustTable(install.CodexHookKey(hooksPath, ev, gi, hi), CodexTrustedHash(ev, matcher, h)))
			}
		}
	}
	return b.String()
}
