package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestAPIUsersListAtSize pages a list of 10,000 users: the users are
// appended as events in atomic batches (not 10,000 requests), and a page
// reads only its own users' state. It runs alone, as the other tests at
// size do.
func TestAPIUsersListAtSize(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: lists 10,000 users; go test -short skips it")
	}
	e := newAdminEnv(t)
	const n = 10_000
	now := time.Now()
	for from := 0; from < n; from += 1000 {
		evs := make([]events.Event, 0, 1000)
		for i := from; i < from+1000; i++ {
			name := fmt.Sprintf("u%05d", i)
			ev, err := events.New(events.NewID(now), now, "system", name, &events.UserRegistered{Username: name,
				DisplayName: "User " + strconv.Itoa(i), PasswordHash: webtest.PasswordHash(), Roles: []string{"reviewer"}})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		if _, err := e.Store.Append(e.Ctx, nil, evs...); err != nil {
			t.Fatal(err)
		}
	}
	e.CaughtUp()
	ada := e.Client("ada")
	page := func(q string) api.UserList {
		t.Helper()
		var l api.UserList
		e.call(ada, http.MethodGet, "/api/v1/users"+q, nil, nil, http.StatusOK, &l)
		return l
	}
	first := page("")
	if first.Total < n || len(first.Users) != 50 || first.Next != 2 {
		t.Fatalf("the first page: total %d, %d users, next %d; want ≥ %d, 50, 2", first.Total, len(first.Users), first.Next, n)
	}
	last := (first.Total + 199) / 200
	var names []string
	for _, p := range []int{1, 26, last} {
		l := page("?limit=200&page=" + strconv.Itoa(p))
		want := 200
		if p == last {
			want = first.Total - 200*(last-1)
		}
		if l.Total != first.Total || len(l.Users) != want || (l.Next != 0) != (p < last) {
			t.Fatalf("page %d: total %d, %d users, next %d", p, l.Total, len(l.Users), l.Next)
		}
		for _, u := range l.Users {
			names = append(names, u.Username)
		}
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("the pages overlap or are out of order")
	}
	if got := page("?limit=1000").Users; len(got) != 200 {
		t.Errorf("limit=1000 answered %d users, want the cap of 200", len(got))
	}
}
