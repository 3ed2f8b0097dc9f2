package ui

import "context"

type unreadKey struct{}

// WithUnread returns ctx carrying the signed-in user's unread inbox count:
// the desk sets it on its pages, and the layout's header shows it.
func WithUnread(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, unreadKey{}, n)
}

// unreadOf returns the unread count ctx carries, and whether it carries one.
func unreadOf(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(unreadKey{}).(int)
	return n, ok
}
