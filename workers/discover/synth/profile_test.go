package synth

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
)

// heapDir, when set, receives a heap profile of each benchmarked engine
// right after it is built (heap-SIZE-MODE.prof): where a large registry's
// memory goes.
var heapDir = flag.String("heapdir", "", "directory for heap profiles taken after each Discovery build")

func writeHeapProfile(b *testing.B, name string) {
	if *heapDir == "" {
		return
	}
	f, err := os.Create(filepath.Join(*heapDir, "heap-"+name+".prof"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// peakRSS is the process's peak resident set in bytes (VmHWM), 0 where
// /proc does not tell.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
