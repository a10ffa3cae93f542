package loopguard

import (
	"reflect"
	"regexp"
	"slices"
	"testing"
)

// Every locale says every notice, with the same placeholders as English: a text missing in
// one locale would reach the model as an empty notice, and a placeholder missing would drop
// what was seen (the tool, the count) from it.
func TestEveryLocaleHasEveryTextWithItsPlaceholders(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z]+\}`)
	holes := func(s string) []string {
		h := placeholder.FindAllString(s, -1)
		slices.Sort(h)
		return slices.Compact(h)
	}
	en := reflect.ValueOf(*catalogues["en"])
	for locale, c := range catalogues {
		v := reflect.ValueOf(*c)
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if v.Field(i).Kind() != reflect.String {
				continue
			}
			got := v.Field(i).String()
			if got == "" {
				t.Errorf("%s: %s is empty", locale, name)
				continue
			}
			if want := holes(en.Field(i).String()); !slices.Equal(holes(got), want) {
				t.Errorf("%s: %s has placeholders %q, English %q", locale, name, holes(got), want)
			}
		}
	}
}
