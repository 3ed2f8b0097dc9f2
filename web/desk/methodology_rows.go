package desk

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The methodology form's lists grow and shrink by submit buttons, so they
// work without a script: "add a row" (name "add", the list as value) and
// "remove" (name "remove", the row as value, "criteria[2]") post the form,
// which comes back with what was typed and one row more or less; nothing
// is stored.

// methodologyListNames are the form's row groups.
var methodologyListNames = []string{"categories", "criteria", "attributes", "scenarios", "filters"}

// withRows wraps the methodology form's post: a press of "add" or
// "remove" re-renders the form, anything else goes on to save.
func (d *Desk) withRows(save http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := httpx.ParseForm(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		add, remove := r.PostForm.Get("add"), r.PostForm.Get("remove")
		if add == "" && remove == "" {
			save.ServeHTTP(w, r)
			return
		}
		values := url.Values{}
		for k, vs := range r.PostForm {
			if k != "add" && k != "remove" && k != "cmd_id" {
				values[k] = vs
			}
		}
		switch {
		case add != "" && isList(add):
			// The page shows the rows sent and one blank row more, so each
			// press adds one; a client that sent none of the list's rows
			// gets a first one to count from.
			if rowCount(values, add) == 0 {
				values.Set(fmt.Sprintf("%s[0].%s", add, firstField(add)), "")
			}
		case remove != "":
			list, i, ok := rowOf(remove)
			if !ok {
				ui.Fail(w, r, &httpx.BadField{Field: "remove", Code: "field.bad_id"})
				return
			}
			removeRow(values, list, i)
		default:
			ui.Fail(w, r, &httpx.BadField{Field: "add", Code: "field.bad_id"})
			return
		}
		newRanking := values.Get("new_ranking") != ""
		title := "desk.meth.change_title"
		if newRanking {
			title = "desk.meth.new_title"
		}
		v := methodologyFormView{Page: ui.PageOf(r, title, "dashboard"), NewRanking: newRanking, Slug: values.Get("slug"),
			Proposal: r.PathValue("id"), Action: r.URL.Path, Values: values, State: ui.FormState{CommandID: f.CommandID()}}
		ui.Render(w, r, http.StatusOK, methodologyFormPage(v))
	})
}

func isList(s string) bool {
	for _, l := range methodologyListNames {
		if l == s {
			return true
		}
	}
	return false
}

// firstField is the field an added row is given, so it counts as sent.
func firstField(list string) string {
	if list == "attributes" || list == "filters" {
		return "key"
	}
	return "slug"
}

// rowOf parses "criteria[2]".
func rowOf(s string) (string, int, bool) {
	list, rest, ok := strings.Cut(s, "[")
	if !ok || !isList(list) || !strings.HasSuffix(rest, "]") {
		return "", 0, false
	}
	i, err := strconv.Atoi(strings.TrimSuffix(rest, "]"))
	return list, i, err == nil && i >= 0
}

// rowCount is how many rows of list values holds (the highest index + 1).
func rowCount(values url.Values, list string) int {
	n := 0
	for k := range values {
		if rest, ok := strings.CutPrefix(k, list+"["); ok {
			if i, err := strconv.Atoi(rest[:max(strings.IndexByte(rest, ']'), 0)]); err == nil {
				n = max(n, i+1)
			}
		}
	}
	return n
}

// removeRow drops row i of list and moves the rows after it up by one.
func removeRow(values url.Values, list string, i int) {
	moved := url.Values{}
	for k, vs := range values {
		rest, ok := strings.CutPrefix(k, list+"[")
		if !ok {
			continue
		}
		end := strings.IndexByte(rest, ']')
		j, err := strconv.Atoi(rest[:max(end, 0)])
		if err != nil || j < i {
			continue
		}
		delete(values, k)
		if j > i {
			moved[fmt.Sprintf("%s[%d]%s", list, j-1, rest[end+1:])] = vs
		}
	}
	for k, vs := range moved {
		values[k] = vs
	}
}
