package web

import "context"

// KeepWarm builds the public pages readers open first into the page
// cache when the server starts and after every publish, until ctx ends
// (see site.Site.KeepWarm). Run it beside the projection runner.
func (s *Server) KeepWarm(ctx context.Context) { s.site.KeepWarm(ctx) }
