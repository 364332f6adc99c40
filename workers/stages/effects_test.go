package stages

import (
	"testing"

	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/execute"
)

// Exactly-once effects are on unless the configuration turns them off.
func TestExecuteStageEffectsByDefault(t *testing.T) {
	tests := []struct {
		name      string
		opts      []execute.StageOption
		wantSetup bool
	}{
		{"default", nil, true},
		{"turned off", []execute.StageOption{}, false},
		{"configured", []execute.StageOption{execute.WithEffects(3)}, true},
	}
	for _, tt := range tests {
		set, err := New(Config{ExecuteStage: tt.opts})
		if err != nil {
			t.Fatal(err)
		}
		st, err := set.Stage(bind.StageExecute)
		if err != nil {
			t.Fatal(err)
		}
		if (st.Setup != nil) != tt.wantSetup {
			t.Errorf("%s: stage setup %v, want %v (it opens the executions bucket)", tt.name, st.Setup != nil, tt.wantSetup)
		}
	}
}
