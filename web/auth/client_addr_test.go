package auth

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestParseTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []netip.Prefix
		bad  bool
	}{
		{in: "", want: nil},
		{in: " 10.0.0.0/8 , 127.0.0.1", want: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}},
		{in: "10.1.2.3/8,::1,fd00::/8", want: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("fd00::/8")}},
		{in: "10.0.0.300/8", bad: true},
		{in: "10.0.0.0/33", bad: true},
		{in: "proxy.example", bad: true},
		{in: "::ffff:10.0.0.0/104", bad: true},
	} {
		got, err := ParseTrustedProxies(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("ParseTrustedProxies(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("ParseTrustedProxies(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("ParseTrustedProxies(%q)[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}

func TestProxyClientAddr(t *testing.T) {
	trusted := proxies{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, tc := range []struct {
		name      string
		peer      string
		xff       []string
		forwarded []string
		want      string
	}{
		{name: "direct client", peer: "198.51.100.1:5000", want: "198.51.100.1"},
		{name: "untrusted peer's header ignored", peer: "198.51.100.1:5000", xff: []string{"203.0.113.5"}, want: "198.51.100.1"},
		{name: "trusted peer, one hop", peer: "127.0.0.1:5000", xff: []string{"203.0.113.5"}, want: "203.0.113.5"},
		{name: "forged hops left of the real one", peer: "127.0.0.1:5000", xff: []string{"1.1.1.1, 2.2.2.2, 203.0.113.5"}, want: "203.0.113.5"},
		{name: "chain of trusted proxies", peer: "127.0.0.1:5000", xff: []string{"203.0.113.5, 10.0.0.2", "10.0.0.3"}, want: "203.0.113.5"},
		{name: "all hops trusted", peer: "127.0.0.1:5000", xff: []string{"10.0.0.2, 10.0.0.3"}, want: "10.0.0.2"},
		{name: "trusted peer, no header", peer: "127.0.0.1:5000", want: "127.0.0.1"},
		{name: "garbage hop stops at the proxy that wrote it", peer: "127.0.0.1:5000", xff: []string{"203.0.113.5, garbage, 10.0.0.2"}, want: "10.0.0.2"},
		{name: "hop with port", peer: "127.0.0.1:5000", xff: []string{"203.0.113.5:1234"}, want: "203.0.113.5"},
		{name: "IPv6 hop", peer: "[fd00::1]:5000", xff: []string{"[2001:db8::5]"}, want: "2001:db8::5"},
		{name: "mapped IPv4 peer", peer: "[::ffff:127.0.0.1]:5000", xff: []string{"203.0.113.5"}, want: "203.0.113.5"},
		{name: "Forwarded", peer: "127.0.0.1:5000", forwarded: []string{`for=1.1.1.1, for=203.0.113.5;proto=https;by=10.0.0.2`}, want: "203.0.113.5"},
		{name: "Forwarded quoted IPv6 with port", peer: "127.0.0.1:5000", forwarded: []string{`For="[2001:db8:cafe::17]:4711"`}, want: "2001:db8:cafe::17"},
		{name: "Forwarded quoted comma", peer: "127.0.0.1:5000", forwarded: []string{`for="_a,b";proto=http, for=203.0.113.5`}, want: "203.0.113.5"},
		{name: "Forwarded unknown", peer: "127.0.0.1:5000", forwarded: []string{`for=203.0.113.5, for=unknown`}, want: "127.0.0.1"},
		{name: "Forwarded element without for", peer: "127.0.0.1:5000", forwarded: []string{`for=203.0.113.5, proto=https`}, want: "127.0.0.1"},
		{name: "X-Forwarded-For wins over Forwarded", peer: "127.0.0.1:5000", xff: []string{"203.0.113.5"}, forwarded: []string{"for=1.1.1.1"}, want: "203.0.113.5"},
		{name: "unparsable peer", peer: "pipe", xff: []string{"203.0.113.5"}, want: "pipe"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		for _, v := range tc.forwarded {
			r.Header.Add("Forwarded", v)
		}
		if got := trusted.clientAddr(r); got != tc.want {
			t.Errorf("%s: clientAddr = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzClientAddr feeds forwarding headers from a trusted proxy to
// clientAddr: it never panics, and names an address or the peer.
func FuzzClientAddr(f *testing.F) {
	f.Add("203.0.113.5, 10.0.0.2", `for="[2001:db8::1]:80";proto=https, for=unknown`)
	f.Add("", `for="\"\\",;;=,for=_x`)
	trusted := proxies{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")}
	f.Fuzz(func(t *testing.T, xff, forwarded string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "127.0.0.1:5000"
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		r.Header.Set("Forwarded", forwarded)
		got := trusted.clientAddr(r)
		if _, err := netip.ParseAddr(got); err != nil {
			t.Errorf("clientAddr = %q, not an address", got)
		}
	})
}
