package web

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// middleware wraps the router in the chain every request passes, outermost
// first: request state, logging, panic recovery, security headers, the
// cross-origin check, the body limit, authentication and the vendor fence.
func (s *Server) middleware(h http.Handler) http.Handler {
	h = s.vendorFence(h)
	h = s.auth.Authenticate(h)
	h = httpx.LimitBody(h)
	h = s.crossOrigin(h)
	h = s.secureHeaders(h)
	h = s.recoverPanics(h)
	h = s.logRequests(h)
	return s.begin(h)
}

// begin gives the request its id, CSP nonce, clock, language and client
// address.
func (s *Server) begin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{ID: randomHex(8), Nonce: randomNonce(), Now: s.now(), Clock: s.now, API: httpx.IsAPI(r),
			Client: s.auth.ClientAddr(r), Log: s.log}
		rq.Lang = s.chooseLang(w, r)
		w.Header().Set("X-Request-Id", rq.ID)
		next.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})
}

// statusWriter records the status and size of a response for the log and
// for panic recovery.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush lets streaming handlers (server-sent events) flush through the wrapper.
func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs one line per request: method, path, status, duration.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		start := time.Now()
		next.ServeHTTP(sw, r)
		rq := httpx.FromContext(r.Context())
		attrs := []slog.Attr{
			slog.String("method", r.Method), slog.String("path", loggedPath(r)),
			slog.Int("status", sw.status), slog.Duration("duration", time.Since(start)),
			slog.Int64("bytes", sw.bytes), slog.String("request_id", rq.ID), slog.String("client", rq.Client),
		}
		if rq.User != nil {
			attrs = append(attrs, slog.String("user", rq.User.Username))
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(r.Context(), level, "http request", attrs...)
	})
}

// recoverPanics turns a panic into a logged 500 page with the request id.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw, _ := w.(*statusWriter)
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the handler asked to abort the connection
			}
			s.log.Error("panic", "request_id", httpx.RequestID(r.Context()), "panic", fmt.Sprint(v),
				"method", r.Method, "path", loggedPath(r), "stack", string(debug.Stack()))
			if sw != nil && sw.status != 0 {
				return // the response has begun; the client sees it cut short
			}
			ui.Fail(w, r, httpx.ErrPanic)
		}()
		next.ServeHTTP(w, r)
	})
}

// secureHeaders sets the content security policy with this response's
// nonce, and the other headers that keep the pages from being framed,
// sniffed or leaking the URL to other sites.
func (s *Server) secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := httpx.Nonce(r.Context())
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'nonce-"+n+
			"'; style-src 'self' 'nonce-"+n+"'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		if s.secure {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin refuses unsafe requests a browser sent from another origin
// (http.CrossOriginProtection: Sec-Fetch-Site, else Origin against Host).
// Safe methods pass, which is why no GET handler may change state.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.origins.Check(r); err != nil {
			s.log.Warn("cross-origin request refused", "request_id", httpx.RequestID(r.Context()),
				"path", r.URL.Path, "origin", r.Header.Get("Origin"), "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"))
			ui.Fail(w, r, httpx.ErrCrossOrigin)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawStdEncoding.EncodeToString(b)
}
