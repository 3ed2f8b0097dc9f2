package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// A vendor's statement about its entry (the right of reply), and the
// editors' hiding of one with a public reason.

// MaxReplyBody bounds a statement's request body: two texts of
// domain.MaxReplyText runes, at most 4 bytes each, and the rest.
const MaxReplyBody = 2*4*domain.MaxReplyText + 4<<10

// ReplyInput is a statement: the entry in the URL, the texts in the body.
type ReplyInput struct {
	WithCommandID
	Ranking   string `json:"-"`
	Entry     string `json:"-"`
	Criterion string `json:"criterion,omitempty"`
	TextEn    string `json:"text_en,omitempty"`
	TextZh    string `json:"text_zh,omitempty"`
	id        string
}

// ReplyWritten is the API's answer to a statement.
type ReplyWritten struct {
	ID       string `json:"id"` // the statement's id: the same for the same vendor, entry and criterion
	Command  string `json:"command"`
	Sequence uint64 `json:"sequence"`
	Replayed bool   `json:"replayed,omitempty"`
}

// WriteReply writes (or rewrites) a vendor's statement.
var WriteReply = Action[ReplyInput]{
	Name: "reply.write", Created: true,
	Path: func(r *http.Request, in *ReplyInput) {
		in.Ranking, in.Entry = r.PathValue("slug"), r.PathValue("entry")
		if in.Ranking == "" { // the desk's form: /desk/entries/{ranking}/{entry}/replies
			in.Ranking = r.PathValue("ranking")
		}
	},
	Form: func(f *httpx.Form, in *ReplyInput) {
		in.Criterion, in.TextEn, in.TextZh = f.Str("criterion"), f.Str("text_en"), f.Str("text_zh")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReplyInput) (handler.Result, error) {
		out, err := d.Commands.WriteReply(ctx, a, domain.WriteReply{CommandID: commandID, Ranking: in.Ranking, Entry: in.Entry,
			Criterion: in.Criterion, TextEn: in.TextEn, TextZh: in.TextZh})
		in.id = out.ID
		return out.Result, err
	},
	Resource: func(_ *Deps, _ context.Context, in *ReplyInput, _ string) (string, string) {
		return in.id, "/r/" + in.Ranking + "/e/" + in.Entry
	},
	Answer: func(_ *Deps, _ context.Context, in *ReplyInput, commandID string, res handler.Result) any {
		return ReplyWritten{ID: in.id, Command: commandID, Sequence: res.Sequence, Replayed: res.Replayed}
	},
}

// HideReplyInput is the statement in the URL and the public reason.
type HideReplyInput struct {
	WithCommandID
	Reply  string `json:"-"`
	Reason string `json:"reason"`
}

// HideReply hides a statement with a public reason (editors).
var HideReply = Action[HideReplyInput]{
	Name: "reply.hide",
	Path: func(r *http.Request, in *HideReplyInput) { in.Reply = r.PathValue("id") },
	Form: func(f *httpx.Form, in *HideReplyInput) { in.Reason = f.Str("reason") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *HideReplyInput) (handler.Result, error) {
		return d.Commands.HideReply(ctx, a, domain.HideReply{CommandID: commandID, Reply: in.Reply, Reason: in.Reason})
	},
	Resource: func(_ *Deps, _ context.Context, in *HideReplyInput, _ string) (string, string) {
		return in.Reply, ""
	},
}

// LimitBody bounds a request's body at n bytes: past it the decoder
// answers 413.
func LimitBody(n int64, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, n)
		h.ServeHTTP(w, r)
	})
}
