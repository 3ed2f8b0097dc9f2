package httpx

import (
	"errors"
	"net/http"
	"strconv"

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
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooLarge(lang, err, tooBig.Limit)
	}
	return i18n.Error(lang, err)
}

// tooLarge names the limit a request body went past, which differs by
// door (a report takes 32 KiB, a ranking file 32 MiB, the rest MaxBody):
// in the words of err's own code when it has them (report.too_large),
// else in the request's.
func tooLarge(lang string, err error, limit int64) string {
	key := "request.too_large_limit"
	var c *Error
	if errors.As(err, &c) && i18n.Has(c.Code()) {
		key = c.Code()
	}
	return domain.Args{"limit": SizeText(limit)}.Fill(i18n.T(lang, key))
}

// SizeText writes a size in bytes as people read a limit: "32 KiB",
// "1 MiB", or bytes when it is not a whole number of either.
func SizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
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
