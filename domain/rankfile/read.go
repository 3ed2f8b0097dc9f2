package rankfile

import (
	"bytes"
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
)

// Upload is a file brought in to import: a ranking file (JSON) or a
// ranking CSV for an existing ranking, told apart by their first byte.
type Upload struct {
	Data []byte
	// Ranking names the ranking a CSV's rows are for; a ranking file
	// names its own, and Ranking must then be "" or the same.
	Ranking string
}

// IsJSON reports whether the upload is a ranking file rather than a CSV.
func (u Upload) IsJSON() bool {
	return bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(u.Data, []byte("\ufeff")), " \t\r\n"), []byte("{"))
}

// Read decodes the upload. A mistake in the file comes back as Problems
// placed on their lines and columns; the Locator places the mistakes the
// domain finds later. Other errors are the store's.
func Read(ctx context.Context, h *handler.Handler, u Upload) (*File, Locator, error) {
	if u.IsJSON() {
		f, err := Decode(bytes.NewReader(u.Data))
		if err != nil {
			return nil, nil, Problems{DecodeProblem(u.Data, err)}
		}
		if u.Ranking != "" && u.Ranking != f.Slug {
			return nil, nil, Problems{{Err: &domain.FieldError{Field: "ranking", Code: "import.other_ranking",
				Args: domain.Args{"value": f.Slug}, Msg: "the file is for ranking " + f.Slug}}}
		}
		return f, LocateJSON(u.Data), nil
	}
	if u.Ranking == "" {
		return nil, nil, Problems{{Err: domain.Invalid("ranking", "field.required", nil)}}
	}
	if err := domain.CheckSlug("ranking", u.Ranking); err != nil {
		return nil, nil, Problems{}.add(err)
	}
	r, err := h.Ranking(ctx, u.Ranking)
	if errors.Is(err, domain.ErrRankingMissing) {
		return nil, nil, Problems{{Err: err}}
	}
	if err != nil {
		return nil, nil, err
	}
	f, loc, err := DecodeCSV(bytes.NewReader(u.Data), u.Ranking, r.Methodology())
	var probs Problems
	if errors.As(err, &probs) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNotUTF8) {
		if probs == nil {
			probs = Problems{{Err: err}}
		}
		return nil, nil, probs
	}
	if err != nil {
		return nil, nil, err
	}
	return f, loc, nil
}

// Check reads the upload and dry-runs it as actor: the Summary says what
// importing it would do, its Problems every mistake found, placed. The
// File is nil when the upload could not be read.
func Check(ctx context.Context, h *handler.Handler, u Upload, actor domain.Actor, o Options) (*File, Summary, error) {
	f, loc, err := Read(ctx, h, u)
	var probs Problems
	if errors.As(err, &probs) {
		return nil, Summary{Ranking: u.Ranking, Problems: probs}, nil
	}
	if err != nil {
		return nil, Summary{}, err
	}
	s, err := DryRun(ctx, h, f, actor, o)
	if err != nil {
		return nil, Summary{}, err
	}
	loc.Locate(s.Problems)
	return f, s, nil
}
