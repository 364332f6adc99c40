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
	} {
		m := tools[byID[c[0]]]
		call, err := Resolve(context.Background(), routed(c[1]), m)
		fmt.Printf("%-22s %-40q -> %v err=%v\n", c[0], c[1], call.Parameters, err)
	}
}
