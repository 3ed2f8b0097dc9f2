package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The desk's forms post through the command path (web/command): each
// runs its action, redirects on success, and on failure shows the page
// again with the message in the form that failed.

// proposalForm serves act as a form of the proposal page; form names the
// form a failed submit is shown in.
func proposalForm[In command.Input](d *Desk, act command.Action[In], form func(*In) string) http.Handler {
	return command.Form(d.write, act,
		func(r *http.Request, _ *In, _ handler.Result) string { return ProposalPath(r.PathValue("id")) },
		func(w http.ResponseWriter, r *http.Request, in *In, st ui.FormState, status int) {
			d.RenderProposal(w, r, status, form(in), st)
		})
}

// formNamed returns a form namer for an action posted from one form only.
func formNamed[In command.Input](name string) func(*In) string {
	return func(*In) string { return name }
}

// changeFormName tells the score form from the attribute forms.
func changeFormName(in *command.ProposeChangeInput) string {
	if in.Attribute != "" && in.Criterion == "" {
		return "attr-" + in.Attribute
	}
	return "score"
}

// voteFormName tells the approve form from the reject form.
func voteFormName(in *command.VoteInput) string {
	if in.Verdict == events.Reject {
		return "reject-vote"
	}
	return "approve"
}

// proposalOpened is where a new proposal goes: its page (the proposal's
// id is its command id, which is the id of the first event stored), with
// the re-verification it starts from, if any (proposalOpenedFrom).
func proposalOpened(r *http.Request, _ *command.OpenInput, res handler.Result) string {
	return proposalOpenedFrom(r, res)
}

// newProposalFailed shows the form again with the message of a failed open.
func (d *Desk) newProposalFailed(w http.ResponseWriter, r *http.Request, in *command.OpenInput, st ui.FormState, status int) {
	form := "existing"
	if in.NewEntry != nil {
		form = "new"
	}
	// The handler reports a malformed slug as a bad "proposal"; point the
	// editor at the field to correct.
	if _, ok := st.Fields["proposal"]; ok {
		if err := domain.CheckSlug("entry", in.Entry); err != nil {
			st.Summary = httpx.Message(httpx.Lang(r.Context()), err)
			st.Fields = map[string]string{"entry": st.Summary}
		}
	}
	d.RenderNewProposal(w, r, status, NewProposalChoice{Ranking: in.Ranking, Entry: in.Entry, Failed: form}, st)
}
