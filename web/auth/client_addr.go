package auth

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies parses a comma-separated list of CIDRs
// ("10.0.0.0/8, 127.0.0.1/32"), the reverse proxies whose forwarding
// headers the server believes (see Config.TrustedProxies). A bare address
// stands for itself alone. The empty string is an empty list.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if a, err := netip.ParseAddr(part); err == nil && a.Zone() == "" {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR such as 10.0.0.0/8 or 127.0.0.1/32", part)
		}
		if p.Addr().Is4In6() {
			return nil, fmt.Errorf("%q: write an IPv4 range without the ::ffff: prefix", part)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// proxies is the set of trusted reverse proxies.
type proxies []netip.Prefix

func (ps proxies) trust(a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address of the client a request came from. It is the
// TCP peer, unless the peer is a trusted proxy: then it is the rightmost
// address of X-Forwarded-For (or, without that header, of the for=
// parameters of Forwarded, RFC 7239) that is not itself a trusted proxy.
// Everything left of that address was written by the client and may be
// forged; a proxy appends the address it saw, so the rightmost untrusted
// one is the first that a proxy we trust vouches for. A hop that is not an
// address ("unknown", an obfuscated name) stops the walk at the proxy
// that reported it.
func (ps proxies) clientAddr(r *http.Request) string {
	peer, ok := parseHop(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !ps.trust(peer) {
		return peer.String()
	}
	hops := forwardedFor(r.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		if !ps.trust(a) {
			return a.String()
		}
		peer = a
	}
	return peer.String()
}

// forwardedFor returns the addresses a request was forwarded for, nearest
// the client first: X-Forwarded-For when the request has one, else the
// for= of each Forwarded element ("" where an element has none). The
// de-facto header comes first because the common proxies (nginx, Caddy,
// HAProxy) write it and pass a client's Forwarded through untouched;
// docs/deploy.md says to drop the other header at a proxy that writes only
// Forwarded.
func forwardedFor(h http.Header) []string {
	var hops []string
	if xff := h.Values("X-Forwarded-For"); len(xff) > 0 {
		for _, line := range xff {
			for hop := range strings.SplitSeq(line, ",") {
				hops = append(hops, strings.TrimSpace(hop))
			}
		}
		return hops
	}
	for _, line := range h.Values("Forwarded") {
		for _, elem := range splitQuoted(line, ',') {
			hop := ""
			for _, pair := range splitQuoted(elem, ';') {
				k, v, _ := strings.Cut(strings.TrimSpace(pair), "=")
				if strings.EqualFold(strings.TrimSpace(k), "for") {
					hop = unquote(strings.TrimSpace(v))
				}
			}
			hops = append(hops, hop)
		}
	}
	return hops
}

// splitQuoted splits s at sep outside double-quoted strings.
func splitQuoted(s string, sep byte) []string {
	var parts []string
	quoted, escaped, start := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unquote undoes an RFC 7230 quoted-string; anything else is returned as is.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		if s[i] == '\\' && i+1 < len(s)-1 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseHop reads an address as proxies and RemoteAddr write it: 192.0.2.1,
// 192.0.2.1:80, 2001:db8::1, [2001:db8::1] or [2001:db8::1]:80. IPv4
// mapped into IPv6 counts as IPv4.
func parseHop(s string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap(), true
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}
