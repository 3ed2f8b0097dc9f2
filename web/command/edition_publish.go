package command

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// PublishInput releases chosen cross-validated proposals as the next
// edition. preview_hash is the hash of the preview the publisher saw: if
// anything changed since, the edition is refused (409).
type PublishInput struct {
	WithCommandID
	Ranking     string   `json:"-"`
	Proposals   []string `json:"proposals"`
	PreviewHash string   `json:"preview_hash"`
	Note        string   `json:"note,omitempty"`
	// All (the desk's form only): no proposals listed, publish every
	// cross-validated proposal the publisher may publish, as the page
	// previewed them, but those in Except (unticked across the pages);
	// the preview hash pins the set.
	All    bool     `json:"-"`
	Except []string `json:"-"`
}

var Publish = Action[PublishInput]{
	Name:    "edition.publish",
	Created: true,
	Path: func(r *http.Request, in *PublishInput) {
		if slug := r.PathValue("slug"); slug != "" {
			in.Ranking = slug
		}
	},
	Form: func(f *httpx.Form, in *PublishInput) {
		in.Ranking, in.Proposals = f.Str("ranking"), f.Strs("proposals")
		in.PreviewHash, in.Note = f.Str("preview_hash"), f.Str("note")
		in.All, in.Except = f.Str("all") == "1", f.Strs("except")
	},
	Run: publishEdition,
	// The read models apply a 10,000-entry edition in tens of seconds:
	// the API's Location answers once they hold it, within this bound.
	Wait: publishWait,
	Resource: func(d *Deps, ctx context.Context, in *PublishInput, _ string) (string, string) {
		ed, err := d.Commands.Edition(ctx, in.Ranking)
		if err != nil || ed.Number == 0 {
			return in.Ranking, "/api/v1/rankings/" + in.Ranking + "/editions"
		}
		n := strconv.Itoa(ed.Number)
		return n, "/api/v1/rankings/" + in.Ranking + "/editions/" + n
	},
}

// publishWait bounds how long a publish waits for the read models.
const publishWait = 30 * time.Second

// publishEdition publishes with the audit head and the other
// cross-validated proposals from the read models (whose baselines the
// edition may change), when the server has them.
func publishEdition(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *PublishInput) (handler.Result, error) {
	c := domain.PublishEdition{CommandID: commandID, Ranking: in.Ranking, Proposals: in.Proposals,
		PreviewHash: in.PreviewHash, Note: in.Note}
	if d.Publish != nil && a.Has(domain.RolePublisher) {
		var err error
		if c.Proposals, err = chosen(d, ctx, a, in.Ranking, choice{all: in.All, listed: in.Proposals, except: in.Except}); err != nil {
			return handler.Result{}, err
		}
		if len(c.Proposals) == 0 && in.All {
			if c.Proposals, err = publishedChoice(d, ctx, in); err != nil {
				return handler.Result{}, err
			}
		}
		if c.AuditHead, c.AuditSeq, err = d.Publish.AuditHead(ctx); err != nil {
			return handler.Result{}, fmt.Errorf("audit head: %w", err)
		}
		if c.Candidates, err = d.Publish.CrossValidated(ctx, in.Ranking); err != nil {
			return handler.Result{}, fmt.Errorf("cross-validated proposals: %w", err)
		}
	}
	return d.Commands.Publish(ctx, a, c)
}

// Ready returns the proposals of ranking a may publish now: every
// cross-validated one but those a may not publish (their own). It is
// what a preview or a publish that names no proposals chooses.
func Ready(d *Deps, ctx context.Context, a domain.Actor, ranking string) ([]string, error) {
	return chosen(d, ctx, a, ranking, choice{all: true})
}

// choice is the proposals a publish or schedule form names: those
// listed, or with all every one the publisher may publish but except.
type choice struct {
	all            bool
	listed, except []string
}

// chosen returns the proposals a form publishes: those it lists, or with
// all every cross-validated proposal of ranking that a may publish, but
// those excepted.
func chosen(d *Deps, ctx context.Context, a domain.Actor, ranking string, c choice) ([]string, error) {
	if !c.all || len(c.listed) > 0 || d.Publish == nil {
		return c.listed, nil
	}
	ready, err := d.Publish.CrossValidated(ctx, ranking)
	if err != nil {
		return nil, fmt.Errorf("cross-validated proposals: %w", err)
	}
	if len(c.except) > 0 {
		out := make(map[string]bool, len(c.except))
		for _, id := range c.except {
			out[id] = true
		}
		ready = slices.DeleteFunc(ready, func(id string) bool { return out[id] })
	}
	return d.Commands.Publishable(ctx, a, ranking, ready)
}

// publishedChoice is what a form posting "all" publishes once its preview
// is published and nothing is left to choose: the proposals that edition
// released, so the command replays the first submit (the same command id)
// or is refused as published — a double submit never reads as "nothing
// to publish" (422). It returns none when the preview is not the latest
// edition's.
func publishedChoice(d *Deps, ctx context.Context, in *PublishInput) ([]string, error) {
	ed, err := PublishedAs(ctx, d.Commands, in.Ranking, in.PreviewHash)
	if err != nil || ed == nil {
		return nil, err
	}
	return Released(ed), nil
}

// PublishedAs returns the ranking's latest edition when it published the
// preview with hash, or nil.
func PublishedAs(ctx context.Context, h *handler.Handler, ranking, hash string) (*domain.Edition, error) {
	if hash == "" || !events.ValidID(ranking) {
		return nil, nil
	}
	ed, err := h.Edition(ctx, ranking)
	if errors.Is(err, domain.ErrRankingMissing) {
		return nil, nil
	}
	if err != nil || ed.Number == 0 || ed.Last.PreviewHash != hash {
		return nil, err
	}
	return ed, nil
}

// Released lists the proposals the latest edition of ed released: an
// edition split into parts lists them in its parts, not its head.
func Released(ed *domain.Edition) []string {
	if ed.Last.Size != nil && ed.Parts != nil && ed.Parts.Number == ed.Number {
		return ed.Parts.Released
	}
	return ed.Last.Proposals
}
