package resolve

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
)

func TestZZScratch(t *testing.T) {
	tools, _ := sample.Tools()
	byID := map[string]int{}
	for i, m := range tools { byID[m.ID] = i }
	for _, c := range [][2]string{
		{"system/current_time", "what time is it in Tokyo"},
		{"system/current_time", "what time is it in New York"},
		{"system/current_time", "what time is it in Atlantis"},
		{"system/current_time", "time in Europe/Paris"},
		{"files/find", "find files"},
		{"files/find", "find files called notes in /home"},
		{"files/find", "find the log files in /var/log"},
		{"system/disk_usage", "show me the disk usage of /tmp"},
		{"weather/forecast", "weather in Lisbon for 3 days"},
		{"files/head", "first 12 lines of /etc/passwd please"},
		{"net/resolve_host", "resolve example.com"},
		{"system/uptime", "uptime of server Zeus"},
		{"system/current_time", "what's the time in são paulo"},
		{"system/current_time", "Tokyo time please"},
		{"system/current_time", "time in Japan"},
		{"files/find", "find files called notes under /home"},
		{"files/find", "search /etc for files named \"hosts\""},
		{"files/head", "Show me the first 10 lines of /etc/passwd"},
		{"system/process_list", "list the top 5 processes by memory"},
		{"weather/forecast", "What will the weather be like in Paris tomorrow?"},
		{"text/word_count", "count the words in 'To be or not to be'"},
		{"email/send", "send an email to bob@example.com saying the build is green"},
		{"net/resolve_host", "what is the IP address of github.com"},
		{"files/checksum", "sha256 of /usr/bin/env"},
		{"files/list_directory", "ls /tmp"},
		{"system/disk_usage", "How much space does /var/log use on Linux"},
	} {
		m := tools[byID[c[0]]]
		call, err := Resolve(context.Background(), routed(c[1]), m)
		fmt.Printf("%-22s %-40q -> %v unmapped=%v err=%v\n", c[0], c[1], call.Parameters, call.Unmapped, err)
	}
}
