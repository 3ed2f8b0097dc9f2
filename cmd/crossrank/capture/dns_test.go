package capture_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// dnsServer is a real DNS server on a loopback UDP port that answers the
// names in its table and NXDOMAIN for the rest, so the tests can resolve
// names the way a hostile or rebinding DNS would without leaving the
// machine.
type dnsServer struct {
	conn    net.PacketConn
	answers map[string][]netip.Addr // "name." → addresses
	// answer, when set, replaces the table.
	answer  func(q dnsmessage.Question) []netip.Addr
	queries atomic.Int64
}

func startDNS(t *testing.T, answers map[string][]netip.Addr) *dnsServer {
	return startDNSFunc(t, answers, nil)
}

// startDNSFunc starts a server that answers with answer, when it is not
// nil, and from the table otherwise.
func startDNSFunc(t *testing.T, answers map[string][]netip.Addr, answer func(dnsmessage.Question) []netip.Addr) *dnsServer {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dnsServer{conn: conn, answers: answers, answer: answer}
	t.Cleanup(func() { conn.Close() })
	go s.serve()
	return s
}

// resolver returns a Go resolver that asks only this server.
func (s *dnsServer) resolver() *net.Resolver {
	addr := s.conn.LocalAddr().String()
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", addr)
		},
	}
}

func (s *dnsServer) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(buf[:n])
		if err != nil {
			continue
		}
		q, err := p.Question()
		if err != nil {
			continue
		}
		name := strings.ToLower(q.Name.String())
		var addrs []netip.Addr
		found := false
		s.queries.Add(1)
		if s.answer != nil {
			addrs, found = s.answer(q), true
		} else {
			addrs, found = s.answers[name]
		}
		rcode := dnsmessage.RCodeSuccess
		if !found {
			rcode = dnsmessage.RCodeNameError
		}
		b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RCode: rcode})
		b.EnableCompression()
		_ = b.StartQuestions()
		_ = b.Question(q)
		_ = b.StartAnswers()
		rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}
		for _, a := range addrs {
			switch {
			case q.Type == dnsmessage.TypeA && a.Is4():
				_ = b.AResource(rh, dnsmessage.AResource{A: a.As4()})
			case q.Type == dnsmessage.TypeAAAA && a.Is6():
				_ = b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: a.As16()})
			}
		}
		msg, err := b.Finish()
		if err != nil {
			continue
		}
		_, _ = s.conn.WriteTo(msg, from)
	}
}
