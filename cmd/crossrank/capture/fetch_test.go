package capture_test

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"golang.org/x/net/dns/dnsmessage"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}

// server is an httptest server that counts the requests it gets.
type server struct {
	*httptest.Server
	hits atomic.Int64
	ua   atomic.Value
}

func serve(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.ua.Store(r.UserAgent())
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// serve6 is serve on [::1]; it skips the test where IPv6 loopback is off.
func serve6(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	l, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	s := &server{}
	s.Server = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	})}}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func page(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}
}

func port(s *server) string {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	return p
}

func fetch(t *testing.T, f *capture.Fetcher, url string) (*capture.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return f.Fetch(ctx, url)
}

func TestFetchPage(t *testing.T) {
	t.Parallel()
	s := serve(t, page("<p>hello</p>"))
	r, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL+"/a?b=c")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(r.Body), "<p>hello</p>"; got != want {
		t.Errorf("body = %q, want %q", got, want)
	}
	if r.MediaType != "text/html" || r.Proto != "HTTP/1.1" || r.Status != "200 OK" {
		t.Errorf("media type, proto, status = %q %q %q", r.MediaType, r.Proto, r.Status)
	}
	if r.IP != netip.MustParseAddr("127.0.0.1") {
		t.Errorf("IP = %s, want 127.0.0.1", r.IP)
	}
	if r.FinalURL != s.URL+"/a?b=c" || len(r.Redirects) != 0 {
		t.Errorf("final URL %q, redirects %v", r.FinalURL, r.Redirects)
	}
	if ua := s.ua.Load().(string); !strings.HasPrefix(ua, "Crossrank-capture/1 (+https://") {
		t.Errorf("user agent = %q", ua)
	}
}

func TestFetchIPv6Loopback(t *testing.T) {
	t.Parallel()
	s := serve6(t, page("six"))
	r, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if r.IP != netip.MustParseAddr("::1") || string(r.Body) != "six" {
		t.Errorf("IP %s, body %q", r.IP, r.Body)
	}
}

// TestFetchRefusesAddresses runs a live loopback server and asks for it
// under every name we could think of, with nothing allowed: each fetch
// must be refused at dial time and the server must never be reached.
func TestFetchRefusesAddresses(t *testing.T) {
	t.Parallel()
	s := serve(t, page("secret"))
	p := port(s)
	loop := netip.MustParseAddr("127.0.0.1")
	// Some resolvers (glibc's inet_aton) read the numeric spellings as
	// 127.0.0.1. Go's refuses to look 2130706433 and 0177.0.0.1 up at all
	// (the test logs it); 0x7f.0.0.1 and 0x7f000001 it asks DNS for, and
	// this DNS server answers 127.0.0.1, as a hostile one would: the check
	// at dial time must refuse whatever the answer.
	dns := startDNS(t, map[string][]netip.Addr{
		"2130706433.":        {loop},
		"0177.0.0.1.":        {loop},
		"0x7f.0.0.1.":        {loop},
		"0x7f000001.":        {loop},
		"private.test.":      {loop},
		"rebound.test.":      {netip.MustParseAddr("127.0.0.2")},
		"mapped.test.":       {netip.MustParseAddr("::ffff:127.0.0.1")},
		"compatible.test.":   {netip.MustParseAddr("::7f00:1")},
		"also-private.test.": {netip.MustParseAddr("::1"), loop},
	})
	f := &capture.Fetcher{Resolver: dns.resolver()}
	urls := []string{
		"http://127.0.0.1:" + p + "/",
		"http://127.0.0.1.:" + p + "/",
		"http://0.0.0.0:" + p + "/",
		"http://[::ffff:127.0.0.1]:" + p + "/",
		"http://[::ffff:7f00:1]:" + p + "/",
		"http://[::7f00:1]:" + p + "/",        // IPv4-compatible
		"http://[::ffff:0:7f00:1]:" + p + "/", // IPv4-translated
		"http://compatible.test:" + p + "/",
		"http://[::1]:" + p + "/",
		"http://localhost:" + p + "/",
		"http://2130706433:" + p + "/",
		"http://0177.0.0.1:" + p + "/",
		"http://0x7f.0.0.1:" + p + "/",
		"http://0x7f000001:" + p + "/",
		"http://private.test:" + p + "/",
		"http://PRIVATE.test.:" + p + "/",
		"http://rebound.test:" + p + "/",
		"http://mapped.test:" + p + "/",
		"http://also-private.test:" + p + "/",
	}
	for _, u := range urls {
		_, err := fetch(t, f, u)
		var dnsErr *net.DNSError
		switch {
		case errors.Is(err, capture.ErrForbiddenAddress):
		case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
			// Go's resolver will not look some of these up at all.
			t.Logf("%s: not resolved: %v", u, err)
		default:
			t.Errorf("%s: err = %v, want ErrForbiddenAddress", u, err)
		}
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
	if dns.queries.Load() == 0 {
		t.Error("the DNS server was never asked: the names were not resolved through it")
	}
}

// TestFetchRefusesMetadata asks for the metadata endpoints with their
// whole ranges allowed. The refusal happens before the socket connects,
// so no packet leaves.
func TestFetchRefusesMetadata(t *testing.T) {
	t.Parallel()
	f := &capture.Fetcher{Allow: []netip.Prefix{
		netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("fc00::/7"),
	}}
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:169.254.169.254]/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/meta-data/",
	} {
		if _, err := fetch(t, f, u); !errors.Is(err, capture.ErrForbiddenAddress) {
			t.Errorf("%s: err = %v, want ErrForbiddenAddress", u, err)
		}
	}
	f = &capture.Fetcher{}
	for _, u := range []string{"http://10.0.0.1/", "http://192.168.0.1/", "http://100.64.0.1/", "http://[fe80::1%25lo]/"} {
		if _, err := fetch(t, f, u); !errors.Is(err, capture.ErrForbiddenAddress) {
			t.Errorf("%s: err = %v, want ErrForbiddenAddress", u, err)
		}
	}
}

func TestFetchRefusesSchemes(t *testing.T) {
	t.Parallel()
	f := &capture.Fetcher{Allow: loopback}
	for _, u := range []string{"file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/", "javascript:alert(1)", "/relative", "http:///nohost", "http://user:pw@127.0.0.1/"} {
		if _, err := fetch(t, f, u); !errors.Is(err, capture.ErrScheme) {
			t.Errorf("%s: err = %v, want ErrScheme", u, err)
		}
	}
}

func TestFetchRedirects(t *testing.T) {
	t.Parallel()
	dns := startDNS(t, map[string][]netip.Addr{"rebound.test.": {netip.MustParseAddr("127.0.0.2")}})
	f := &capture.Fetcher{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, Resolver: dns.resolver()}
	target := serve(t, page("end"))
	var chain *server
	chain = serve(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/%d", &n)
		switch {
		case r.URL.Path == "/meta":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case r.URL.Path == "/rebound":
			http.Redirect(w, r, "http://rebound.test:"+port(target)+"/", http.StatusFound)
		case r.URL.Path == "/file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case n > 0:
			http.Redirect(w, r, fmt.Sprintf("%s/%d", chain.URL, n-1), http.StatusMovedPermanently)
		default:
			http.Redirect(w, r, target.URL+"/end", http.StatusSeeOther)
		}
	})

	r, err := fetch(t, f, chain.URL+"/4") // 4 → 3 → 2 → 1 → 0 → target: five redirects
	if err != nil {
		t.Fatalf("five redirects: %v", err)
	}
	if len(r.Redirects) != 5 || r.FinalURL != target.URL+"/end" || string(r.Body) != "end" {
		t.Errorf("redirects %v, final %s, body %q", r.Redirects, r.FinalURL, r.Body)
	}
	if _, err := fetch(t, f, chain.URL+"/5"); !errors.Is(err, capture.ErrTooManyRedirects) {
		t.Errorf("six redirects: err = %v, want ErrTooManyRedirects", err)
	}
	hits := target.hits.Load()
	for path, want := range map[string]error{
		"/meta":    capture.ErrForbiddenAddress,
		"/rebound": capture.ErrForbiddenAddress,
		"/file":    capture.ErrScheme,
	} {
		if _, err := fetch(t, f, chain.URL+path); !errors.Is(err, want) {
			t.Errorf("redirect %s: err = %v, want %v", path, err, want)
		}
	}
	if target.hits.Load() != hits {
		t.Error("a refused redirect reached the target")
	}
}

// TestFetchRebinding serves a name whose DNS answer changes between
// lookups, as a rebinding attacker's does: allowed when first resolved,
// forbidden when resolved again for the redirect's connection. A check
// made once before fetching would have passed; the one at dial time
// refuses the second connection.
func TestFetchRebinding(t *testing.T) {
	t.Parallel()
	var lookups atomic.Int64
	dns := startDNSFunc(t, nil, func(q dnsmessage.Question) []netip.Addr {
		if q.Type != dnsmessage.TypeA {
			return nil
		}
		if lookups.Add(1) == 1 {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.2")}
	})
	var s *server
	s = serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://rebind.test:"+port(s)+"/next", http.StatusFound)
	})
	f := &capture.Fetcher{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, Resolver: dns.resolver()}
	_, err := fetch(t, f, "http://rebind.test:"+port(s)+"/")
	if !errors.Is(err, capture.ErrForbiddenAddress) {
		t.Errorf("err = %v, want ErrForbiddenAddress", err)
	}
	if s.hits.Load() != 1 || lookups.Load() != 2 {
		t.Errorf("%d requests, %d lookups; want 1 and 2", s.hits.Load(), lookups.Load())
	}
}

func TestFetchDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	slowHead := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	slowBody := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for {
			if _, err := io.WriteString(w, "."); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	})
	f := &capture.Fetcher{Allow: loopback, Timeout: 300 * time.Millisecond}
	for _, s := range []*server{slowHead, slowBody} {
		start := time.Now()
		_, err := fetch(t, f, s.URL)
		if !errors.Is(err, capture.ErrTimeout) {
			t.Errorf("err = %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("gave up after %s", d)
		}
	}
}

func TestFetchBodyLimits(t *testing.T) {
	t.Parallel()
	var written atomic.Int64
	endless := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := make([]byte, 64<<10)
		for i := 0; i < 1<<14; i++ { // 1 GiB at most
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	var bombed atomic.Int64
	bomb := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		zeros := make([]byte, 1<<20)
		for i := 0; i < 1<<10; i++ { // 1 GiB of zeros, compressed as it goes
			if _, err := zw.Write(zeros); err != nil {
				return
			}
			bombed.Add(int64(len(zeros)))
		}
		zw.Close()
	})
	declared := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", fmt.Sprint(capture.DefaultMaxBody+1))
		w.WriteHeader(http.StatusOK)
	})
	f := &capture.Fetcher{Allow: loopback}
	for name, s := range map[string]*server{"endless": endless, "gzip bomb": bomb, "declared": declared} {
		if _, err := fetch(t, f, s.URL); !errors.Is(err, capture.ErrTooLarge) {
			t.Errorf("%s: err = %v, want ErrTooLarge", name, err)
		}
	}
	// The client stopped reading near the limit; the servers' writes
	// stop when the connection closes, a socket buffer or two later.
	if n := written.Load(); n > 64<<20 {
		t.Errorf("endless: %d bytes written before the fetch gave up", n)
	}
	if n := bombed.Load(); n > 256<<20 {
		t.Errorf("gzip bomb: %d bytes inflated before the fetch gave up", n)
	}

	at := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(make([]byte, 1000))
	})
	if r, err := fetch(t, &capture.Fetcher{Allow: loopback, MaxBody: 1000}, at.URL); err != nil || len(r.Body) != 1000 {
		t.Errorf("a body of exactly MaxBody: err %v", err)
	}
	if _, err := fetch(t, &capture.Fetcher{Allow: loopback, MaxBody: 999}, at.URL); !errors.Is(err, capture.ErrTooLarge) {
		t.Errorf("a body one byte over MaxBody: err = %v", err)
	}
}

func TestFetchGzip(t *testing.T) {
	t.Parallel()
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding = %q", r.Header.Get("Accept-Encoding"))
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, "<p>compressed</p>")
		zw.Close()
	})
	r, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Body) != "<p>compressed</p>" || r.ContentEncoding != "gzip" || r.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("body %q, encoding %q, header %q", r.Body, r.ContentEncoding, r.Header.Get("Content-Encoding"))
	}
}

func TestFetchRefusesResponses(t *testing.T) {
	t.Parallel()
	typed := func(ct, enc string, code int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			} else {
				w.Header()["Content-Type"] = nil // no sniffing
			}
			if enc != "" {
				w.Header().Set("Content-Encoding", enc)
			}
			w.WriteHeader(code)
			io.WriteString(w, "x")
		}
	}
	f := &capture.Fetcher{Allow: loopback}
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
		want error
	}{
		{"image", typed("image/png", "", 200), capture.ErrContentType},
		{"octet-stream", typed("application/octet-stream", "", 200), capture.ErrContentType},
		{"no type", typed("", "", 200), capture.ErrContentType},
		{"javascript", typed("application/javascript", "", 200), capture.ErrContentType},
		{"brotli", typed("text/html", "br", 200), capture.ErrEncoding},
		{"not found", typed("text/html", "", 404), capture.ErrStatus},
		{"server error", typed("text/html", "", 500), capture.ErrStatus},
		{"huge headers", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("X-Filler", strings.Repeat("a", 100<<10))
			w.Header().Set("Content-Type", "text/html")
		}, capture.ErrUnreachable},
	} {
		s := serve(t, tc.h)
		if _, err := fetch(t, f, s.URL); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, ct := range []string{"text/plain; charset=utf-8", "application/json", "application/pdf", "TEXT/HTML"} {
		s := serve(t, typed(ct, "", 200))
		if _, err := fetch(t, f, s.URL); err != nil {
			t.Errorf("%s: %v", ct, err)
		}
	}
}

func TestFetchHTTPS(t *testing.T) {
	t.Parallel()
	s := httptest.NewTLSServer(page("<p>secure</p>"))
	t.Cleanup(s.Close)
	pool := s.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	r, err := fetch(t, &capture.Fetcher{Allow: loopback, RootCAs: pool}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Body) != "<p>secure</p>" || r.Proto != "HTTP/1.1" {
		t.Errorf("body %q proto %s", r.Body, r.Proto)
	}
	if _, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL); !errors.Is(err, capture.ErrUnreachable) {
		t.Errorf("an untrusted certificate: err = %v, want ErrUnreachable", err)
	}
}
