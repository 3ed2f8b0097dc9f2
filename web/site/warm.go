package site

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// Warming: the pages readers open first — the start page, each ranking's
// first page and its newest edition's page, in both languages — are built
// into the page cache in the background when the server starts and after
// each change of what they show (a publish, a definition, a capture of
// published evidence: the edition mark), so the first reader after a
// publish or a restart is served from the cache like the hundredth. At
// 10,000 entries a cold first page costs seconds; a warm one, a copy.

// warmPause is the least time between two warmings: a capture worker
// moving the mark every second (30,000 sources after a large import) must
// not keep a core building pages nobody has asked for yet. A publish after
// a quiet spell is warmed at once; during a storm of captures the pages
// are warmed at most this often, and a reader between two warmings builds
// the page as before.
const warmPause = 15 * time.Second

// KeepWarm warms the first pages now and again whenever the edition mark
// of all rankings moves, until ctx ends. Run it beside the projection
// runner; it returns when ctx is done.
func (s *Site) KeepWarm(ctx context.Context) {
	var warmed string
	for {
		changed := s.read.Changed() // before reading: a commit after it still wakes us
		if m, err := s.read.EditionMark(ctx, ""); err == nil && m.Key() != warmed && m.Edition > 0 {
			if err := s.Warm(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				s.log.Warn("warming the first pages failed", "err", err)
			} else {
				warmed = m.Key()
			}
			s.warmed()
			select {
			case <-ctx.Done():
				return
			case <-time.After(warmPause):
			}
		}
		s.warmed() // nothing published yet: nothing to warm
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// Warm builds the first pages of every public ranking into the page
// cache, compressed too, as a reader who is not signed in would get them.
func (s *Site) Warm(ctx context.Context) error {
	list, err := s.read.PublicRankings(ctx)
	if err != nil {
		return err
	}
	paths := []string{"/"}
	for _, r := range list {
		paths = append(paths, "/r/"+r.Slug, "/r/"+r.Slug+"/editions/"+strconv.Itoa(r.Edition))
	}
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	for _, lang := range []string{i18n.Zh, i18n.En} {
		for _, p := range paths {
			if err := ctx.Err(); err != nil {
				return err
			}
			now := time.Now()
			rq := &httpx.Request{Lang: lang, Nonce: "warm", Clock: time.Now, Now: now}
			r, err := http.NewRequestWithContext(httpx.NewContext(ctx, rq), http.MethodGet, p, nil)
			if err != nil {
				return err
			}
			r.Header.Set("Accept-Encoding", "gzip")
			w := &warmWriter{header: http.Header{}}
			mux.ServeHTTP(w, r)
			if w.status != http.StatusOK {
				s.log.Warn("warming a page: not 200", "path", p, "lang", lang, "status", w.status)
			}
		}
	}
	return nil
}

// warmWriter keeps the status of a warming request and drops its body:
// the cache keeps the body.
type warmWriter struct {
	header http.Header
	status int
}

func (w *warmWriter) Header() http.Header { return w.header }

func (w *warmWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *warmWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}
