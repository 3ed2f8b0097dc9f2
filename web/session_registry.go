package web

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// sessionRegistry is the server-side record of sign-ins: session id → user,
// issue time, revoked. A cookie counts only while its id is here, unrevoked
// and younger than the session lifetime, so signing out ends the session
// for every copy of the cookie.
//
// It lives in memory: a restart signs everyone out, and replicas behind a
// load balancer need sticky sessions (or a shared registry) to share sign-ins.
type sessionRegistry struct {
	mu   sync.Mutex
	byID map[string]*sessionRecord
	ttl  time.Duration
	max  int
}

type sessionRecord struct {
	user    string
	issued  time.Time
	revoked bool
}

func newSessionRegistry(ttl time.Duration, max int) *sessionRegistry {
	return &sessionRegistry{byID: map[string]*sessionRecord{}, ttl: ttl, max: max}
}

// issue records a new session for user and returns its id (256 random bits).
func (g *sessionRegistry) issue(user string, now time.Time) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	sid := base64.RawURLEncoding.EncodeToString(b)
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.byID) >= g.max {
		g.prune(now)
	}
	g.byID[sid] = &sessionRecord{user: user, issued: now}
	return sid
}

// lookup returns the user of a live session.
func (g *sessionRegistry) lookup(sid string, now time.Time) (string, bool) {
	if sid == "" {
		return "", false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	rec := g.byID[sid]
	if rec == nil || rec.revoked || !now.Before(rec.issued.Add(g.ttl)) {
		return "", false
	}
	return rec.user, true
}

// revoke ends a session.
func (g *sessionRegistry) revoke(sid string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec := g.byID[sid]; rec != nil {
		rec.revoked = true
	}
}

// revokeUser ends every session of user (after a password change or when
// an account loses its roles) and returns how many it ended.
func (g *sessionRegistry) revokeUser(user string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, rec := range g.byID {
		if rec.user == user && !rec.revoked {
			rec.revoked = true
			n++
		}
	}
	return n
}

// prune drops expired and revoked sessions; if the registry is still full,
// the oldest go, so memory stays bounded whatever the sign-in rate.
func (g *sessionRegistry) prune(now time.Time) {
	for sid, rec := range g.byID {
		if rec.revoked || !now.Before(rec.issued.Add(g.ttl)) {
			delete(g.byID, sid)
		}
	}
	for len(g.byID) >= g.max {
		var oldest string
		var at time.Time
		for sid, rec := range g.byID {
			if oldest == "" || rec.issued.Before(at) {
				oldest, at = sid, rec.issued
			}
		}
		delete(g.byID, oldest)
	}
}
