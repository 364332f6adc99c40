package discover

import (
	"context"
	"slices"
	"testing"
)

func TestDescribedCommands(t *testing.T) {
	tests := []struct {
		description string
		want        []string
	}{
		{"Show total, used and free memory (RAM) and swap (free -h).", []string{"free"}},
		{"Show the user and groups the tools run as (id).", []string{"id"}},
		{"List the files of a directory (ls -la), or (ls --all) of a path.", []string{"ls"}},
		{"Find files by name (find -name); count them (wc -l)", []string{"find", "wc"}},
		// A gloss inside a sentence, a path, an example, an abbreviation,
		// words that are no command line.
		{"Compute a checksum (hash) of a file.", nil},
		{"Look up a host (/etc/hosts, then DNS).", nil},
		{"Convert units (e.g. km to miles).", nil},
		{"Show memory (RAM).", nil},
		{"Search the web (results ranked by relevance).", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := describedCommands(tt.description); !slices.Equal(got, tt.want) {
			t.Errorf("describedCommands(%q) = %q, want %q", tt.description, got, tt.want)
		}
	}
}

// A request written as a command line names the tool whose description
// says it runs that command, even where the command is an ordinary word
// another tool's name holds; the same word in a sentence is left to the
// words.
func TestCommandNamed(t *testing.T) {
	e := hybridEngine(t, describedTools(
		[3]string{"sys/disk_free", "Free disk space", "Show the free and used space of mounted filesystems (df -h)."},
		[3]string{"sys/memory", "Memory usage", "Show total, used and free memory and swap (free -h)."},
		[3]string{"files/head", "First lines", "Show the first lines of a text file (head -n)."},
	))
	tests := []struct {
		request string
		want    string // the first tool
		named   bool   // the first tool is named by its command
	}{
		{"free -h", "sys/memory", true},
		{" free\t-m ", "sys/memory", true},
		{"free -m", "sys/memory", true},
		{"free", "sys/memory", true},
		{"head -n 5 /etc/passwd", "files/head", true},
		{"head notes.txt", "files/head", true},
		{"df -h", "sys/disk_free", true},
		{"free disk space", "sys/disk_free", false},
		{"show the free memory", "sys/memory", false},
	}
	for _, tt := range tests {
		cs, err := e.Search(context.Background(), tt.request, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || cs[0].ToolID != tt.want {
			t.Errorf("%q: ranked %v, want %s first", tt.request, ids(cs), tt.want)
			continue
		}
		e.mu.RLock()
		named := slices.Contains(e.commandNamed(tt.request), e.tools[tt.want].names[0])
		e.mu.RUnlock()
		if named != tt.named {
			t.Errorf("%q: named by its command = %v, want %v", tt.request, named, tt.named)
		}
	}
}

// Removing a tool forgets its command.
func TestCommandsFollowTheRegistry(t *testing.T) {
	e := hybridEngine(t, describedTools(
		[3]string{"sys/memory", "Memory usage", "Show free memory and swap (free -h)."},
	))
	if err := e.Remove("sys/memory"); err != nil {
		t.Fatal(err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if m := e.commandNamed("free -h"); len(m) != 0 || len(e.stats.commands) != 0 {
		t.Errorf("after Remove: named %v, commands %v", m, e.stats.commands)
	}
}
