package cloudformation

import (
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation/dynamodb"

	"dynaloom/internal/designer/designertest"
)

func TestExportYAML_saysWhatItLeavesOutAndParses(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	out, err := ExportYAML(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "# Left out of this template") {
		t.Errorf("the YAML does not start with what it leaves out:\n%.300s", out)
	}
	for _, l := range LeftOut(d) {
		if !strings.Contains(string(out), "#   - "+l+"\n") {
			t.Errorf("the YAML does not list %q", l)
		}
	}
	// The same template with the SAM transform must still parse, as a SAM template.
	sam := strings.Replace(string(out), "AWSTemplateFormatVersion:", "Transform: AWS::Serverless-2016-10-31\nAWSTemplateFormatVersion:", 1)
	for name, src := range map[string]string{"plain": string(out), "sam": sam} {
		tpl, err := goformation.ParseYAML([]byte(src))
		if err != nil {
			t.Fatalf("%s: goformation cannot parse the YAML: %v", name, err)
		}
		tables := 0
		for id, r := range tpl.Resources {
			tb, ok := r.(*dynamodb.Table)
			if !ok {
				continue
			}
			tables++
			if tb.AWSCloudFormationDeletionPolicy != "Retain" || tb.AWSCloudFormationUpdateReplacePolicy != "Retain" {
				t.Errorf("%s: %s has DeletionPolicy %q, UpdateReplacePolicy %q; want Retain", name, id, tb.AWSCloudFormationDeletionPolicy, tb.AWSCloudFormationUpdateReplacePolicy)
			}
		}
		if tables != len(d.Tables) {
			t.Errorf("%s: %d tables, want %d", name, tables, len(d.Tables))
		}
	}
}
