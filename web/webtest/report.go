package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// ReportEnv is the demo ranking's site with a contacts bucket on a real
// embedded NATS server.
type ReportEnv struct {
	*SiteEnv
	Contacts *jetstream.KV
}

// NewReport starts a ReportEnv.
func NewReport(t *testing.T) *ReportEnv {
	t.Helper()
	kvServer := jstest.Start(t)
	nc, err := kvServer.Server.Connect(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	kv, err := jetstream.OpenKV(context.Background(), nc, jetstream.ContactsBucket, 180*24*time.Hour, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := NewSiteWith(t, func(c *web.Config) { c.Contacts = kv })
	return &ReportEnv{SiteEnv: e, Contacts: kv}
}

// NewVendor is a ReportEnv with acme, the vendor of aliyun; it returns
// acme's Authorization header too.
func NewVendor(t *testing.T) (*ReportEnv, string) {
	e := NewReport(t)
	if _, err := e.Cmd.RegisterUser(e.Ctx, domain.System(), domain.RegisterUser{CommandID: events.NewID(time.Now()),
		Username: "acme", DisplayName: "Aliyun (vendor)", PasswordHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA",
		Roles: []string{domain.RoleVendor}, Entries: []string{demo.RankingSlug + "/aliyun"}}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	return e, e.Bearer("acme")
}

// Post sends body (JSON when it is not url.Values) from addr, as the
// site's own origin does, and checks the answer against the OpenAPI
// document.
func (e *ReportEnv) Post(target, addr string, body any, header ...string) (*http.Response, string) {
	e.T.Helper()
	var raw []byte
	ct := "application/json"
	switch b := body.(type) {
	case url.Values:
		raw, ct = []byte(b.Encode()), "application/x-www-form-urlencoded"
	case []byte:
		raw = b
	default:
		raw, _ = json.Marshal(b)
	}
	r := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(raw))
	r.RemoteAddr = addr + ":4711"
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.Srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	openapicheck.Check(e.T, http.MethodPost, target, r.Header, raw, res, b)
	return res, string(b)
}

// Bearer issues an API token to user, valid for an hour, and returns its
// Authorization header.
func (e *ReportEnv) Bearer(user string) string {
	e.T.Helper()
	now := time.Now()
	id, _, full, hash := auth.NewToken(now)
	if _, err := e.Cmd.IssueToken(e.Ctx, domain.System(), domain.IssueToken{CommandID: events.NewID(now),
		User: user, TokenID: id, Name: "test", Hash: hash, ExpiresAt: now.Add(time.Hour)}); err != nil {
		e.T.Fatal(err)
	}
	e.CaughtUp()
	return "Bearer " + full
}
