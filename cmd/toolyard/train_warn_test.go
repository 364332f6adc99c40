package main

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// train warns when most records name tools the registry does not have,
// and only then.
func TestWarnUnregistered(t *testing.T) {
	tools := []schemas.Manifest{{ID: "files/checksum"}, {ID: "system/uptime"}}
	rec := func(id string) schemas.AuditRecord { return schemas.AuditRecord{ToolID: id} }
	tests := []struct {
		name string
		recs []schemas.AuditRecord
		want string // "" for no warning
	}{
		{"all registered", []schemas.AuditRecord{rec("files/checksum"), rec("system/uptime")}, ""},
		{"meta tools and no tool are not counted", []schemas.AuditRecord{rec("toolyard/activate"), rec(""), rec("files/checksum")}, ""},
		{"half missing", []schemas.AuditRecord{rec("files/checksum"), rec("ResumeTool")}, ""},
		{"history of another registry", []schemas.AuditRecord{rec("ResumeTool"), rec("WeatherTool"), rec("files/checksum")}, "2 of the 3 records that name a tool name one the registry does not have (ResumeTool, WeatherTool, …)"},
		{"no records", nil, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		warnUnregistered(&b, tt.recs, tools)
		if tt.want == "" && b.Len() > 0 || tt.want != "" && !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}
