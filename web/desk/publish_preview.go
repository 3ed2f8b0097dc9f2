package desk

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Embargoed previews from the publish page: a form creating one of the
// chosen proposals (the API's action, web/command), the page that shows
// its link once, and the ranking's previews with a revoke button each.

// previewsShown is how many of a ranking's previews the publish page
// lists, newest first; the API pages through all of them.
const previewsShown = 20

// deskPreview is one preview as the publish page lists it.
type deskPreview struct {
	api.Preview
	Expires string // the expiry in words
}

// previewAction is the API's create action with the form's reading of the
// expiry: expires_local in zone becomes the RFC 3339 "expires_at", as the
// schedule form reads its moment.
var previewAction = func() command.Action[command.PreviewInput] {
	act := command.CreatePreview
	form := act.Form
	act.Form = func(f *httpx.Form, in *command.PreviewInput) {
		form(f, in)
		loc, ok := zoneOf(f.Str("zone"))
		if !ok {
			f.FieldErr("zone", "schedule.zone")
			return
		}
		for _, layout := range localTimeLayouts {
			if t, err := time.ParseInLocation(layout, strings.TrimSpace(f.Str("expires_local")), loc); err == nil {
				in.ExpiresAt = t.Format(time.RFC3339)
				return
			}
		}
		f.FieldErr("expires_at", "schedule.local_time")
	}
	return act
}()

// previewCreate runs the preview form and answers with the page showing
// the link, once: only the token's hash is stored, so the answer is not a
// redirect (the token would go into a URL and the request log); sending
// the form again stores nothing and shows no link.
func (d *Desk) previewCreate(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	var in command.PreviewInput
	previewAction.Form(f, &in)
	err = f.Err()
	if err == nil {
		_, _, err = command.Execute(d.write, r.Context(), previewAction, f.CommandID(), &in, true)
	}
	if err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		st := ui.FormStateOf(httpx.Lang(r.Context()), f, err)
		d.RenderPublish(w, r, httpx.Status(err), PublishChoice{Ranking: in.Ranking, Proposals: in.Proposals, Failed: true, Previewing: true}, st)
		return
	}
	v := previewCreatedView{Page: ui.PageOf(r, "preview.desk_title", "publish"), Ranking: in.Ranking,
		Back: paths.Publish + "?ranking=" + in.Ranking + "#previews-" + in.Ranking}
	if t := in.LinkToken(); t != "" {
		v.URL = strings.TrimSuffix(d.origin(r), "/") + command.PreviewPath(t)
	}
	ui.Render(w, r, http.StatusOK, previewCreatedPage(v))
}

// previewCreatedView is the page that shows a new preview's link, once.
type previewCreatedView struct {
	ui.Page
	Ranking string
	URL     string // "" when the form was sent again: the link was shown the first time
	Back    string
}

// previewRevoked goes back to the publish page's previews.
func previewRevoked(r *http.Request, _ *command.RevokePreviewInput, _ handler.Result) string {
	if slug := r.PostFormValue("ranking"); slug != "" {
		return paths.Publish + "#previews-" + slug
	}
	return paths.Publish
}

// previewRevokeFailed shows the publish page with the message above the
// ranking's previews.
func (d *Desk) previewRevokeFailed(w http.ResponseWriter, r *http.Request, _ *command.RevokePreviewInput, st ui.FormState, status int) {
	d.RenderPublish(w, r, status, PublishChoice{Ranking: r.PostFormValue("ranking"), All: true, Failed: true, Revoking: true}, st)
}

// rankingPreviews returns the newest of a ranking's previews, their status
// at ctx's time, and how many there are in all.
func (d *Desk) rankingPreviews(ctx context.Context, slug string) ([]deskPreview, int, error) {
	rows, total, err := d.read.Previews(ctx, slug, previewsShown, 0)
	if err != nil {
		return nil, 0, err
	}
	out := make([]deskPreview, 0, len(rows))
	for _, row := range rows {
		p := deskPreview{Preview: api.PreviewOf(ctx, row), Expires: row.ExpiresAt}
		if t, err := time.Parse(time.RFC3339, row.ExpiresAt); err == nil {
			p.Expires = t.UTC().Format("2006-01-02 15:04 UTC")
		}
		out = append(out, p)
	}
	return out, total, nil
}
