package command

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
)

// An embargoed preview's link carries a 256-bit token drawn when the
// command runs, kept in the input for the one answer that shows it, and
// stored only as its SHA-256; a retry of the same command id stores
// nothing and shows no link (the first answer did). The preview's id is
// the command id, as a proposal's is.

// PreviewInput creates a preview of chosen cross-validated proposals.
type PreviewInput struct {
	WithCommandID
	Ranking   string   `json:"-"`
	Proposals []string `json:"proposals"`
	ExpiresAt string   `json:"expires_at"`
	Note      string   `json:"note,omitempty"`
	Vendors   []string `json:"vendors,omitempty"`
	token     string
}

// LinkToken returns the token the command drew, or "" when the command was
// a retry.
func (in *PreviewInput) LinkToken() string { return in.token }

// PreviewPath is the page a preview's link opens, for token.
func PreviewPath(token string) string { return "/preview/" + token }

// PreviewTokenHash returns the hex SHA-256 of a link's token, as stored.
func PreviewTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreatePreview creates an embargoed preview (publishers; the domain
// decides).
var CreatePreview = Action[PreviewInput]{
	Name:    "preview.create",
	Created: true,
	Path:    func(r *http.Request, in *PreviewInput) { in.Ranking = rankingPath(r, in.Ranking) },
	Form: func(f *httpx.Form, in *PreviewInput) {
		in.Ranking, in.Proposals = f.Str("ranking"), f.Strs("proposals")
		in.ExpiresAt, in.Note = strings.TrimSpace(f.Str("expires_at")), f.Str("note")
		// The desk's field takes a date and time without a zone (the
		// datetime-local input), read as UTC, which the label says.
		if len(in.ExpiresAt) == len("2006-01-02T15:04") {
			in.ExpiresAt += ":00Z"
		}
		for _, v := range strings.Split(f.Str("vendors"), ",") {
			if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
				in.Vendors = append(in.Vendors, v)
			}
		}
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *PreviewInput) (handler.Result, error) {
		token, _ := auth.NewLinkToken()
		res, err := d.Commands.CreatePreview(ctx, a, domain.CreatePreview{CommandID: commandID, Ranking: in.Ranking,
			Proposals: in.Proposals, ExpiresAt: in.ExpiresAt, Note: in.Note, Vendors: in.Vendors,
			TokenHash: PreviewTokenHash(token)})
		if err == nil && !res.Replayed {
			in.token = token
		}
		return res, err
	},
	Resource: func(_ *Deps, _ context.Context, _ *PreviewInput, commandID string) (string, string) {
		return commandID, previewLocation(commandID)
	},
}

func previewLocation(id string) string { return "/api/v1/previews/" + id }

// RevokePreviewInput names the preview in the URL (or the form).
type RevokePreviewInput struct {
	WithCommandID
	Preview string `json:"-"`
}

// RevokePreview revokes a preview's link (publishers).
var RevokePreview = Action[RevokePreviewInput]{
	Name:      "preview.revoke",
	NoContent: true,
	Path: func(r *http.Request, in *RevokePreviewInput) {
		if id := r.PathValue("id"); id != "" {
			in.Preview = id
		}
	},
	Form: func(f *httpx.Form, in *RevokePreviewInput) { in.Preview = f.Str("preview") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RevokePreviewInput) (handler.Result, error) {
		return d.Commands.RevokePreview(ctx, a, commandID, in.Preview)
	},
	Resource: func(_ *Deps, _ context.Context, in *RevokePreviewInput, _ string) (string, string) {
		return in.Preview, previewLocation(in.Preview)
	},
}
