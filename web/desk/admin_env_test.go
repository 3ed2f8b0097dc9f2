package desk_test

import (
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// adminEnv is webtest's AdminEnv, with this package's own steps as its
// methods.
type adminEnv struct{ *webtest.AdminEnv }

func newAdminEnv(t *testing.T) *adminEnv { return &adminEnv{webtest.NewAdmin(t)} }
