package desk_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestVendorDeskForms: the desk's doors — an admin invites a vendor with
// its entries on the users page; the vendor's statement form posts and
// shows the statement on the entry page; the same form about another
// entry, or empty, changes nothing.
func TestVendorDeskForms(t *testing.T) {
	e, vendor := webtest.NewVendor(t)
	admin := e.Bearer("admin")
	res, body := e.Post("/desk/users", "10.0.0.3", url.Values{"username": {"bolt"}, "display_name": {"Bolt GPU"},
		"roles": {"vendor"}, "entries": {demo.RankingSlug + "/ppio, " + demo.RankingSlug + "/aliyun"}, "cmd_id": {"invite-bolt-1"}},
		"Authorization", admin)
	if res.StatusCode >= 400 {
		t.Fatalf("invite a vendor on the desk: %d %.300s", res.StatusCode, body)
	}
	e.CaughtUp()
	u, err := e.Cmd.User(e.Ctx, "bolt")
	if err != nil || strings.Join(u.Entries, ",") != demo.RankingSlug+"/aliyun,"+demo.RankingSlug+"/ppio" {
		t.Fatalf("invited vendor's entries: %+v, %v", u, err)
	}
	if res, _ := e.Post("/desk/users", "10.0.0.3", url.Values{"username": {"cole"}, "roles": {"vendor"}, "cmd_id": {"invite-cole-1"}},
		"Authorization", admin); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a vendor without entries on the desk: %d", res.StatusCode)
	}

	page := "/desk/entries/" + demo.RankingSlug + "/aliyun/replies"
	if res, body := e.Get(page, "Authorization", vendor); res.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="reply-form"`) {
		t.Fatalf("statements page: %d", res.StatusCode)
	}
	res, _ = e.Post(page, "10.0.0.3", url.Values{"text_zh": {"我们的价格已更新。"}, "cmd_id": {"reply-desk-1"}}, "Authorization", vendor)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/r/"+demo.RankingSlug+"/e/aliyun") {
		t.Fatalf("statement form: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	if doc := e.Page("/r/" + demo.RankingSlug + "/e/aliyun"); !strings.Contains(doc.Find(`[data-testid="reply-zh"]`).Text(), "我们的价格已更新。") {
		t.Error("the desk's statement is not on the entry page")
	}
	other := "/desk/entries/" + demo.RankingSlug + "/ppio/replies"
	if res, _ := e.Post(other, "10.0.0.3", url.Values{"text_en": {"x"}, "cmd_id": {"reply-desk-2"}}, "Authorization", vendor); res.StatusCode != http.StatusForbidden {
		t.Errorf("statement form about another entry: %d", res.StatusCode)
	}
	if res, _ := e.Post(page, "10.0.0.3", url.Values{"text_en": {""}, "cmd_id": {"reply-desk-3"}}, "Authorization", vendor); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("empty statement form: %d", res.StatusCode)
	}
	if res, _ := e.Get("/desk", "Authorization", vendor); res.StatusCode != http.StatusSeeOther {
		t.Errorf("a vendor's dashboard: %d, want its inbox", res.StatusCode)
	}
}
