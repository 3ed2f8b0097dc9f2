package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/crossrank/crossrank/events"
)

// sessionRegistry is the server-side record of sign-ins: session → user,
// issue time, the password it was opened with, revoked. A cookie counts
// only while its session is here, unrevoked, younger than the session
// lifetime and opened with the user's current password, so signing out
// ends the session for every copy of the cookie and a password change ends
// every other session.
//
// Records are keyed by a digest of the session id, never the id itself.
// With a Bucket (a JetStream key-value bucket in production) every
// record is written there too and the registry follows the bucket, so
// replicas behind a load balancer share sign-ins and a restart keeps them;
// without one it lives in this process's memory.
type sessionRegistry struct {
	mu    sync.Mutex
	byKey map[string]*sessionRecord
	ttl   time.Duration
	max   int
	sync  Bucket // nil: memory only
	// pending are revocations and password moves the sync did not take
	// (NATS down): written again until it does.
	pending map[string]sessionRecord
}

// Bucket shares the session records between replicas and across
// restarts; jetstream.KV implements it. Values are opaque JSON; Get reads
// one entry (found false: none); Watch delivers every current entry, calls
// ready, then delivers changes until ctx ends.
type Bucket interface {
	Put(ctx context.Context, key string, value []byte) error
	Get(ctx context.Context, key string) (value []byte, found bool, err error)
	Watch(ctx context.Context, fn func(key string, value []byte, deleted bool), ready func()) error
}

type sessionRecord struct {
	User     string    `json:"user"`
	Issued   time.Time `json:"issued"`
	Password string    `json:"password"` // passwordDigest of the hash it was opened with
	Revoked  bool      `json:"revoked,omitempty"`
	// Via is how the session was opened (events.Via's text form) when not
	// with a password: "oidc;iss=…", whose Password is then the digest of
	// the bound identity (identityCredential). "": a password.
	Via string `json:"via,omitempty"`
}

func newSessionRegistry(ttl time.Duration, max int) *sessionRegistry {
	return &sessionRegistry{byKey: map[string]*sessionRecord{}, ttl: ttl, max: max, pending: map[string]sessionRecord{}}
}

// sessionKey is the registry's (and the bucket's) key of a session id.
func sessionKey(sid string) string {
	sum := sha256.Sum256([]byte("crossrank session " + sid))
	return hex.EncodeToString(sum[:])
}

// passwordDigest identifies a password hash without storing it.
func passwordDigest(hash string) string {
	sum := sha256.Sum256([]byte("crossrank password " + hash))
	return hex.EncodeToString(sum[:8])
}

// issue records a new session for user, opened with the password whose
// hash is pwHash, and returns its id (256 random bits). With a sync, the
// record is stored there first: a sign-in the other replicas cannot see
// is refused (ErrUnavailable) rather than half made.
func (g *sessionRegistry) issue(ctx context.Context, user, pwHash string, now time.Time) (string, error) {
	return g.issueVia(ctx, user, pwHash, events.Via{}, now)
}

// issueVia is issue for a session opened another way (via) than with a
// password, with credential in the password's place.
func (g *sessionRegistry) issueVia(ctx context.Context, user, credential string, via events.Via, now time.Time) (string, error) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	sid := base64.RawURLEncoding.EncodeToString(b)
	rec := &sessionRecord{User: user, Issued: now.UTC(), Password: passwordDigest(credential), Via: via.String()}
	if err := g.put(ctx, sessionKey(sid), rec); err != nil {
		return "", err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.byKey) >= g.max {
		g.prune(now)
	}
	g.byKey[sessionKey(sid)] = rec
	return sid, nil
}

func (g *sessionRegistry) put(ctx context.Context, key string, rec *sessionRecord) error {
	g.mu.Lock()
	s := g.sync
	g.mu.Unlock()
	if s == nil {
		return nil
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.Put(ctx, key, b)
}

// lookup returns the user of a live session and the digest of the
// password it was opened with.
func (g *sessionRegistry) lookup(sid string, now time.Time) (user, password string, ok bool) {
	if sid == "" {
		return "", "", false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	rec := g.byKey[sessionKey(sid)]
	if rec == nil || rec.Revoked || !now.Before(rec.Issued.Add(g.ttl)) {
		return "", "", false
	}
	return rec.User, rec.Password, true
}

// via returns how the live session sid was opened; the zero Via: with a
// password (or a record this version cannot read, which then counts as one
// and matches no password).
func (g *sessionRegistry) via(sid string) events.Via {
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec := g.byKey[sessionKey(sid)]; rec != nil {
		if v, err := events.ParseVia(rec.Via); err == nil {
			return v
		}
	}
	return events.Via{}
}

// find is lookup, reading through to the sync when the session is not
// here: a sign-in made on another replica a moment ago may not have come
// through the watcher yet, and the browser's next request can land here
// first. Treating that session as ended would clear the cookie and sign
// the user out; the bucket, not the watcher's progress, says whether the
// session exists. A session unknown to the bucket too is ended, as before.
func (g *sessionRegistry) find(ctx context.Context, sid string, now time.Time) (user, password string, ok bool) {
	if user, password, ok = g.lookup(sid, now); ok || sid == "" {
		return user, password, ok
	}
	g.mu.Lock()
	s, known := g.sync, g.byKey[sessionKey(sid)] != nil
	g.mu.Unlock()
	if s == nil || known { // memory only, or here and ended
		return "", "", false
	}
	key := sessionKey(sid)
	value, found, err := s.Get(ctx, key)
	if err != nil || !found {
		return "", "", false
	}
	g.apply(key, value, false)
	return g.lookup(sid, now)
}

// revoke ends a session. The record is revoked here at once; an error
// means the other replicas may not know yet.
func (g *sessionRegistry) revoke(ctx context.Context, sid string) error {
	key := sessionKey(sid)
	g.mu.Lock()
	rec := g.byKey[key]
	var snap sessionRecord
	if rec != nil {
		rec.Revoked = true
		snap = *rec
	}
	g.mu.Unlock()
	if rec == nil {
		return nil
	}
	return g.putOrKeep(ctx, key, snap)
}

// putOrKeep writes a change of an existing session; when the sync cannot
// take it, it is kept and written again by follow until it is taken.
func (g *sessionRegistry) putOrKeep(ctx context.Context, key string, rec sessionRecord) error {
	err := g.put(ctx, key, &rec)
	if err != nil {
		g.mu.Lock()
		g.pending[key] = rec
		g.mu.Unlock()
	}
	return err
}

// retryPending writes the changes the sync did not take before.
func (g *sessionRegistry) retryPending(ctx context.Context) {
	g.mu.Lock()
	todo := make(map[string]sessionRecord, len(g.pending))
	for k, rec := range g.pending {
		if cur := g.byKey[k]; cur != nil {
			rec = *cur // the latest state of the session
		}
		todo[k] = rec
	}
	g.mu.Unlock()
	for k, rec := range todo {
		if g.put(ctx, k, &rec) == nil {
			g.mu.Lock()
			delete(g.pending, k)
			g.mu.Unlock()
		}
	}
}

// reopen moves the session sid to the password whose hash is pwHash: the
// session that changed the password stays signed in, every other one of
// the user ends (their password digest no longer matches).
func (g *sessionRegistry) reopen(ctx context.Context, sid, pwHash string) error {
	key := sessionKey(sid)
	g.mu.Lock()
	rec := g.byKey[key]
	var snap sessionRecord
	if rec != nil {
		rec.Password = passwordDigest(pwHash)
		snap = *rec
	}
	g.mu.Unlock()
	if rec == nil {
		return nil
	}
	return g.putOrKeep(ctx, key, snap)
}

// revokeUser ends every session of user (when an account loses its last
// role, say) and returns how many it ended.
func (g *sessionRegistry) revokeUser(ctx context.Context, user string) (int, error) {
	g.mu.Lock()
	var keys []string
	var recs []sessionRecord
	for key, rec := range g.byKey {
		if rec.User == user && !rec.Revoked {
			rec.Revoked = true
			keys, recs = append(keys, key), append(recs, *rec)
		}
	}
	g.mu.Unlock()
	var first error
	for i, key := range keys {
		if err := g.putOrKeep(ctx, key, recs[i]); err != nil && first == nil {
			first = err
		}
	}
	return len(keys), first
}

// prune drops expired and revoked sessions; if the registry is still full,
// the oldest go, so memory stays bounded whatever the sign-in rate.
func (g *sessionRegistry) prune(now time.Time) {
	for key, rec := range g.byKey {
		if rec.Revoked || !now.Before(rec.Issued.Add(g.ttl)) {
			delete(g.byKey, key)
		}
	}
	for len(g.byKey) >= g.max {
		var oldest string
		var at time.Time
		for key, rec := range g.byKey {
			if oldest == "" || rec.Issued.Before(at) {
				oldest, at = key, rec.Issued
			}
		}
		delete(g.byKey, oldest)
	}
}
