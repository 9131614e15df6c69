package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"dynaloom/internal/designer/rules"
)

// writeReports writes the designs' findings in the format --format names.
func writeReports(w io.Writer, outFormat string, reports []designReport) error {
	switch outFormat {
	case "json":
		return writeJSON(w, reports)
	case "sarif":
		return writeSARIF(w, reports)
	case "github":
		writeAnnotations(w, reports)
	default:
		for _, r := range reports {
			writeFindings(w, r.name, r.findings)
		}
	}
	return nil
}

// writeFindings prints one line per finding, most severe first, under a count of each severity;
// a finding a file holds starts with its file and line, as compilers print them.
func writeFindings(w io.Writer, what string, findings []located) {
	counts := map[string]int{}
	for _, f := range findings {
		counts[f.Severity]++
	}
	fmt.Fprintf(w, "%s: %s, %s, %s\n", what, plural(counts[rules.SeverityError], "error"),
		plural(counts[rules.SeverityWarning], "warning"), plural(counts[rules.SeverityInfo], "advice"))
	for _, f := range findings {
		where := ""
		switch {
		case f.Line > 0:
			where = fmt.Sprintf("%s:%d: ", f.File, f.Line)
		case f.File != "":
			where = f.File + ": "
		}
		fmt.Fprintf(w, "%s%-7s %-6s %s: %s\n", where, f.Severity, f.Code, f.Path, f.Message)
	}
}

// writeJSON writes one design's report as the HTTP API gives it, its findings with their file and
// line; several designs are an array of them, each with the files it was read from.
func writeJSON(w io.Writer, reports []designReport) error {
	type out struct {
		Design string `json:"design,omitempty"`
		rules.Report
		Findings []located `json:"findings"`
	}
	all := make([]out, len(reports))
	for i, r := range reports {
		all[i] = out{Design: r.name, Report: r.report, Findings: r.findings}
	}
	var v any = all
	if len(all) == 1 {
		all[0].Design = ""
		v = all[0]
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// sarifLevel is SARIF's name for a severity.
func sarifLevel(severity string) string {
	switch severity {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes one SARIF 2.1.0 run of all the designs' findings, for code scanning: each
// result names its rule, its level, the file and line it came from where a file holds it, and the
// design path it is about.
func writeSARIF(w io.Writer, reports []designReport) error {
	type region struct {
		StartLine int `json:"startLine"`
	}
	type physical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *region `json:"region,omitempty"`
	}
	type location struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type text struct {
		Text string `json:"text"`
	}
	type result struct {
		RuleID     string            `json:"ruleId"`
		Level      string            `json:"level"`
		Message    text              `json:"message"`
		Locations  []location        `json:"locations,omitempty"`
		Properties map[string]string `json:"properties"`
	}
	type rule struct {
		ID string `json:"id"`
	}
	var results []result
	ruleList := []rule{}
	seen := map[string]bool{}
	for _, r := range reports {
		for _, f := range r.findings {
			if !seen[f.Code] {
				seen[f.Code] = true
				ruleList = append(ruleList, rule{ID: f.Code})
			}
			res := result{RuleID: f.Code, Level: sarifLevel(f.Severity), Message: text{Text: f.Message},
				Properties: map[string]string{"path": f.Path, "design": r.name}}
			if f.File != "" {
				var loc location
				loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(f.File)
				if f.Line > 0 {
					loc.PhysicalLocation.Region = &region{StartLine: f.Line}
				}
				res.Locations = []location{loc}
			}
			results = append(results, res)
		}
	}
	if results == nil {
		results = []result{}
	}
	log := map[string]any{
		"version": "2.1.0",
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "dynaloom", "rules": ruleList,
			}},
			"results": results,
		}},
	}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// sarifURI is a file's name as a SARIF artifact URI: relative, with forward slashes.
func sarifURI(name string) string {
	return strings.TrimPrefix(strings.ReplaceAll(name, "\\", "/"), "./")
}

// writeAnnotations writes one GitHub Actions workflow command per finding, so that each shows on
// its file and line in the pull request: ::error file=…,line=…,title=CODE::message.
func writeAnnotations(w io.Writer, reports []designReport) {
	for _, r := range reports {
		for _, f := range r.findings {
			level := map[string]string{rules.SeverityError: "error", rules.SeverityWarning: "warning"}[f.Severity]
			if level == "" {
				level = "notice"
			}
			var props []string
			if f.File != "" {
				props = append(props, "file="+annotationProperty(f.File))
				if f.Line > 0 {
					props = append(props, fmt.Sprintf("line=%d", f.Line))
				}
			}
			props = append(props, "title="+annotationProperty(f.Code+" "+f.Path))
			fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), annotationData(f.Message))
		}
	}
}

// annotationData escapes a workflow command's message as the runner reads it.
func annotationData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// annotationProperty escapes a workflow command's property value.
func annotationProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
