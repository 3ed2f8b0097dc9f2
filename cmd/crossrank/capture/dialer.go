package capture

import (
	"context"
	"net"
	"net/netip"
	"time"
)

// GuardedDial returns a DialContext that connects only to public addresses
// (and to the prefixes allow opens), checked on the very address dialled as
// a Fetcher's are: what other senders of requests to user-given URLs (the
// rankings' chat webhooks) use against server-side request forgery.
func GuardedDial(allow []netip.Prefix) func(ctx context.Context, network, address string) (net.Conn, error) {
	f := &Fetcher{Allow: allow}
	d := &net.Dialer{Timeout: 10 * time.Second, Control: f.control}
	return d.DialContext
}
