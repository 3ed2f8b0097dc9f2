package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("s3cret-passphrase")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`).MatchString(h) {
		t.Errorf("not a PHC argon2id string: %s", h)
	}
	h2, _ := HashPassword("s3cret-passphrase")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	if !CheckPassword(h, "s3cret-passphrase") {
		t.Error("the right password is refused")
	}
	for _, wrong := range []string{"", "s3cret-passphrasE", "s3cret-passphrase ", strings.Repeat("a", MaxPassword+1)} {
		if CheckPassword(h, wrong) {
			t.Errorf("wrong password %.20q accepted", wrong)
		}
	}
	for _, pw := range []string{"short", strings.Repeat("a", MaxPassword+1)} {
		if _, err := HashPassword(pw); err == nil {
			t.Errorf("HashPassword accepted a %d-byte password", len(pw))
		}
	}
}

func TestCheckPasswordRefusesBadHashes(t *testing.T) {
	good, _ := HashPassword("s3cret-passphrase")
	parts := strings.Split(good, "$")
	for name, h := range map[string]string{
		"empty":          "",
		"bcrypt":         "$2a$10$abcdefghijklmnopqrstuuJ0ZLIY1bWrWyl9Z8VUYKWZJcXxg2u4q",
		"argon2i":        strings.Replace(good, "argon2id", "argon2i", 1),
		"old version":    strings.Replace(good, "v=19", "v=16", 1),
		"huge memory":    strings.Replace(good, "m=19456", "m=4194304", 1),
		"many passes":    strings.Replace(good, "t=2", "t=1000", 1),
		"junk params":    strings.Replace(good, "p=1", "p=1,x=2", 1),
		"short key":      strings.Join(append(parts[:5:5], "AAAA"), "$"),
		"bad base64":     strings.Join(append(parts[:4:4], "!!!!", parts[5]), "$"),
		"trailing field": good + "$x",
	} {
		if CheckPassword(h, "s3cret-passphrase") {
			t.Errorf("%s: hash %q accepted", name, h)
		}
	}
}

func TestNewToken(t *testing.T) {
	id, secret, full, hash := NewToken(time.Now())
	if full != "crk_"+id+"_"+secret || len(secret) != 64 || hash != TokenHash(full) || len(hash) != 64 {
		t.Fatalf("NewToken = %q %q %q %q", id, secret, full, hash)
	}
	if got, ok := parseToken(full); !ok || got != id {
		t.Errorf("parseToken = %q, %v", got, ok)
	}
	_, _, other, _ := NewToken(time.Now())
	if other == full {
		t.Error("two tokens are equal")
	}
	for _, bad := range []string{"", "crk_", "crk_id", "crk_" + id + "_short", "xyz_" + id + "_" + secret,
		"crk_" + id + "_" + strings.Repeat("g", 64), "crk_ID!_" + secret} {
		if _, ok := parseToken(bad); ok {
			t.Errorf("parseToken(%q) accepted", bad)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for next, want := range map[string]string{
		"":                         pathDesk,
		"/desk/proposals?mine=1":   "/desk/proposals?mine=1",
		"/":                        "/",
		"//evil.example":           pathDesk,
		"/\\evil.example":          pathDesk,
		"https://evil.example/x":   pathDesk,
		"javascript:alert(1)":      pathDesk,
		"/desk\r\nSet-Cookie: x=1": pathDesk,
		"desk":                     pathDesk,
	} {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
}

func TestStaticAssets(t *testing.T) {
	h := newEnv(t).srv.staticHandler()
	url := assetURL("app.css")
	if !strings.HasPrefix(url, "/static/app.css?v=") {
		t.Fatalf("assetURL = %q", url)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") {
		t.Fatalf("status %d headers %v", rec.Code, rec.Header())
	}
	etag := rec.Header().Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/static/app.css", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified || strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("revalidation: status %d Cache-Control %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	for _, name := range []string{"app.js", "favicon.svg"} {
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, assetURL(name), nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s: status %d", name, rec.Code)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/../static.go", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("outside the assets: status %d", rec.Code)
	}
}

func TestSessionRegistryBounded(t *testing.T) {
	g := newSessionRegistry(time.Hour, 3)
	ctx := context.Background()
	now := time.Now()
	issue := func(user string, at time.Time) string {
		sid, err := g.issue(ctx, user, "hash-"+user, at)
		if err != nil {
			t.Fatal(err)
		}
		return sid
	}
	ids := []string{issue("a", now), issue("b", now.Add(time.Second)), issue("c", now.Add(2*time.Second))}
	issue("d", now.Add(3*time.Second))
	if _, _, ok := g.lookup(ids[0], now.Add(4*time.Second)); ok {
		t.Error("the oldest session survived a full registry")
	}
	if _, pw, ok := g.lookup(ids[2], now.Add(4*time.Second)); !ok || pw != passwordDigest("hash-c") {
		t.Errorf("a recent session was dropped, or lost its password digest (%q)", pw)
	}
	if n, err := g.revokeUser(ctx, "c"); n != 1 || err != nil {
		t.Errorf("revokeUser = %d, %v", n, err)
	}
	if _, _, ok := g.lookup(ids[2], now.Add(4*time.Second)); ok {
		t.Error("revoked session still counts")
	}
}
