package web

import (
	"context"

	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/imports"
)

// ShareSessions keeps the server's sign-in sessions in b (see
// auth.Service.Share).
func (s *Server) ShareSessions(ctx context.Context, b auth.Bucket) error { return s.auth.Share(ctx, b) }

// KeepContacts keeps the contact addresses readers give with their reports
// in c (see Config.Contacts), for a bucket opened after the server was
// built. Call it before serving.
func (s *Server) KeepContacts(c command.Contacts) { s.commands.Contacts = c }

// ShareImports keeps the import jobs in s (see imports.Shared), so that
// every replica answers for them, for buckets opened after the server was
// built; when ctx ends, the imports this replica runs stop, and say so.
// Call it before serving.
func (s *Server) ShareImports(ctx context.Context, sh imports.Shared) { s.imports.Share(ctx, sh) }
