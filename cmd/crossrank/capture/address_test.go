package capture

import (
	"errors"
	"net/netip"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
	linkLocal := []netip.Prefix{netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("fc00::/7")}
	for _, tc := range []struct {
		addr  string
		allow []netip.Prefix
		ok    bool
	}{
		{"1.1.1.1", nil, true},
		{"93.184.215.14", nil, true},
		{"2606:4700:4700::1111", nil, true},
		{"::ffff:1.1.1.1", nil, true},

		{"127.0.0.1", nil, false},
		{"127.1.2.3", nil, false},
		{"::1", nil, false},
		{"::ffff:127.0.0.1", nil, false}, // IPv4-mapped loopback
		{"0.0.0.0", nil, false},          // Linux connects this to the local host
		{"::", nil, false},
		{"0.1.2.3", nil, false},
		{"10.0.0.1", nil, false},
		{"::ffff:10.0.0.1", nil, false},
		{"172.16.0.1", nil, false},
		{"172.31.255.255", nil, false},
		{"192.168.1.1", nil, false},
		{"169.254.1.1", nil, false},
		{"169.254.169.254", nil, false},
		{"::ffff:169.254.169.254", nil, false},
		{"fd00:ec2::254", nil, false},
		{"fe80::1", nil, false},
		{"fe80::1%eth0", nil, false},
		{"fc00::1", nil, false},
		{"100.64.0.1", nil, false},      // CGNAT
		{"100.127.255.255", nil, false}, // CGNAT, last
		{"224.0.0.1", nil, false},
		{"ff02::1", nil, false},
		{"255.255.255.255", nil, false},
		{"240.0.0.1", nil, false},
		{"192.0.2.1", nil, false},
		{"198.18.0.1", nil, false},
		{"64:ff9b::7f00:1", nil, false}, // NAT64 of 127.0.0.1
		{"2002:7f00:1::", nil, false},   // 6to4 of 127.0.0.1
		{"2001:0:4136:e378::1", nil, false},
		// IPv6 forms that embed an IPv4 address are judged as that address.
		{"::7f00:1", nil, false},           // IPv4-compatible 127.0.0.1
		{"::a00:1", nil, false},            // IPv4-compatible 10.0.0.1
		{"::ffff:0:7f00:1", nil, false},    // IPv4-translated 127.0.0.1
		{"::ffff:0:a9fe:a9fe", nil, false}, // IPv4-translated metadata
		{"::a9fe:a9fe", linkLocal, false},  // compatible metadata, even when link-local is open
		{"64:ff9b::a9fe:a9fe", linkLocal, false},
		{"64:ff9b:1::7f00:1", nil, false}, // local-use NAT64: refused outright
		{"2002:101:101::1", nil, false},   // 6to4 of a public address: refused outright
		{"::101:101", nil, true},          // IPv4-compatible 1.1.1.1
		{"64:ff9b::101:101", nil, true},   // NAT64 of 1.1.1.1: how IPv6-only hosts reach it
		{"::7f00:1", loopback, true},      // the IPv4 address is allowed
		{"::ffff:0:7f00:1", loopback, true},
		{"::7f00:2", loopback, false},

		{"127.0.0.1", loopback, true},
		{"::1", loopback, true},
		{"::ffff:127.0.0.1", loopback, true},
		{"127.0.0.2", loopback, false},
		{"10.0.0.1", loopback, false},
		// Allow opens ranges, never the metadata endpoints.
		{"169.254.1.1", linkLocal, true},
		{"169.254.169.254", linkLocal, false},
		{"::ffff:169.254.169.254", linkLocal, false},
		{"fd00:ec2::254", linkLocal, false},
	} {
		err := checkAddr(netip.MustParseAddr(tc.addr), tc.allow)
		if got := err == nil; got != tc.ok {
			t.Errorf("checkAddr(%s, %v) = %v, want allowed=%v", tc.addr, tc.allow, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("checkAddr(%s) = %v, not ErrForbiddenAddress", tc.addr, err)
		}
	}
}
