package i18n

import (
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
)

// ProblemCode is the catalog key of one mistake in an imported file: its
// field error's or coded error's, else what the decoder refused.
func ProblemCode(err error) string {
	var fe *domain.FieldError
	var c coded
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.As(err, &c) && Has(c.Code()):
		return c.Code()
	case errors.Is(err, rankfile.ErrTooLarge):
		return "import.too_large"
	case errors.Is(err, rankfile.ErrNotUTF8):
		return "import.not_utf8"
	}
	return "import.unreadable"
}

// ImportProblem words one mistake in an imported file. What the decoder
// refused (a JSON syntax error, an unknown field) carries no code; its
// text is about the file the user sent, so it follows the catalog's words.
func ImportProblem(lang string, err error) string {
	switch code := ProblemCode(err); code {
	case "import.unreadable":
		return T(lang, code) + " " + err.Error()
	case "import.too_large", "import.not_utf8":
		return T(lang, code)
	}
	return Error(lang, err)
}
