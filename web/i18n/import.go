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
	var w *Worded
	switch {
	case errors.As(err, &w):
		return w.Code
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
	if w := (*Worded)(nil); errors.As(err, &w) {
		return w.In(lang)
	}
	switch code := ProblemCode(err); code {
	case "import.unreadable":
		return T(lang, code) + " " + err.Error()
	case "import.too_large", "import.not_utf8":
		return T(lang, code)
	}
	return Error(lang, err)
}

// Worded is an error whose words were settled where it happened, kept
// with its code and its text: an import's failure or problem as another
// replica recorded it (web/imports keeps jobs in a bucket every replica
// reads), where the error's own type did not travel.
type Worded struct {
	Code string `json:"code,omitempty"`
	En   string `json:"en"`
	Zh   string `json:"zh"`
	Text string `json:"text,omitempty"` // the error's own text, for logs
}

func (w *Worded) Error() string { return w.Text }

// In returns w's words in lang.
func (w *Worded) In(lang string) string {
	if lang == Zh {
		return w.Zh
	}
	return w.En
}

// WordError settles err's words (Error) in both languages.
func WordError(err error) *Worded {
	var w *Worded
	if errors.As(err, &w) {
		return w
	}
	var c coded
	code := ""
	if errors.As(err, &c) {
		code = c.Code()
	}
	return &Worded{Code: code, En: Error(En, err), Zh: Error(Zh, err), Text: err.Error()}
}

// WordProblem settles the words of a mistake in an imported file
// (ImportProblem, ProblemCode) in both languages.
func WordProblem(err error) *Worded {
	var w *Worded
	if errors.As(err, &w) {
		return w
	}
	return &Worded{Code: ProblemCode(err), En: ImportProblem(En, err), Zh: ImportProblem(Zh, err), Text: err.Error()}
}
