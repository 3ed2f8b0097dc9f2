package site

import (
	"sync"
	"time"
)

// warmReadyBound is the longest /readyz waits for the first warming: past
// it the server takes traffic warm or not, so a warming that cannot finish
// (a read model that fails) never keeps it out of the load balancer.
const warmReadyBound = 2 * time.Minute

// warmGate holds readiness back until KeepWarm's first pass has built the
// first pages: a reader who came a second after a restart of a
// 10,000-entry ranking waited 7.7 s for the page the warming was still
// building, while /readyz already said ready (issue 42 item 6).
type warmGate struct {
	mu       sync.Mutex
	expected time.Time // when ExpectWarm was called; zero: nobody will warm
	done     bool
}

// ExpectWarm tells the site that KeepWarm will run: until its first pass
// ends (or warmReadyBound has passed), Warming reports true. Call it before
// the server takes requests; a server that never runs KeepWarm must not.
func (s *Site) ExpectWarm() {
	s.warm.mu.Lock()
	defer s.warm.mu.Unlock()
	if s.warm.expected.IsZero() {
		s.warm.expected = time.Now()
	}
}

// Warming reports whether the first warming that ExpectWarm announced is
// still running, within warmReadyBound.
func (s *Site) Warming() bool {
	s.warm.mu.Lock()
	defer s.warm.mu.Unlock()
	return !s.warm.expected.IsZero() && !s.warm.done && time.Since(s.warm.expected) < warmReadyBound
}

// warmed ends the first warming, however it went.
func (s *Site) warmed() {
	s.warm.mu.Lock()
	s.warm.done = true
	s.warm.mu.Unlock()
}
