package desk_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestUsersPageAtTenThousand: 10,000 accounts, registered in bulk, page
// 50 at a time by name, with the count; a page lists its users' tokens;
// a page past the last is 404, as on the public ranking.
func TestUsersPageAtTenThousand(t *testing.T) {
	e := newAdminEnv(t)
	n := 10000
	if raceEnabled {
		n = 1000
	}
	w, err := history.NewWriter(e.Ctx, e.Store, "users", rand.New(rand.NewPCG(1, 2)), time.Now().UTC(), 1)
	if err != nil {
		t.Fatal(err)
	}
	w.BatchSize = 500
	sys := domain.System()
	name := func(i int) string { return fmt.Sprintf("member%05d", i) }
	for i := range n {
		u := name(i)
		if err := w.As(sys)(domain.DecideRegisterUser(w.User(u), sys, domain.RegisterUser{Username: u, DisplayName: "Member " + u,
			PasswordHash: webtest.PasswordHash(), Roles: []string{domain.RoleReviewer}})); err != nil {
			t.Fatal(err)
		}
	}
	mid := name(n / 2)
	if err := w.As(sys)(domain.DecideIssueToken(w.User(mid), sys, domain.IssueToken{User: mid, TokenID: "tok-mid",
		Name: "ci", Hash: strings.Repeat("ab", 32)})); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	c := e.Client("ada")
	doc := e.Get(c, paths.Users, http.StatusOK)
	rows := func(doc *goquery.Document) *goquery.Selection {
		return doc.Find(`[data-testid="users-table"] tbody > tr`)
	}
	total, _, pages := pagerCount(t, doc, "users")
	if total < n || rows(doc).Length() != 50 {
		t.Fatalf("users: %d rows of %d", rows(doc).Length(), total)
	}
	if got := doc.Find(`[data-testid="users-count"]`).Text(); got != fmt.Sprintf("1–50 of %d", total) {
		t.Errorf("users count %q", got)
	}
	// Every user in name order, read whole (as the command line lists them).
	all, err := e.Read.Users(e.Ctx)
	if err != nil || len(all) != total {
		t.Fatalf("%d users, %v; the page counts %d", len(all), err, total)
	}
	at := slices.IndexFunc(all, func(u projections.UserRow) bool { return u.Username == mid })
	page := at/50 + 1
	doc = e.Get(c, fmt.Sprintf("%s?page=%d", paths.Users, page), http.StatusOK)
	if got := rows(doc).Eq(at%50).AttrOr("data-testid", ""); got != "user-"+mid {
		t.Errorf("page %d row %d is %s, want %s", page, at%50, got, mid)
	}
	if doc.Find(`[data-testid="user-`+mid+`"]`).Text() == "" || !strings.Contains(doc.Find(`[data-testid="user-`+mid+`"]`).Text(), "ci") {
		t.Errorf("the page does not list %s's token", mid)
	}
	last := e.Get(c, fmt.Sprintf("%s?page=%d", paths.Users, pages), http.StatusOK)
	if got := rows(last).Last().AttrOr("data-testid", ""); got != "user-"+all[len(all)-1].Username || rows(last).Length() != total-(pages-1)*50 {
		t.Errorf("last page: %d rows, last %s", rows(last).Length(), got)
	}
	e.Get(c, fmt.Sprintf("%s?page=%d", paths.Users, pages+1), http.StatusNotFound)
}
