package desk

import (
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The statements page of an entry: its vendor writes its statement there
// (and opens a proposal with its evidence); the editors hide a statement
// with a public reason.

// replyRoutes lists the statements page and its forms.
func (d *Desk) replyRoutes(handle func(string, http.Handler), user func(http.HandlerFunc) http.Handler) {
	handle("GET /desk/entries/{ranking}/{entry}/replies", user(d.serveReplies))
	handle("POST /desk/entries/{ranking}/{entry}/replies", command.Form(d.write, command.WriteReply, replyDone, nil))
	handle("POST /desk/replies/{id}/hide", command.Form(d.write, command.HideReply, replyHidden, nil))
}

// repliesView is the model of an entry's statements page.
type repliesView struct {
	ui.Page
	Ranking, Entry string
	Criteria       []replyCriterion
	Replies        []projections.Reply
	Write          bool // the signed-in user is this entry's vendor
	Hide           bool // the signed-in user is an editor
	PublicURL      string
}

type replyCriterion struct{ Slug, Label string }

func (d *Desk) serveReplies(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ranking, entry := r.PathValue("ranking"), r.PathValue("entry")
	a := httpx.Actor(ctx)
	if !a.Sees(ranking, entry) {
		ui.Fail(w, r, domain.ErrVendorScope)
		return
	}
	def, _, err := d.read.Definition(ctx, ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	rows, err := d.read.Replies(ctx, ranking, entry)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	p := ui.PageOf(r, "", "")
	p.Title = p.T("reply.desk_title", entry)
	v := repliesView{Page: p, Ranking: ranking, Entry: entry, Replies: rows, Write: a.Vendor(), Hide: a.Has(domain.RoleEditor),
		PublicURL: "/r/" + url.PathEscape(ranking) + "/e/" + url.PathEscape(entry)}
	for _, c := range def.Criteria {
		v.Criteria = append(v.Criteria, replyCriterion{Slug: c.Slug, Label: c.Name.In(p.Lang)})
	}
	ui.Render(w, r, http.StatusOK, repliesPage(v))
}

// replyDone shows the statement on the public entry page.
func replyDone(r *http.Request, in *command.ReplyInput, _ handler.Result) string {
	return "/r/" + url.PathEscape(in.Ranking) + "/e/" + url.PathEscape(in.Entry) + "#replies"
}

// replyHidden goes back to where the editor hid it.
func replyHidden(r *http.Request, _ *command.HideReplyInput, _ handler.Result) string {
	if back, err := url.Parse(r.Header.Get("Referer")); err == nil && back.Path != "" && back.Host == r.Host {
		return back.Path
	}
	return "/desk"
}
