package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// unverifiedOK is the approve form's field that confirms an approval
// verifying none of the revision's evidence.
const unverifiedOK = "unverified_ok"

// validatedParam marks the proposal page an approval leads to when it
// cross-validated the proposal: the page says so (the page checks the
// status itself, so the mark cannot claim what is not).
const validatedParam = "validated"

// voted is where a vote from the proposal page goes: the proposal's page,
// marked when this approval cross-validated it.
func (d *Desk) voted(r *http.Request, in *command.VoteInput, _ handler.Result) string {
	to := ProposalPath(in.Proposal)
	if in.Verdict != events.Approve {
		return to
	}
	if p, err := d.cmd.Proposal(r.Context(), in.Proposal); err == nil && p.Status == domain.StatusCrossValidated {
		return to + "?" + validatedParam + "=1"
	}
	return to
}

// askUnverified stands before the proposal page's vote form: an approval
// that ticks none of the current revision's evidence comes back with the
// question "approve without verifying any evidence?" and a box to confirm
// it, instead of being stored at once. An approval is allowed to verify
// nothing (the quorum then waits for another approver to verify the
// evidence), but on the page it was mostly a reviewer who forgot to tick.
// The question is a step of the form, so it works without JavaScript; the
// JSON API asks nothing.
func (d *Desk) askUnverified(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := httpx.ParseForm(r)
		if err != nil || f.Str("verdict") != events.Approve || len(f.Strs("verified_evidence")) > 0 || f.Str(unverifiedOK) != "" {
			next.ServeHTTP(w, r)
			return
		}
		lang := httpx.Lang(r.Context())
		st := ui.FormState{Summary: i18n.T(lang, "desk.vote.unverified_ask"),
			Fields: map[string]string{unverifiedOK: i18n.T(lang, "desk.vote.unverified_ask")},
			Values: f.Values(), CommandID: f.CommandID()}
		v, err := d.buildProposalPage(r, "approve", st)
		if err != nil || !v.Can.Vote || len(v.Citable) == 0 {
			// Nothing to verify, or not the user's to approve: the command
			// decides as it would have.
			next.ServeHTTP(w, r)
			return
		}
		ui.Render(w, r, http.StatusUnprocessableEntity, proposalPage(v))
	})
}
