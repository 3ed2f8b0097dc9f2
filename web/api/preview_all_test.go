package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIPreviewAbsentProposalsMeansAll: the OpenAPI document says an absent
// (or null) "proposals" previews every cross-validated proposal of the
// ranking; an explicit empty list chooses nothing and is refused.
func TestAPIPreviewAbsentProposalsMeansAll(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat := e.Client("pat")
	previewURL := "/api/v1/rankings/" + demo.RankingSlug + "/editions/preview"
	all, err := e.Read.CrossValidated(e.Ctx, demo.RankingSlug)
	if err != nil || len(all) == 0 {
		t.Fatalf("cross-validated proposals %v, %v: the demo holds some", all, err)
	}
	want, _, err := e.Cmd.PreviewEdition(e.Ctx, demo.RankingSlug, all)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []any{map[string]any{}, map[string]any{"proposals": nil}} {
		res, raw := pat.PostJSON(previewURL, body, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("preview %v: status %d, want 200; %.300s", body, res.StatusCode, raw)
		}
		var pv api.EditionPreview
		if err := json.Unmarshal([]byte(raw), &pv); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pv.Proposals, want.Proposals) || pv.PreviewHash != want.Hash {
			t.Errorf("preview %v: proposals %v hash %s, want every cross-validated one %v hash %s",
				body, pv.Proposals, pv.PreviewHash, want.Proposals, want.Hash)
		}
	}
	if res, raw := pat.PostJSON(previewURL, map[string]any{"proposals": []string{}}, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an empty choice: status %d, want 422; %.200s", res.StatusCode, raw)
	}
}
