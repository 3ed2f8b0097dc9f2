package web

import (
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
)

// messageOf returns the message a user reads for err, in lang. It never
// shows the text of an unexpected error, which may hold internals.
func messageOf(lang string, err error) string {
	var bf *badField
	if errors.As(err, &bf) {
		return i18n.Field(lang, bf.fieldError())
	}
	return i18n.Error(lang, err)
}

// fieldProblem is one field's message, for forms and problem+json. Code is
// the rule the field broke, for clients that branch on it.
type fieldProblem struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// fieldProblemsOf lists the field errors in err (the domain reports one at a time).
func fieldProblemsOf(lang string, err error) []fieldProblem {
	var fe *domain.FieldError
	var bf *badField
	switch {
	case errors.As(err, &fe):
	case errors.As(err, &bf):
		fe = bf.fieldError()
	default:
		return nil
	}
	return []fieldProblem{{Field: fe.Field, Code: fe.Code, Message: i18n.Field(lang, fe)}}
}
