package handler

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The commands on embargoed previews: a publisher creates one (its link's
// token drawn by the caller, only the hash passed here) or revokes it; the
// preview page records an opening.

// CreatePreview creates a preview of chosen cross-validated proposals. The
// proposals must make an edition together now (the same computation the
// publish page shows); a proposal that is not cross-validated is refused
// naming "proposals".
func (h *Handler) CreatePreview(ctx context.Context, a domain.Actor, c domain.CreatePreview) (Result, error) {
	if err := domain.CheckPreview(c, h.now()); err != nil {
		return Result{}, err
	}
	// Loaded in one pass, as the publish page's preview does: thousands
	// of proposals one at a time take many seconds.
	if err := h.preloadChosen(ctx, c.Ranking, c.Proposals); err != nil {
		return Result{}, err
	}
	chosen := make([]*domain.Proposal, len(c.Proposals))
	if err := h.proposals(ctx, c.Proposals, chosen); err != nil && !errors.Is(err, domain.ErrProposalMissing) {
		return Result{}, err
	}
	for i, p := range chosen {
		if !p.Exists() || p.Ranking != c.Ranking || p.Status != domain.StatusCrossValidated {
			return Result{}, domain.Invalid("proposals", "preview.not_cross_validated", domain.Args{"proposal": c.Proposals[i]})
		}
	}
	if _, _, err := h.PreviewEdition(ctx, c.Ranking, c.Proposals); err != nil {
		return Result{}, previewRefusal(err)
	}
	// The proposals are decided on as loaded above, not read again under
	// the command: a preview of a 10,000-entry edition would lock-step
	// 10,000 reads, and the page computes the edition anew at each opening
	// anyway (a proposal that changed since answers 404 there).
	reads := make([]events.Aggregate, 0, len(c.Vendors))
	for _, v := range c.Vendors {
		reads = append(reads, domain.UserID(v))
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.PreviewAggregate(c.CommandID)},
		reads: reads,
		decide: func(s states) ([]domain.Change, error) {
			vendors := make([]*domain.User, len(c.Vendors))
			for i, v := range c.Vendors {
				vendors[i] = s.user(v)
			}
			return domain.DecidePreview(s.preview(c.CommandID), chosen, vendors, a, c, h.now())
		}})
}

// previewRefusal words the edition computation's refusal of proposals
// that are each cross-validated but do not make an edition together (two
// change the same value, a baseline moved) as the preview's bad field.
func previewRefusal(err error) error {
	if errors.Is(err, domain.ErrStaleBaseline) || errors.Is(err, domain.ErrDuplicateTarget) ||
		errors.Is(err, domain.ErrEntryMissing) || errors.Is(err, domain.ErrNotCrossValidated) {
		return domain.Invalid("proposals", "preview.no_edition", nil)
	}
	return err
}

// RevokePreview revokes a preview's link.
func (h *Handler) RevokePreview(ctx context.Context, a domain.Actor, commandID, id string) (Result, error) {
	if !events.ValidID(id) {
		return Result{}, domain.ErrPreviewMissing
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{domain.PreviewAggregate(id)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideRevokePreview(s.preview(id), a)
		}})
}

// OpenPreview records an opening of preview id's link, whose token hashes
// to tokenHash, folded per domain.PreviewOpenFold; domain.ErrPreviewClosed
// when the link does not open it (revoked, expired, another token).
func (h *Handler) OpenPreview(ctx context.Context, id, tokenHash string) (Result, error) {
	if !events.ValidID(id) {
		return Result{}, domain.ErrPreviewClosed
	}
	return h.run(ctx, command{actor: Intake(), writes: []events.Aggregate{domain.PreviewAggregate(id)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideOpenPreview(s.preview(id), tokenHash, h.now())
		}})
}

// Preview returns a preview's current state.
func (h *Handler) Preview(ctx context.Context, id string) (*domain.PreviewLink, error) {
	if !events.ValidID(id) {
		return nil, domain.ErrPreviewMissing
	}
	s, err := h.read(ctx, domain.PreviewAggregate(id))
	if p, ok := s.(*domain.PreviewLink); ok && err == nil && p.Exists() {
		return p, nil
	}
	return nil, orErr(err, domain.ErrPreviewMissing)
}

func (s states) preview(id string) *domain.PreviewLink {
	return stateOr(s, domain.PreviewAggregate(id), &domain.PreviewLink{})
}
