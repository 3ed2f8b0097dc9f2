package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// MaxPassword bounds a password in bytes: hashing is deliberately slow, and
// an unbounded input would make it slower still.
const MaxPassword = 1024

// MinPassword is the shortest password HashPassword accepts.
const MinPassword = 8

// argon2id parameters: OWASP's recommendation (19 MiB, 2 passes, 1 lane).
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonSaltLen = 16
	argonKeyLen  = 32
)

// hashing bounds the argon2 computations running at once: each holds
// argonMemory, so a burst of sign-ins must queue rather than exhaust memory.
// It is package-wide because the memory it guards is the process's.
var hashing = make(chan struct{}, max(2, runtime.NumCPU()))

// ErrPasswordLength reports a password outside MinPassword–MaxPassword bytes.
var ErrPasswordLength = fmt.Errorf("a password must be %d to %d bytes long", MinPassword, MaxPassword)

// HashPassword returns the argon2id hash of pw in PHC format at the
// production parameters: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
// (unpadded base64).
func HashPassword(pw string) (string, error) {
	return Argon2id{Memory: argonMemory, Time: argonTime, Threads: argonThreads}.Hash(pw)
}

// Argon2id is a choice of argon2id parameters. Production hashes with
// HashPassword's; tests that sign in hundreds of times hash their users'
// passwords with the smallest (CheckPassword reads the parameters from the
// hash, so checking is as cheap as hashing was).
type Argon2id struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
}

// Hash returns the argon2id hash of pw in PHC format with a's parameters.
func (a Argon2id) Hash(pw string) (string, error) {
	if len(pw) < MinPassword || len(pw) > MaxPassword {
		return "", ErrPasswordLength
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	hashing <- struct{}{}
	key := argon2.IDKey([]byte(pw), salt, a.Time, a.Memory, a.Threads, argonKeyLen)
	<-hashing
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, a.Memory, a.Time,
		a.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether pw matches a PHC argon2id hash. It compares
// in constant time, and refuses passwords over MaxPassword bytes and hashes
// with parameters outside sane bounds (a crafted hash must not make the
// server spend a gigabyte).
func CheckPassword(hash, pw string) bool {
	if len(pw) > MaxPassword {
		return false
	}
	p, err := parsePHC(hash)
	if err != nil {
		return false
	}
	hashing <- struct{}{}
	key := argon2.IDKey([]byte(pw), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	<-hashing
	return subtle.ConstantTimeCompare(key, p.key) == 1
}

// dummyHash is checked against when the user does not exist, so a failed
// sign-in takes as long whether or not the account is real.
var dummyHash = sync.OnceValue(func() string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	h, err := HashPassword("no account has this password " + hex.EncodeToString(salt))
	if err != nil {
		panic(err)
	}
	return h
})

type phc struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

func parsePHC(s string) (phc, error) {
	var p phc
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, errors.New("not an argon2id PHC string")
	}
	if parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return p, errors.New("unsupported argon2 version")
	}
	var threads uint32
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &threads); err != nil || n != 3 ||
		fmt.Sprintf("m=%d,t=%d,p=%d", p.memory, p.time, threads) != parts[3] {
		return p, errors.New("bad argon2 parameters")
	}
	if p.memory < 8 || p.memory > 256*1024 || p.time < 1 || p.time > 10 || threads < 1 || threads > 16 {
		return p, errors.New("argon2 parameters out of bounds")
	}
	p.threads = uint8(threads)
	var err error
	b64 := base64.RawStdEncoding
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 || len(p.salt) > 64 {
		return p, errors.New("bad argon2 salt")
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 || len(p.key) > 64 {
		return p, errors.New("bad argon2 key")
	}
	return p, nil
}
