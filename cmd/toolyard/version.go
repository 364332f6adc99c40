package main

import (
	"runtime/debug"
	"strings"
)

// buildVersion names this build: the module version ("(devel)" for a build
// from a checkout), the commit and whether the tree had changes, from what
// the Go toolchain records. --version prints it and the MCP gateway
// announces it (MCP clients are told a server version).
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	parts := []string{info.Main.Version}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		parts = append(parts, rev)
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "(modified)")
		}
	}
	parts = append(parts, info.GoVersion)
	return strings.Join(parts, " ")
}
