package web

import "context"

// KeepWarm builds the public pages readers open first into the page
// cache when the server starts and after every publish, until ctx ends
// (see site.Site.KeepWarm). Run it beside the projection runner.
func (s *Server) KeepWarm(ctx context.Context) { s.site.KeepWarm(ctx) }

// ExpectWarm holds /readyz at 503 until KeepWarm's first pass has built
// the first pages (at most two minutes): a load balancer sends the first
// reader after a restart to a warm server. Call it before serving, and
// only when KeepWarm will run.
func (s *Server) ExpectWarm() { s.site.ExpectWarm() }
