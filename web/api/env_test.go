package api_test

import (
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// siteEnv, demoEnv and adminEnv are webtest's, with this package's own
// steps as their methods.
type (
	siteEnv  struct{ *webtest.SiteEnv }
	demoEnv  struct{ *webtest.DemoEnv }
	adminEnv struct{ *webtest.AdminEnv }
)

func newSiteEnvWith(t *testing.T, change func(*web.Config)) *siteEnv {
	return &siteEnv{webtest.NewSiteWith(t, change)}
}

func newDemoEnv(t *testing.T) *demoEnv { return &demoEnv{webtest.NewDemo(t)} }

func newAdminEnv(t *testing.T) *adminEnv { return &adminEnv{webtest.NewAdmin(t)} }

// reportEnv is webtest's ReportEnv, with this package's own steps as its
// methods.
type reportEnv struct{ *webtest.ReportEnv }

func newReportEnv(t *testing.T) *reportEnv { return &reportEnv{webtest.NewReport(t)} }

func newVendorEnv(t *testing.T) (*reportEnv, string) {
	e, vendor := webtest.NewVendor(t)
	return &reportEnv{e}, vendor
}
