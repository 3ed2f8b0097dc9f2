package web

import (
	"context"

	"github.com/crossrank/crossrank/web/auth"
)

// ShareSessions keeps the server's sign-in sessions in b (see
// auth.Service.Share).
func (s *Server) ShareSessions(ctx context.Context, b auth.Bucket) error { return s.auth.Share(ctx, b) }
