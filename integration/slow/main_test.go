package slow

import (
	"testing"

	"github.com/toolyard/toolyard/integration/itest"
)

func TestMain(m *testing.M) {
	itest.Main(m, "../../cmd/toolyard")
}
