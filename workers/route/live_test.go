package route

import (
	"sync"
	"testing"
)

func TestLiveThresholds(t *testing.T) {
	l, err := NewLive(DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	if err := l.StoreJSON([]byte(`{"activate": 0.9}`)); err != nil {
		t.Fatal(err)
	}
	if got := l.Load(); got.Activate != 0.9 || got.Multiple != 0.5 || got.Weak != 0.3 {
		t.Fatalf("after partial update: %+v", got)
	}
	for _, bad := range []string{`{"activate": 0.2}`, `{"weak": -1}`, `not json`} {
		if err := l.StoreJSON([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if got := l.Load(); got.Activate != 0.9 {
		t.Fatalf("a refused version changed the thresholds: %+v", got)
	}
	if _, err := NewLive(Thresholds{Activate: 0.1, Multiple: 0.5}); err == nil {
		t.Error("invalid initial thresholds accepted")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if i%2 == 0 {
					_ = l.Store(Thresholds{Activate: 0.8, Multiple: 0.4, Weak: 0.2})
				} else if th := l.Load(); th.Validate() != nil {
					t.Errorf("torn read: %+v", th)
				}
			}
		}(i)
	}
	wg.Wait()
}
