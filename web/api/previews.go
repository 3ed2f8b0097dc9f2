package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// PreviewReads is what the previews' list needs from the read models.
type PreviewReads interface {
	Previews(ctx context.Context, ranking string, limit, offset int) ([]projections.PreviewRow, int, error)
}

var _ PreviewReads = (*projections.Store)(nil)

// PreviewRoutes lists the routes of embargoed previews: a publisher
// creates one (the answer holds its link, shown this once), lists a
// ranking's and revokes one. publicURL is the site's address for the
// link ("": the address the request came to). The link's page is the
// site's (web/site, GET /preview/{token}).
func PreviewRoutes(mux *http.ServeMux, d *command.Deps, read PreviewReads, guard func(http.Handler) http.Handler, publicURL string) {
	handle := mux.Handle
	handle("POST /api/v1/rankings/{slug}/previews", withOrigin(publicURL, command.JSON(d, createPreview())))
	handle("GET /api/v1/rankings/{slug}/previews", guard(d.RequireUser(previewList(read))))
	handle("DELETE /api/v1/previews/{id}", command.JSON(d, command.RevokePreview))
}

// CreatedPreview answers creating a preview (201): its id and its link,
// shown this once. URL is absent on a retry (replayed).
type CreatedPreview struct {
	ID       string `json:"id"`
	URL      string `json:"url,omitempty"`
	Command  string `json:"command"`
	Sequence uint64 `json:"sequence"`
	Replayed bool   `json:"replayed,omitempty"`
}

func createPreview() command.Action[command.PreviewInput] {
	act := command.CreatePreview
	act.Answer = func(_ *command.Deps, ctx context.Context, in *command.PreviewInput, commandID string, res handler.Result) any {
		out := CreatedPreview{ID: commandID, Command: commandID, Sequence: res.Sequence, Replayed: res.Replayed}
		if t := in.LinkToken(); t != "" {
			out.URL = strings.TrimSuffix(originOf(ctx), "/") + command.PreviewPath(t)
		}
		return out
	}
	return act
}

// PreviewPerPage is how many previews a page of the list holds.
const PreviewPerPage = 50

// Preview is one embargoed preview as its ranking's list shows it: never
// its token nor the token's hash.
type Preview struct {
	ID           string   `json:"id"`
	Ranking      string   `json:"ranking"`
	Proposals    []string `json:"proposals"`
	Entries      []string `json:"entries"`
	Vendors      []string `json:"vendors"`
	Note         string   `json:"note"`
	ExpiresAt    string   `json:"expires_at"`
	Status       string   `json:"status"` // active, expired or revoked
	Openings     int      `json:"openings"`
	LastOpenedAt string   `json:"last_opened_at,omitempty"`
	CreatedBy    string   `json:"created_by"`
	CreatedAt    string   `json:"created_at"`
	RevokedAt    string   `json:"revoked_at,omitempty"`
	RevokedBy    string   `json:"revoked_by,omitempty"`
}

// Previews is one page of GET /api/v1/rankings/{slug}/previews.
type Previews struct {
	Previews []Preview `json:"previews"`
	Total    int       `json:"total"`
	Page     int       `json:"page"`
	Pages    int       `json:"pages"`
	PerPage  int       `json:"per_page"`
}

// PreviewOf returns the API's form of a preview row, its status at ctx's
// time.
func PreviewOf(ctx context.Context, p projections.PreviewRow) Preview {
	return Preview{ID: p.ID, Ranking: p.Ranking, Proposals: orEmpty(p.Proposals), Entries: orEmpty(p.Entries),
		Vendors: orEmpty(p.Vendors), Note: p.Note, ExpiresAt: p.ExpiresAt, Status: p.Status(httpx.Now(ctx)),
		Openings: p.Openings, LastOpenedAt: p.LastOpenedAt, CreatedBy: p.CreatedBy, CreatedAt: p.CreatedAt,
		RevokedAt: p.RevokedAt, RevokedBy: p.RevokedBy}
}

// PreviewPage reads ?page=N of a ranking's previews and returns it, for
// the API and the desk alike; a page past the last is 404.
func PreviewPage(r *http.Request, read PreviewReads, slug string) (Previews, error) {
	page := 1
	if s := r.URL.Query().Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return Previews{}, &httpx.BadField{Field: "page", Code: "field.whole_number"}
		}
		page = n
	}
	if !events.ValidID(slug) {
		return Previews{}, domain.ErrRankingMissing
	}
	rows, total, err := read.Previews(r.Context(), slug, PreviewPerPage, (page-1)*PreviewPerPage)
	if err != nil {
		return Previews{}, err
	}
	out := Previews{Previews: make([]Preview, 0, len(rows)), Total: total, Page: page,
		Pages: max(1, (total+PreviewPerPage-1)/PreviewPerPage), PerPage: PreviewPerPage}
	if page > out.Pages {
		return Previews{}, projections.ErrNotFound
	}
	for _, row := range rows {
		out.Previews = append(out.Previews, PreviewOf(r.Context(), row))
	}
	return out, nil
}

// previewList answers GET /api/v1/rankings/{slug}/previews?page=N, to
// publishers.
func previewList(read PreviewReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RolePublisher) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		out, err := PreviewPage(r, read, r.PathValue("slug"))
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}
