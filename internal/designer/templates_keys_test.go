package designer_test

import (
	"slices"
	"testing"

	"dynaloom/internal/designer"
)

func TestTemplateAttributes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tmpl string
		want []string
	}{
		{"USER#{user_id}", []string{"user_id"}},
		{"ORDER#{created_at}#{order_id}", []string{"created_at", "order_id"}},
		{"{a}#{b}#{a}", []string{"a", "b"}},
		{"PROFILE", nil},
		{"odd{ {} }braces{x", nil},
		{"{{id}}", []string{"id"}},
	} {
		if got := designer.TemplateAttributes(tc.tmpl); !slices.Equal(got, tc.want) {
			t.Errorf("TemplateAttributes(%q) = %q, want %q", tc.tmpl, got, tc.want)
		}
	}
}

func TestFillTemplate(t *testing.T) {
	t.Parallel()
	it := designer.Item{
		"user_id":    designer.Str("u-42"),
		"created_at": designer.Str("2024-05-01"),
		"order_id":   designer.Num("7"),
		"raw":        designer.Bin([]byte{1, 2}),
		"tags":       designer.Value{Type: designer.SS, SS: []string{"a"}},
	}
	for _, tc := range []struct {
		tmpl string
		want string
		ok   bool
	}{
		{"USER#{user_id}", "USER#u-42", true},
		{"ORDER#{created_at}#{order_id}", "ORDER#2024-05-01#7", true},
		{"PROFILE", "PROFILE", true},
		{"BIN#{raw}", "BIN#AQI=", true},
		{"USER#{missing}", "", false},
		{"TAG#{tags}", "", false},
	} {
		got, ok := designer.FillTemplate(tc.tmpl, it)
		if got != tc.want || ok != tc.ok {
			t.Errorf("FillTemplate(%q) = %q, %v; want %q, %v", tc.tmpl, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMatchTemplate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tmpl, value string
		want        bool
	}{
		{"USER#{user_id}", "USER#42", true},
		{"USER#{user_id}", "USER#", false},
		{"USER#{user_id}", "ORDER#42", false},
		{"USER#{user_id}", "user#42", false},
		{"ORDER#{created_at}#{order_id}", "ORDER#2024-05-01#o1", true},
		{"ORDER#{created_at}#{order_id}", "ORDER#2024#05#o1", true},
		{"ORDER#{created_at}#{order_id}", "ORDER##o1", false},
		{"ORDER#{created_at}#{order_id}", "ORDER#a#", false},
		{"ORDER#{created_at}#{order_id}", "ORDER#a", false},
		{"PROFILE", "PROFILE", true},
		{"PROFILE", "XPROFILE", false},
		{"PROFILE", "PROFILEX", false},
		{"{a}{b}", "x", false},
		{"{a}{b}", "xy", true},
		{"{a}#{b}#", "x##", false},
		{"{a}#{b}#", "x#y#", true},
		{"A#{x}#B", "A##B#B", true},
		{"A#{x}#B", "A#B", false},
		{"{id}", "", false},
		{"{id}", "anything", true},
		{"", "", true},
		{"", "x", false},
		{"a{b", "a{b", true},
		{"{}x", "{}x", true},
		{"#{a}#", "#x#y#", true},
	} {
		if got := designer.MatchTemplate(tc.tmpl, tc.value); got != tc.want {
			t.Errorf("MatchTemplate(%q, %q) = %v, want %v", tc.tmpl, tc.value, got, tc.want)
		}
	}
}

// TestMatchTemplate_acceptsWhatFillTemplateBuilds checks the two agree whatever the values hold,
// including the template's own literal text.
func TestMatchTemplate_acceptsWhatFillTemplateBuilds(t *testing.T) {
	t.Parallel()
	tmpl := "ORDER#{a}#{b}#END"
	for _, a := range []string{"x", "#", "END", "#END#", "ORDER#"} {
		for _, b := range []string{"y", "#", "END", "##"} {
			value, ok := designer.FillTemplate(tmpl, designer.Item{"a": designer.Str(a), "b": designer.Str(b)})
			if !ok || !designer.MatchTemplate(tmpl, value) {
				t.Errorf("MatchTemplate(%q, %q) = false for a=%q b=%q", tmpl, value, a, b)
			}
		}
	}
}
