package bench

import (
	"context"
	"net/url"
	"time"
)

// pageTarget is a page loaded at o.clients clients: path, as user (by
// bearer token; "" for the public).
type pageTarget struct{ name, path, user string }

// The pages at their heaviest: the review queue and the dashboard while
// every proposal awaits review, the publish page while all of them wait
// to be published, the public ranking and search once published.
var (
	reviewPages = []pageTarget{
		{"review queue /desk/review", "/desk/review", scaleReviewers[0]},
		{"dashboard /desk", "/desk", scaleReviewers[0]},
	}
	publishPages = []pageTarget{
		{"publish page /desk/publish", "/desk/publish", scalePublisher},
	}
	publicPages = []pageTarget{
		{"public ranking page 1 /r/{slug}", "/r/" + scaleSlug, ""},
		{"search /desk/search?q=", "/desk/search?q=" + url.QueryEscape("Entry 42"), scaleEditor},
	}
)

// pageLoad is one page under load and /healthz just before it, on the
// same server in the same state.
type pageLoad struct {
	name, state string
	res, ref    httpResult
}

// loadPages loads /healthz, then each target, once the read models have
// caught up with the stream.
func (s *scaleRun) loadPages(ctx context.Context, state string, targets []pageTarget) error {
	if err := s.caughtUp(ctx); err != nil {
		return err
	}
	ref, err := s.load(ctx, "/healthz", "")
	if err != nil {
		return err
	}
	for _, t := range targets {
		res, err := s.load(ctx, t.path, t.user)
		if err != nil {
			return err
		}
		s.res.pages = append(s.res.pages, pageLoad{name: t.name, state: state, res: res, ref: ref})
		s.settle()
	}
	return nil
}

// settle waits until this process — the server runs in it — has used
// less than a tenth of a core for half a second (at most 15 minutes):
// requests whose clients gave up are still served after a load ends, and
// would otherwise be charged to what is measured next.
func (s *scaleRun) settle() { settleCPU(s.o) }

// settleCPU is settle for any part of the bench.
func settleCPU(o *options) {
	cpu := processCPU
	const tick = 250 * time.Millisecond
	start := time.Now()
	for prev, quiet := cpu(), 0; quiet < 2 && time.Since(start) < 15*time.Minute; {
		time.Sleep(tick)
		now := cpu()
		if quiet++; now-prev > tick/10 {
			quiet = 0
		}
		prev = now
	}
	if d := time.Since(start); d > time.Second {
		o.logf("   the server was busy %v more", d.Round(100*time.Millisecond))
	}
}

func (s *scaleRun) load(ctx context.Context, path, user string) (httpResult, error) {
	s.o.logf("  %d clients on %s for %v", s.o.clients, path, s.o.duration)
	res, err := loadURL(ctx, s.o, s.api.url+path, s.api.tokens[user])
	if err == nil {
		s.o.logf("   %.0f req/s, p50 %v, p99 %v, %d bytes (%d sent gzipped), %d timed out, %d answered other than 200", res.rps, res.p50.Round(time.Microsecond),
			res.p99.Round(time.Microsecond), res.bytes, res.sent, res.timeouts, res.refused)
	}
	return res, err
}
