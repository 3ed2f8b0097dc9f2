package capture

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Why a fetch failed. Each error Fetch returns wraps exactly one of these,
// so a caller can record the reason as a code.
var (
	ErrScheme           = errors.New("capture: only http and https URLs are fetched")
	ErrForbiddenAddress = errors.New("capture: address not allowed")
	ErrTooManyRedirects = errors.New("capture: too many redirects")
	ErrTimeout          = errors.New("capture: fetch took too long")
	ErrTooLarge         = errors.New("capture: body too large")
	ErrContentType      = errors.New("capture: content type not captured")
	ErrEncoding         = errors.New("capture: content encoding not supported")
	ErrStatus           = errors.New("capture: server did not answer 2xx")
	ErrUnreachable      = errors.New("capture: fetch failed")
)

// StatusError is the error Fetch returns when the server answers other
// than 2xx; it wraps ErrStatus. The re-check tells a page gone (404, 410)
// from a server in trouble by its Code.
type StatusError struct {
	Code   int
	Status string // the status line's text: "404 Not Found"
}

func (e *StatusError) Error() string { return ErrStatus.Error() + ": " + e.Status }
func (e *StatusError) Unwrap() error { return ErrStatus }

// Limits a Fetcher applies unless its fields say otherwise.
const (
	DefaultTimeout        = 20 * time.Second
	DefaultMaxBody        = 10 << 20 // after decompression
	DefaultMaxHeaderBytes = 64 << 10
	MaxRedirects          = 5
	DefaultUserAgent      = "Crossrank-capture/1 (+https://github.com/crossrank/crossrank/blob/main/docs/capture.md)"
)

// contentTypes are the media types captured: what evidence is cited as.
var contentTypes = map[string]bool{
	"text/html":        true,
	"text/plain":       true,
	"application/pdf":  true,
	"application/json": true,
}

// Fetcher fetches one cited page the way a reader's browser would, within
// limits that keep a hostile URL from turning it against the network it
// runs in. The zero value is ready to use: public addresses only, the
// Default limits, DefaultUserAgent. A Fetcher is safe for concurrent use;
// its fields must not change after the first Fetch.
//
// It does not read robots.txt. A capture is a single fetch of a page an
// editor cited, made because a person asked for it, as their browser
// would; it follows no links and crawls nothing. That is the position the
// citation archivers take (Perma.cc, and the Internet Archive bots that
// save the pages Wikipedia cites), and robots.txt is a convention for
// crawlers. The user agent names the project and links to a page that
// says so, and the fetch is made once per cited URL, not on a schedule.
type Fetcher struct {
	// Allow lists prefixes that may be connected to although they are not
	// public (tests use 127.0.0.1/32 and ::1/128). Cloud metadata
	// addresses stay refused whatever it says.
	Allow     []netip.Prefix
	UserAgent string
	Timeout   time.Duration // whole fetch, redirects and body included
	MaxBody   int64         // bytes of body after decompression
	// RootCAs verifies HTTPS servers; nil: the system's roots.
	RootCAs *x509.CertPool
	// Resolver looks host names up; nil: net.DefaultResolver. Whatever it
	// answers, the address is checked again when it is dialled.
	Resolver *net.Resolver

	once   sync.Once
	client *http.Client
}

// Response is a fetched page: the last response of the redirect chain,
// with its body decompressed but in the charset the server sent.
type Response struct {
	URL       string     // the URL asked for
	FinalURL  string     // where the redirects ended
	Redirects []string   // each URL redirected to, in order
	Date      time.Time  // when the fetch began
	IP        netip.Addr // the address the final response came from
	Proto     string     // "HTTP/1.1"
	Status    string     // "200 OK"
	Header    http.Header
	// TransferEncoding and ContentEncoding say how the body travelled
	// ("chunked"; "gzip"); Body has both removed.
	TransferEncoding []string
	ContentEncoding  string
	MediaType        string // "text/html", lower case, no parameters
	Body             []byte
}

// ContentType returns the response's Content-Type header.
func (r *Response) ContentType() string { return r.Header.Get("Content-Type") }

// Text returns the body as UTF-8, decoded from the charset the header or
// an HTML meta tag declares.
func (r *Response) Text() (string, error) { return utf8Text(r.Body, r.ContentType()) }

func (f *Fetcher) init() {
	dialer := &net.Dialer{
		Timeout:  10 * time.Second,
		Resolver: f.Resolver,
		Control:  f.control,
	}
	t := &http.Transport{
		Proxy:                  nil, // an environment proxy would be dialled instead of the target, unchecked
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: f.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: DefaultMaxHeaderBytes,
		// Compression is ours: the Transport would hide Content-Encoding
		// from the record and not count decompressed bytes for us.
		DisableCompression: true,
		// HTTP/1.1 only: the record holds an HTTP/1.1 status line and
		// headers, which is what an HTTP/2 response is not.
		ForceAttemptHTTP2: false,
		DisableKeepAlives: true,
	}
	f.client = &http.Client{Transport: t, CheckRedirect: checkRedirect}
}

// checkRedirect allows at most MaxRedirects, each to http or https; the
// address of each is checked when it is dialled.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, MaxRedirects)
	}
	return checkURL(req.URL)
}

func checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: %q", ErrScheme, u.Scheme)
	}
	if u.Host == "" || u.User != nil {
		return fmt.Errorf("%w: a URL needs a host and no user info", ErrScheme)
	}
	return nil
}

// Fetch gets rawURL and returns its response, or an error wrapping one of
// the package's Err values.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Response, error) {
	f.once.Do(f.init)
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScheme, err)
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()

	var remote netip.Addr
	ctx = withRemote(ctx, &remote)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScheme, err)
	}
	ua := f.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/html,text/plain,application/pdf,application/json;q=0.9,*/*;q=0.1")
	req.Header.Set("Accept-Encoding", "gzip")

	out := &Response{URL: rawURL, Date: time.Now().UTC()}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer resp.Body.Close()
	for r := resp.Request; r.Response != nil; r = r.Response.Request {
		out.Redirects = append([]string{r.URL.String()}, out.Redirects...)
	}
	out.FinalURL = resp.Request.URL.String()
	out.IP = remote
	out.Proto, out.Status, out.Header = resp.Proto, statusText(resp), resp.Header
	out.TransferEncoding = resp.TransferEncoding
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &StatusError{Code: resp.StatusCode, Status: resp.Status}
	}
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || !contentTypes[mt] {
		return nil, fmt.Errorf("%w: %q", ErrContentType, resp.Header.Get("Content-Type"))
	}
	out.MediaType = mt
	out.Body, out.ContentEncoding, err = f.readBody(resp)
	if err != nil {
		return nil, classify(ctx, err)
	}
	return out, nil
}

// readBody reads the body, decompressing gzip, and stops one byte past
// MaxBody of decompressed bytes, so a gzip bomb costs at most that much.
func (f *Fetcher) readBody(resp *http.Response) ([]byte, string, error) {
	limit := f.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	var body io.Reader = resp.Body
	switch enc {
	case "", "identity":
		enc = ""
		if resp.ContentLength > limit {
			return nil, "", fmt.Errorf("%w: Content-Length %d over %d", ErrTooLarge, resp.ContentLength, limit)
		}
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, "", fmt.Errorf("%w: gzip: %v", ErrUnreachable, err)
		}
		defer zr.Close()
		body = zr
	default:
		return nil, "", fmt.Errorf("%w: %q", ErrEncoding, enc)
	}
	size := 64 << 10
	if enc == "" && resp.ContentLength >= 0 {
		size = int(resp.ContentLength) + 1 // room to see the end: no copy as it grows
	}
	b, err := readAll(io.LimitReader(body, limit+1), size)
	if err != nil {
		return nil, "", err
	}
	if int64(len(b)) > limit {
		return nil, "", fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit)
	}
	return b, enc, nil
}

// readAll is io.ReadAll into a buffer of size bytes to start with.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// classify wraps err in the package error that says why the fetch failed.
func classify(ctx context.Context, err error) error {
	for _, known := range []error{ErrScheme, ErrForbiddenAddress, ErrTooManyRedirects, ErrTooLarge, ErrEncoding} {
		if errors.Is(err, known) {
			return err
		}
	}
	if errors.Is(context.Cause(ctx), ErrTimeout) {
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return fmt.Errorf("%w: %w", ErrUnreachable, err)
}

// statusText is the status as the server sent it ("200 OK"), or the code
// and its standard text when the server sent no reason phrase.
func statusText(resp *http.Response) string {
	if s := strings.TrimSpace(resp.Status); s != "" {
		return s
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
}

// withRemote records in *remote the address of each connection the
// request gets; the last one is where the final response came from.
func withRemote(ctx context.Context, remote *netip.Addr) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if ap, err := netip.ParseAddrPort(info.Conn.RemoteAddr().String()); err == nil {
				*remote = ap.Addr().Unmap()
			}
		},
	})
}
