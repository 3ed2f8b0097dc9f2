package desk

import (
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The read models take tens of seconds to apply an edition of 10,000
// entries, and the public page of an edition is built from them: a
// publisher sent there at once read "Not found" for an edition that was
// stored. The publish form waits a little, then sends the publisher to the
// edition's public page if the read models hold it, or else to a desk page
// built from the edition itself (its number, size, snapshot hash) that
// refreshes until they do and then redirects to the public page.

// pendingRetry is how often the page being prepared refreshes.
const pendingRetry = 2 * time.Second

// publishAction is the API's publish, waiting only the usual bound for the
// read models: the desk has a page to show the publisher meanwhile.
var publishAction = func() command.Action[command.PublishInput] {
	act := command.Publish
	act.Wait = 0
	return act
}()

// PendingURL is the desk's page of edition n of ranking while the read
// models prepare its public page.
func PendingURL(ranking string, n int) string {
	return paths.Publish + "/editions/" + ranking + "/" + strconv.Itoa(n)
}

// published sends the publisher to the public page of the new edition, or
// to the page that waits for it.
func (d *Desk) published(r *http.Request, in *command.PublishInput, res handler.Result) string {
	ed, err := d.cmd.Edition(r.Context(), in.Ranking)
	if err != nil || ed.Number == 0 {
		return paths.Publish
	}
	if !d.applied(res.Sequence) {
		return PendingURL(in.Ranking, ed.Number)
	}
	return ui.WithPublished(EditionURL(in.Ranking, ed.Number), ed.Number)
}

// applied reports whether the read models hold the stream up to seq.
func (d *Desk) applied(seq uint64) bool {
	at, _ := d.read.Checkpoint()
	return at >= seq
}

// pendingView is an edition stored but not yet in the read models.
type pendingView struct {
	ui.Page
	Ranking              string
	Number               int
	Proposals, Changes   int
	NewEntries           int
	SnapshotHash         string
	Applied, Sequence    uint64 // the read models' position and the edition's
	EditionHref, Refresh string
}

// servePending serves the edition being prepared: 404 when the stream
// holds no such edition, a redirect to its public page once the read
// models hold it, else a page of what the edition itself says that
// refreshes every pendingRetry.
func (d *Desk) servePending(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || !events.ValidID(slug) {
		ui.Fail(w, r, domain.ErrEditionMissing)
		return
	}
	ed, err := d.cmd.Edition(r.Context(), slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if ed.Number < n {
		ui.Fail(w, r, domain.ErrEditionMissing)
		return
	}
	// The edition's aggregate may have moved past it (a later edition, a
	// schedule): waiting for its last event waits for the edition too.
	if d.applied(ed.Seq) {
		http.Redirect(w, r, EditionURL(slug, n), http.StatusSeeOther)
		return
	}
	v := pendingView{Page: ui.PageOf(r, "publish.pending.title", "publish"), Ranking: slug, Number: n, Sequence: ed.Seq,
		EditionHref: EditionURL(slug, n), Refresh: strconv.Itoa(int(pendingRetry / time.Second))}
	v.Applied, _ = d.read.Checkpoint()
	// The publish's redirect marks this server behind (ui.WithBehind);
	// this page says so in its own words, with the progress: a second,
	// vaguer notice above it ("may not show your change yet") read as if
	// the publish might not have happened.
	v.Notice = ""
	if last := ed.Last; last.Number == n {
		v.Proposals, v.Changes, v.NewEntries, v.SnapshotHash = len(last.Proposals), len(last.Changes), len(last.NewEntries), last.SnapshotHash
		if s := last.Size; s != nil {
			v.Proposals, v.Changes, v.NewEntries = s.Proposals, s.Changes, s.NewEntries
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Retry-After", v.Refresh)
	w.Header().Set("Refresh", v.Refresh)
	ui.Render(w, r, http.StatusOK, pendingPage(v))
}
