package cdkts

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// The stack is checked where it counts in test/cdk: cdk synth turns it into a template that must
// equal the CloudFormation export. These tests pin the file's text.

func TestExport_golden(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("punch-lists")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/punch-lists-stack.ts.golden", got)
	got, err = Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/orders-stack.ts.golden", got)
}

func TestExport_headerListsWhatIsLeftOut(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	d.Name = "two\nlines\u2028*/"
	src, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(src), "\n")
	if first != "// Amazon DynamoDB tables of the Dynaloom design “two lines */”, as an AWS CDK stack (aws-cdk-lib 2, TableV2)." {
		t.Fatalf("first line = %q", first)
	}
	want := []string{"13 access patterns and their mappings to operations", "4 sample items"}
	if left := LeftOut(d); !slices.Equal(left, want) {
		t.Fatalf("LeftOut = %q, want %q", left, want)
	}
	for _, l := range want {
		if !strings.Contains(string(src), "\n// - "+l+"\n") {
			t.Errorf("the file's comment lacks %q", l)
		}
	}
}

func TestStr_isAStringLiteralForAnyName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`it's "x"`:      `"it's \"x\""`,
		"a\nb\u2028c":   `"a\nb\u2028c"`,
		"${x} `y` <b>&": "\"${x} `y` <b>&\"",
	} {
		if got := str(in); got != want {
			t.Errorf("str(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestExport_refusesWhatDynamoDBWouldRefuse(t *testing.T) {
	t.Parallel()
	for _, tc := range designertest.TableErrorCases() {
		t.Run(tc.Name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			tc.Edit(&d)
			out, err := Export(d)
			if out != nil {
				t.Fatalf("an export came back with the error %v", err)
			}
			designertest.WantValidationError(t, err, tc.Field)
		})
	}
	_, err := Export(designer.Design{Name: "empty"})
	designertest.WantValidationError(t, err, "tables")
}
