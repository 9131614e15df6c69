package cloudformation

import (
	"os"
	"testing"
)

// Whatever a file holds, reading it as a template ends with a design or an error, never a panic.
func FuzzImport(f *testing.F) {
	src, err := os.ReadFile("testdata/deployed.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte(`{"AWSTemplateFormatVersion": "x", "Resources": {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {"TableName": {"Fn::Select": [9, []]}}}}}`))
	f.Add([]byte("AWSTemplateFormatVersion: x\nResources: !If [a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if Looks(data) {
			_, _, _ = Import(data)
		}
	})
}
