package capture

import (
	"fmt"
	"net/netip"
	"syscall"
)

// metadata are the cloud instance-metadata endpoints (AWS, GCP, Azure,
// OpenStack on IPv4; AWS on IPv6). They hand out credentials to whoever
// asks from inside the machine, so they are refused even when Allow covers
// them: an operator who allows 169.254.0.0/16 for an appliance has not
// meant to allow these.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("169.254.170.2"), // AWS ECS task metadata
	netip.MustParseAddr("fd00:ec2::254"),
}

// special are the ranges that netip's predicates do not cover but that
// are no public web server either: shared address space, IETF protocol
// assignments, documentation and benchmarking nets, reserved space, and
// the IPv6 prefixes that embed an IPv4 address somewhere a reader cannot
// tell from the prefix alone (local-use NAT64, whose prefix length the
// network chooses; 6to4 and Teredo, whose IPv4 address is a relay's or
// obfuscated, and which are deprecated), through which 127.0.0.1 or
// 10.0.0.1 could be reached under another name. They are refused outright.
var special = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // CGNAT, RFC 6598
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"), // reserved, and 255.255.255.255
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001::/32"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"),
}

// embedding are the IPv6 prefixes whose last 32 bits are an IPv4 address
// the kernel or a gateway connects to: IPv4-compatible (::a.b.c.d, RFC
// 4291, deprecated but still routed to the IPv4 address by some stacks),
// IPv4-translated (::ffff:0:a.b.c.d, RFC 2765) and the well-known NAT64
// prefix (64:ff9b::a.b.c.d, RFC 6052). IPv4-mapped (::ffff:a.b.c.d) is
// netip's Unmap.
var embedding = []netip.Prefix{
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("::ffff:0:0:0/96"),
	netip.MustParsePrefix("64:ff9b::/96"),
}

// embeddedIPv4 returns the IPv4 address ip carries in its last 32 bits
// when ip is in one of the embedding prefixes. :: and ::1 are not
// IPv4-compatible addresses (RFC 4291 2.5.5.1) and stay IPv6.
func embeddedIPv4(ip netip.Addr) (netip.Addr, bool) {
	if !ip.Is6() || ip.IsUnspecified() || ip.IsLoopback() {
		return netip.Addr{}, false
	}
	for _, p := range embedding {
		if p.Contains(ip) {
			b := ip.As16()
			return netip.AddrFrom4([4]byte(b[12:])), true
		}
	}
	return netip.Addr{}, false
}

// checkAddr returns nil when a connection to ip may be made, and an error
// wrapping ErrForbiddenAddress when it may not. An IPv6 address that
// carries an IPv4 address (mapped ::ffff:127.0.0.1, compatible ::7f00:1,
// translated ::ffff:0:7f00:1, NAT64 64:ff9b::7f00:1) is judged as the
// IPv4 address it carries: allowed exactly when that address is.
func checkAddr(ip netip.Addr, allow []netip.Prefix) error {
	ip = ip.Unmap().WithZone("")
	if v4, ok := embeddedIPv4(ip); ok {
		if err := checkAddr(v4, allow); err != nil {
			return fmt.Errorf("%s carries %s: %w", ip, v4, err)
		}
		return nil
	}
	for _, m := range metadata {
		if ip == m {
			return fmt.Errorf("%w: %s is a cloud metadata address", ErrForbiddenAddress, ip)
		}
	}
	for _, p := range allow {
		if p.Contains(ip) {
			return nil
		}
	}
	switch {
	case !ip.IsValid():
		return fmt.Errorf("%w: no address", ErrForbiddenAddress)
	case ip.IsUnspecified(), ip.IsLoopback(), ip.IsPrivate(),
		ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(),
		ip.IsInterfaceLocalMulticast(), ip.IsMulticast(),
		!ip.IsGlobalUnicast():
		return fmt.Errorf("%w: %s is not a public address", ErrForbiddenAddress, ip)
	}
	for _, p := range special {
		if p.Contains(ip) {
			return fmt.Errorf("%w: %s is in %s", ErrForbiddenAddress, ip, p)
		}
	}
	return nil
}

// control is the net.Dialer Control hook: it runs after name resolution,
// on the very address the socket is about to connect to, so a name that
// resolves to a public address when checked and to a private one when
// dialled (DNS rebinding) gains nothing. Happy Eyeballs calls it once per
// address tried.
func (f *Fetcher) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("%w: network %s", ErrForbiddenAddress, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrForbiddenAddress, address, err)
	}
	return checkAddr(ap.Addr(), f.Allow)
}
