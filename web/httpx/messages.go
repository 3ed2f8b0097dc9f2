package httpx

import (
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
)

// Message returns the message a user reads for err, in lang. It never
// shows the text of an unexpected error, which may hold internals.
func Message(lang string, err error) string {
	var bf *BadField
	if errors.As(err, &bf) {
		return i18n.Field(lang, bf.FieldError())
	}
	return i18n.Error(lang, err)
}

// FieldProblem is one field's message, for forms and problem+json. Code is
// the rule the field broke, for clients that branch on it.
type FieldProblem struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FieldProblems lists the field errors in err (the domain reports one at a time).
func FieldProblems(lang string, err error) []FieldProblem {
	var fe *domain.FieldError
	var bf *BadField
	switch {
	case errors.As(err, &fe):
	case errors.As(err, &bf):
		fe = bf.FieldError()
	default:
		return nil
	}
	return []FieldProblem{{Field: fe.Field, Code: fe.Code, Message: i18n.Field(lang, fe)}}
}
