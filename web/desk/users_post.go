package desk

import (
	"errors"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// hashNewPassword hashes a password typed into field, or reports its
// length next to the field.
func hashNewPassword(field, pw string) (string, error) {
	h, err := auth.HashPassword(pw)
	if errors.Is(err, auth.ErrPasswordLength) {
		return "", &domain.FieldError{Field: field, Code: "field.password_length", Args: domain.Args{"min": auth.MinPassword, "max": auth.MaxPassword}}
	}
	return h, err
}

// usersDone returns to the users page with a notice (done is a catalog
// key suffix, never user input), at the user the form acted on.
func usersDone[In any](done string) func(r *http.Request, _ *In, _ handler.Result) string {
	return func(r *http.Request, _ *In, _ handler.Result) string {
		u := paths.Users + "?done=" + done
		if name := r.PathValue("name"); domain.CheckUsername(name) == nil {
			u += "#user-" + name
		}
		return u
	}
}

// usersFailed shows the users page again with the failed form's message.
func usersFailed[In any](d *Desk, formID string) func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
	return func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
		d.RenderUsers(w, r, status, formID, st)
	}
}
