package desk

import (
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/ui"
)

// A reviewer's declaration of a conflict of interest, from an entry's
// page: with this entry, or with its whole ranking. The declaration is
// public on the ranking's methodology page.

// conflictBox is the entry page's conflict part: the declarations already
// made in the ranking that touch the entry, and the reviewer's form.
type conflictBox struct {
	Declared []conflictLine
	CanAdd   bool // a reviewer
	Form     ui.FormState
}

// conflictLine is one declaration in words.
type conflictLine struct {
	User   string
	Scope  string // "this entry" or "the whole ranking"
	Reason string
	When   string
}

// conflictBoxOf lists the declarations of the ranking that concern entry.
func conflictBoxOf(p ui.Page, rows []projections.ConflictRow, entry string, st ui.FormState) conflictBox {
	box := conflictBox{CanAdd: p.Has(domain.RoleReviewer), Form: st}
	for _, c := range rows {
		if c.Entry != "" && c.Entry != entry {
			continue
		}
		scope := p.T("desk.conflict.scope.entry")
		if c.Entry == "" {
			scope = p.T("desk.conflict.scope.ranking")
		}
		box.Declared = append(box.Declared, conflictLine{User: c.User, Scope: scope, Reason: c.Reason, When: p.DateTime(parseTime(c.At))})
	}
	return box
}

// conflictDeclared goes back to the entry the form was on, or to the
// ranking's public methodology page for a whole-ranking declaration made
// from elsewhere.
func conflictDeclared(r *http.Request, in *command.ConflictInput, _ handler.Result) string {
	if back := r.PostFormValue("entry_page"); back != "" {
		return entryPath(in.Ranking, back)
	}
	return "/r/" + url.PathEscape(in.Ranking) + "/methodology"
}

// conflictFailed shows the entry page again with the message in its
// conflict form.
func (d *Desk) conflictFailed(w http.ResponseWriter, r *http.Request, in *command.ConflictInput, st ui.FormState, status int) {
	r.SetPathValue("ranking", in.Ranking)
	r.SetPathValue("entry", r.PostFormValue("entry_page"))
	d.renderEntry(w, r, status, st)
}
