package desk_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestPublishLandsOnTheEdition: the read models lag behind a publish
// (stopped here; a 10,000-entry edition keeps them busy for tens of
// seconds). The publish still answers with an address that shows the
// edition at once — the desk's page of it, built from the edition itself,
// refreshing — and that address leads to the public page once the read
// models hold it. The publish sent the publisher to the public page,
// which answered 404.
func TestPublishLandsOnTheEdition(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	slug, _ := readyRanking(t, e, 44)
	pat := e.Client("pat")
	form := publishForm(e, pat, slug)

	e.StopProjection()
	status, loc, page := e.Post(pat, paths.Publish, form)
	if status != http.StatusSeeOther {
		t.Fatalf("publish: status %d, %q; want 303", status, webtest.ByTestID(page, "form-error").Text())
	}
	res, body := pat.Do(http.MethodGet, loc, nil, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s right after the publish: status %d, want 200", loc, res.StatusCode)
	}
	doc := webtest.Doc(t, body)
	if n, _ := webtest.ByTestID(doc, "edition-pending").Attr("data-edition"); n != "1" {
		t.Fatalf("GET %s: no edition 1 being prepared; %.400s", loc, body)
	}
	if got := webtest.ByTestID(doc, "edition-pending-size").Text(); !strings.Contains(got, "3 proposals") {
		t.Errorf("the page says %q, want the edition's 3 proposals", got)
	}
	if n := webtest.ByTestID(doc, "notice"); n.Length() != 0 {
		t.Errorf("the page also shows the notice %q: it says itself that the edition is being prepared", n.Text())
	}
	if res.Header.Get("Refresh") == "" || res.Header.Get("Retry-After") == "" {
		t.Errorf("no Refresh or Retry-After: %v", res.Header)
	}

	e.StartProjection()
	e.CaughtUp()
	res, _ = pat.Do(http.MethodGet, loc, nil, nil)
	if want := desk.EditionURL(slug, 1); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
		t.Fatalf("GET %s once the read models hold the edition: status %d to %q, want 303 to %s",
			loc, res.StatusCode, res.Header.Get("Location"), want)
	}
	e.Get(pat, desk.EditionURL(slug, 1), http.StatusOK)
	// An edition the stream does not hold is not being prepared.
	e.Get(pat, desk.PendingURL(slug, 2), http.StatusNotFound)
}
