// Package testnet gives tests loopback addresses to listen on that stay
// theirs.
//
// A port the kernel hands out for "127.0.0.1:0" comes from the ephemeral
// range (net.ipv4.ip_local_port_range, 32768–60999 by default), the same
// range every outgoing connection's local port comes from. A test that
// takes such a port, closes it and listens on it again later — a cluster
// node's route address written into the other nodes' settings, a server
// restarted on its port — can find it taken meanwhile by one of the
// thousands of client connections the other tests open, and the
// nats-server then waits for a listener that never comes ("not ready
// after 20s", seen in CI). Ports below the ephemeral range are never
// handed out that way; only another caller of this package could pick the
// same one, and it is tried before it is returned.
package testnet

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// lowest is the first port FreeAddr picks from: above the well-known and
// most registered services' ports.
const lowest = 20000

// FreeAddr returns a loopback address ("127.0.0.1:port") nobody listens
// on right now, with a port below the ephemeral range, so a server can be
// started, stopped and started again on it.
func FreeAddr(t testing.TB) string {
	t.Helper()
	top := ephemeralStart()
	for range 200 {
		port := lowest
		if top > lowest+1 {
			port += rand.IntN(top - lowest)
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		l.Close()
		return addr
	}
	// Nothing free below the ephemeral range: the kernel's choice.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// ephemeralStart is the first port of the kernel's ephemeral range, or
// 32768 where it cannot be read.
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 1024 {
				return n
			}
		}
	}
	return 32768
}
