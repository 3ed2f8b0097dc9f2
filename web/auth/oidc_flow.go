package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web/paths"
	"github.com/gorilla/securecookie"
)

// flowCookie carries a sign-in through the provider from its start to the
// callback, in the browser that started it: a provider's answer is taken
// only with the cookie of the same flow, so nobody can finish a sign-in
// they did not start in that browser (login CSRF).
const flowCookie = "crossrank_oidc"

// flowTTL is how long a sign-in at the provider may take.
const flowTTL = 10 * time.Minute

// oidcFlow is what the flow cookie holds: the state the callback must
// return, the nonce the ID token must carry, the PKCE verifier whose S256
// challenge went to the provider, where to go afterwards and the
// invitation being accepted, if any. The cookie is encrypted and signed:
// the browser carries it but can neither read nor change it.
type oidcFlow struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	Next     string `json:"x"`
	// InviteUser and InviteToken are the invitation's link: signing in
	// binds its account to the subject.
	InviteUser  string `json:"u,omitempty"`
	InviteToken string `json:"t,omitempty"`
}

// flowCodec encodes flow cookies under keys derived from the session keys
// (the first encodes, all decode).
type flowCodec struct {
	codecs []securecookie.Codec
	secure bool
}

func newFlowCodec(keys [][]byte, secure bool) *flowCodec {
	pairs := make([][]byte, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, derive(k, "crossrank oidc flow hash v1"), derive(k, "crossrank oidc flow block v1")[:32])
	}
	codecs := securecookie.CodecsFromPairs(pairs...)
	for _, c := range codecs {
		sc := c.(*securecookie.SecureCookie)
		sc.MaxAge(int(flowTTL / time.Second))
		sc.SetSerializer(securecookie.JSONEncoder{})
	}
	return &flowCodec{codecs: codecs, secure: secure}
}

func derive(k []byte, purpose string) []byte {
	m := hmac.New(sha256.New, k)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// newFlow draws a flow's state and nonce (256 random bits each) and its
// PKCE verifier.
func newFlow(verifier, next string) oidcFlow {
	return oidcFlow{State: randomText(), Nonce: randomText(), Verifier: verifier, Next: next}
}

func randomText() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// set writes the flow cookie: HttpOnly, SameSite=Lax (the provider sends
// the browser back with a top-level GET, which Lax lets the cookie ride
// on), scoped to the sign-in paths, gone after flowTTL.
func (fc *flowCodec) set(w http.ResponseWriter, f oidcFlow) error {
	v, err := securecookie.EncodeMulti(flowCookie, f, fc.codecs...)
	if err != nil {
		return err
	}
	http.SetCookie(w, fc.cookie(v, int(flowTTL/time.Second)))
	return nil
}

// take reads the flow cookie and drops it: a flow is answered once.
func (fc *flowCodec) take(w http.ResponseWriter, r *http.Request) (oidcFlow, bool) {
	c, err := r.Cookie(flowCookie)
	if err != nil {
		return oidcFlow{}, false
	}
	http.SetCookie(w, fc.cookie("", -1))
	var f oidcFlow
	if err := securecookie.DecodeMulti(flowCookie, c.Value, &f, fc.codecs...); err != nil || f.State == "" || f.Nonce == "" {
		return oidcFlow{}, false
	}
	return f, true
}

func (fc *flowCodec) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: flowCookie, Value: value, Path: paths.LoginOIDC, MaxAge: maxAge,
		HttpOnly: true, Secure: fc.secure, SameSite: http.SameSiteLaxMode}
}

// sameState reports whether the state the provider returned is the flow's.
func sameState(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// usedStates remembers the states answered within flowTTL, so a callback
// replayed with a copy of its flow cookie is refused here. A replay on
// another replica is refused by the provider, which redeems a code once.
type usedStates struct {
	mu   sync.Mutex
	at   map[string]time.Time
	max  int
	ttl  time.Duration
	last time.Time // the last prune
}

func newUsedStates(max int) *usedStates {
	return &usedStates{at: map[string]time.Time{}, max: max, ttl: flowTTL}
}

// use records state as answered at now and reports whether it was fresh.
func (u *usedStates) use(state string, now time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if at, seen := u.at[state]; seen && now.Before(at.Add(u.ttl)) {
		return false
	}
	if len(u.at) >= u.max || now.Sub(u.last) > u.ttl {
		for s, at := range u.at {
			if !now.Before(at.Add(u.ttl)) {
				delete(u.at, s)
			}
		}
		u.last = now
	}
	if len(u.at) >= u.max {
		// Full of live states: a flood of sign-ins. Refusing this one keeps
		// the promise that no state is answered twice.
		return false
	}
	u.at[state] = now
	return true
}
