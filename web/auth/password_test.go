package auth

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/web/paths"
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
	if got, ok := ParseToken(full); !ok || got != id {
		t.Errorf("ParseToken = %q, %v", got, ok)
	}
	_, _, other, _ := NewToken(time.Now())
	if other == full {
		t.Error("two tokens are equal")
	}
	for _, bad := range []string{"", "crk_", "crk_id", "crk_" + id + "_short", "xyz_" + id + "_" + secret,
		"crk_" + id + "_" + strings.Repeat("g", 64), "crk_ID!_" + secret} {
		if _, ok := ParseToken(bad); ok {
			t.Errorf("ParseToken(%q) accepted", bad)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for next, want := range map[string]string{
		"":                         paths.Desk,
		"/desk/proposals?mine=1":   "/desk/proposals?mine=1",
		"/":                        "/",
		"//evil.example":           paths.Desk,
		"/\\evil.example":          paths.Desk,
		"https://evil.example/x":   paths.Desk,
		"javascript:alert(1)":      paths.Desk,
		"/desk\r\nSet-Cookie: x=1": paths.Desk,
		"desk":                     paths.Desk,
	} {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
}

// TestArgon2idParams: a hash at other parameters names them, and
// CheckPassword checks it at those parameters (tests hash their users'
// passwords at the smallest).
func TestArgon2idParams(t *testing.T) {
	h, err := Argon2id{Memory: 8, Time: 1, Threads: 1}.Hash("s3cret-passphrase")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=8,t=1,p=1$") {
		t.Errorf("hash %s does not name its parameters", h)
	}
	if !CheckPassword(h, "s3cret-passphrase") || CheckPassword(h, "s3cret-passphrasE") {
		t.Error("a hash at small parameters checks wrong")
	}
}
