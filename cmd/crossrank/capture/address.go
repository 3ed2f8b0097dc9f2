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
// the IPv6 prefixes that embed an IPv4 address a gateway would connect
// to (NAT64, 6to4, Teredo), through which 127.0.0.1 or 10.0.0.1 could be
// reached under another name.
var special = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // CGNAT, RFC 6598
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"), // reserved, and 255.255.255.255
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001::/32"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"),
}

// checkAddr returns nil when a connection to ip may be made, and an error
// wrapping ErrForbiddenAddress when it may not. An IPv4-mapped IPv6
// address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
func checkAddr(ip netip.Addr, allow []netip.Prefix) error {
	ip = ip.Unmap().WithZone("")
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
