package site_test

import (
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// siteEnv is webtest's SiteEnv, the whole server over the demo ranking,
// with this package's own steps as its methods.
type siteEnv struct{ *webtest.SiteEnv }

func newSiteEnv(t *testing.T) *siteEnv { return &siteEnv{webtest.NewSite(t)} }

func newSiteEnvWith(t *testing.T, change func(*web.Config)) *siteEnv {
	return &siteEnv{webtest.NewSiteWith(t, change)}
}
