package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
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

// TestAPIPublishAbsentProposalsMeansAll: a publish that names no proposals
// agrees with a preview that names none — every ready proposal — but only
// with the hash of that preview, which pins the set: without a hash it is
// refused (422, nothing chosen), with the hash of another preview it is
// refused (409) carrying the preview of every ready one, and with the
// preview's hash it publishes exactly the proposals the preview listed.
func TestAPIPublishAbsentProposalsMeansAll(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	pat := e.Client("pat")
	base := "/api/v1/rankings/" + demo.RankingSlug + "/editions"
	res, raw := pat.PostJSON(base+"/preview", map[string]any{}, nil)
	var all api.EditionPreview
	if err := json.Unmarshal([]byte(raw), &all); err != nil || res.StatusCode != http.StatusOK || len(all.Proposals) == 0 {
		t.Fatalf("preview of every ready proposal: %d %v %.300s", res.StatusCode, err, raw)
	}
	// A hash of some other preview (another set, or an older state).
	stale := strings.Repeat("0", 64)
	res, raw = pat.PostJSON(base, map[string]any{"preview_hash": stale}, nil)
	var members struct {
		Proposals   []string `json:"proposals"`
		PreviewHash string   `json:"preview_hash"`
	}
	if err := json.Unmarshal([]byte(raw), &members); err != nil || res.StatusCode != http.StatusConflict ||
		!slices.Equal(members.Proposals, all.Proposals) || members.PreviewHash != all.PreviewHash {
		t.Errorf("publish naming none with another preview's hash: %d %v %.300s, want 409 with the preview of all", res.StatusCode, err, raw)
	}
	if res, raw := pat.PostJSON(base, map[string]any{}, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("publish naming none without a hash: %d %.300s, want 422", res.StatusCode, raw)
	}
	if res, raw := pat.PostJSON(base, map[string]any{"preview_hash": all.PreviewHash}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("publish naming none with the preview's hash: %d %.300s, want 201", res.StatusCode, raw)
	}
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil || ed.Number != all.Number || !slices.Equal(ed.Last.Proposals, all.Proposals) || ed.Last.PreviewHash != all.PreviewHash {
		t.Errorf("edition %d released %v (%v), want %d releasing %v", ed.Number, ed.Last.Proposals, err, all.Number, all.Proposals)
	}
}
