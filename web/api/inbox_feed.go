package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/atom"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// A private per-user Atom feed of the inbox, for feed readers that cannot
// sign in: its address carries a token that only its user is shown, once.
// The user aggregate keeps the token's SHA-256, not the token; a new token
// replaces the old, and revoking leaves none. Any mismatch answers 404, so
// the address tells nothing about who has a feed.

// FeedToken is the answer to POST /api/v1/inbox/feed-token: the token,
// shown this once, and the feed's address with it.
type FeedToken struct {
	Token string `json:"token"`
	Feed  string `json:"feed"`
}

// feedTokenCreate answers POST /api/v1/inbox/feed-token. It takes no
// idempotency key: a token is shown once, so a retry must draw a new one
// (which replaces the first) rather than replay a write whose token is
// lost.
func feedTokenCreate(d *command.Deps) http.Handler {
	return d.RequireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 32)
		rand.Read(b)
		token := base64.RawURLEncoding.EncodeToString(b)
		in := command.FeedTokenInput{Hash: feedTokenHash(token)}
		if _, _, err := command.Execute(d, r.Context(), command.SetFeedToken, "", &in, true); err != nil {
			ui.Fail(w, r, err)
			return
		}
		user := httpx.Actor(r.Context()).Name
		httpx.WriteJSON(w, http.StatusCreated, FeedToken{Token: token, Feed: inboxFeedPath(user, token)})
	}))
}

func feedTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func inboxFeedPath(user, token string) string {
	return "/feeds/inbox/" + user + ".atom?token=" + url.QueryEscape(token)
}

// FeedUsers is what the feed needs of the command handler
// (*handler.Handler): the user aggregate, which holds the token's hash.
type FeedUsers interface {
	User(ctx context.Context, name string) (*domain.User, error)
}

// inboxFeed answers GET /feeds/inbox/{file} ({user}.atom?token=…).
func inboxFeed(users FeedUsers, read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		user, ok := strings.CutSuffix(r.PathValue("file"), ".atom")
		token := r.URL.Query().Get("token")
		var u *domain.User
		var err error
		if ok && token != "" {
			u, err = users.User(ctx, user)
		}
		if !ok || token == "" || err != nil || !u.Exists() || u.FeedTokenHash == "" ||
			subtle.ConstantTimeCompare([]byte(feedTokenHash(token)), []byte(u.FeedTokenHash)) != 1 {
			ui.Fail(w, r, domain.ErrNotFound)
			return
		}
		page, err := read.Inbox(ctx, inboxFeedFilter(user))
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		abs := func(p string) string { return scheme + "://" + r.Host + p }
		lang := httpx.Lang(ctx)
		f := atom.Feed{Lang: atom.Lang(lang), ID: "urn:crossrank:inbox:" + user, Title: i18n.T(lang, "inbox.feed_title", user),
			Updated: "1970-01-01T00:00:00Z", Author: atom.Person{Name: "Crossrank"},
			// No rel="self" (RFC 4287 says SHOULD, not MUST): the feed's own
			// address carries the secret token that reads it, and a feed
			// document gets copied, cached and shown by readers; the token
			// stays in the reader's subscription only.
			Links: []atom.Link{{Rel: "alternate", Type: "text/html", Href: abs("/desk/inbox")}}}
		for i, row := range page.Rows {
			at := atom.Time(row.At)
			if i == 0 {
				f.Updated = at
			}
			item := inboxItemOf(row, page.ReadUpTo)
			f.Entries = append(f.Entries, atom.Entry{
				ID:    "urn:crossrank:inbox:" + user + ":" + strconv.FormatUint(row.Seq, 10) + ":" + row.Kind,
				Title: i18n.T(lang, "inbox.kind."+row.Kind, row.Actor, row.Proposal), Updated: at, Published: at,
				Links:   []atom.Link{{Rel: "alternate", Type: "text/html", Href: abs(inboxItemPath(item))}},
				Author:  atom.Person{Name: row.Actor},
				Summary: atom.Text{Type: "text", Body: inboxSummary(lang, item)},
			})
		}
		b, err := f.Marshal()
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.Header().Set("Cache-Control", "private, no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		_, _ = w.Write(b)
	}
}

func inboxFeedFilter(user string) (f projections.InboxFilter) {
	f.User, f.Limit = user, 100
	return f
}

// inboxItemPath is where the desk shows what an inbox item is about.
func inboxItemPath(it InboxItem) string {
	if it.Kind == "schedule_failed" {
		return "/desk/publish?ranking=" + url.QueryEscape(it.Ranking)
	}
	return "/desk/proposals/" + it.Proposal
}

func inboxSummary(lang string, it InboxItem) string {
	s := i18n.T(lang, "inbox.kind."+it.Kind, it.Actor, it.Proposal)
	if it.Detail != "" {
		s += " — " + it.Detail
	}
	return s
}
