package vecindex

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	ns := os.Getenv("EXPLORE_N")
	if ns == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(ns)
	if tp, _ := strconv.Atoi(os.Getenv("EXPLORE_TOPICS")); tp > 0 {
		synthTopics = tp
	}
	keepPruned = os.Getenv("EXPLORE_KEEP") != ""
	m, _ := strconv.Atoi(os.Getenv("EXPLORE_M"))
	if m == 0 {
		m = 16
	}
	d := sharedDataset(n, 200, 100)
	ids := d.ids()
	ex, _ := NewExact(100, WithWorkers(1))
	for i := range n {
		ex.Put(ids[i], d.vec(i))
	}
	// stats
	var top1, top10 float64
	truth := make([][]Hit, d.nq())
	t0 := time.Now()
	for i := range d.nq() {
		truth[i], _ = ex.Search(d.query(i), 10, nil)
		top1 += float64(truth[i][0].Score)
		top10 += float64(truth[i][9].Score)
	}
	t.Logf("exact %v/query; mean top1 %.3f top10 %.3f", time.Since(t0)/time.Duration(d.nq()), top1/float64(d.nq()), top10/float64(d.nq()))
	var rnd float64
	for i := range 1000 {
		rnd += float64(dot(d.vec(i), d.vec(n-1-i)))
	}
	t.Logf("random pair cos %.3f", rnd/1000)
	efc, _ := strconv.Atoi(os.Getenv("EXPLORE_EFC"))
	if efc == 0 {
		efc = 200
	}
	h, _ := NewHNSW(100, WithEfConstruction(efc), WithWorkers(2), WithM(m))
	t0 = time.Now()
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = d.vec(i)
	}
	if err := h.PutBatch(ids, vecs); err != nil {
		t.Fatal(err)
	}
	t.Logf("build %v", time.Since(t0))
	for _, ef := range []int{32, 64, 128, 256, 512} {
		h.SetEfSearch(ef)
		hit := 0
		t0 = time.Now()
		for i := range d.nq() {
			got, _ := h.Search(d.query(i), 10, nil)
			want := map[string]bool{}
			for _, x := range truth[i] {
				want[x.ID] = true
			}
			for _, x := range got {
				if want[x.ID] {
					hit++
				}
			}
		}
		t.Logf("ef=%d recall %.4f %v/query", ef, float64(hit)/float64(10*d.nq()), time.Since(t0)/time.Duration(d.nq()))
	}
}

func TestExploreBuild(t *testing.T) {
	ns := os.Getenv("EXPLORE_BUILD")
	if ns == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(ns)
	d := sharedDataset(n, 200, 100)
	ids := d.ids()
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = d.vec(i)
	}
	for _, pf := range []bool{true, false, true, false, true, false} {
		_ = pf
		h, _ := NewHNSW(100, WithWorkers(1))
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t0 := time.Now()
		h.PutBatch(ids[:n/2], vecs[:n/2])
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := time.Duration(ru1.Utime.Nano() - ru0.Utime.Nano())
		t.Logf("prefetch=%v build %v (%v/vec) cpu %v/vec", pf, time.Since(t0), time.Since(t0)/time.Duration(n/2), cpu/time.Duration(n/2))
	}
}
