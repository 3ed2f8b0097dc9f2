// Package imports runs the imports of ranking files and CSVs that the desk
// and the API start: each upload is checked (a dry run) in the background,
// and opens its proposals only when its owner confirms. The work belongs
// to the server, not to a request: a browser that leaves, or a client that
// stops polling, loses nothing, and the page or the API shows the job's
// progress when asked again. The import itself is idempotent (its ids are
// derived from the content), so a job the server's restart cut short
// finishes when the same file is imported again.
package imports

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/httpx"
)

// State is where a job is.
type State string

const (
	Checking State = "checking" // the dry run is running
	Checked  State = "checked"  // the dry run is done: its summary waits for confirmation
	Opening  State = "opening"  // confirmed: the proposals are being opened
	Done     State = "done"     // every proposal is open
	Failed   State = "failed"   // the store failed; importing the file again resumes
)

// keep bounds the jobs held, and so the memory their files take (a
// checked file waits in memory for its confirmation): a server keeps the
// latest, and an upload while all of them run is refused (ErrBusy).
const keep = 8

var (
	// ErrMissing: no job by that id of that user (another user's job is
	// missing to them too).
	ErrMissing = fmt.Errorf("%w: no such import", domain.ErrNotFound)
	// ErrNotReady refuses a confirmation before the check ended, or of a
	// file with problems.
	ErrNotReady = fmt.Errorf("%w: the import is not checked, or its file has problems", domain.ErrState)
	// ErrBusy refuses an upload while keep jobs are running (429).
	ErrBusy = &httpx.RetryLater{Err: httpx.ErrTooMany, After: 30 * time.Second}
)

// Job is a snapshot of one import.
type Job struct {
	ID      string
	Owner   string
	State   State
	Stage   rankfile.Stage // what Done and Total count
	Done    int
	Total   int
	Summary rankfile.Summary // the dry run's; Problems empty when it may be confirmed
	Opened  int              // proposals the confirmation opened (the summary's Open, once done)
	Err     error            // the store's failure, when Failed
	Started time.Time
}

// Confirmable reports whether the owner may confirm the job now.
func (j Job) Confirmable() bool {
	return j.State == Checked && len(j.Summary.Problems) == 0 && j.Summary.Open > 0
}

type job struct {
	Job
	actor domain.Actor
	file  *rankfile.File // kept from the check for the confirmation; nil once done
}

// Jobs holds the server's imports.
type Jobs struct {
	h   *handler.Handler
	log *slog.Logger
	now func() time.Time

	mu    sync.Mutex
	jobs  map[string]*job
	order []string // oldest first
}

// New returns the imports run through h.
func New(h *handler.Handler, log *slog.Logger, now func() time.Time) *Jobs {
	return &Jobs{h: h, log: log, now: now, jobs: map[string]*job{}}
}

// Check starts the dry run of u as actor (who must hold the editor role)
// and returns the job's id at once.
func (js *Jobs) Check(actor domain.Actor, u rankfile.Upload) (string, error) {
	return js.start(actor, u, false)
}

// Import starts the dry run of u as actor and, when it finds the file
// without problems, opens its proposals as a confirmation would.
func (js *Jobs) Import(actor domain.Actor, u rankfile.Upload) (string, error) {
	return js.start(actor, u, true)
}

func (js *Jobs) start(actor domain.Actor, u rankfile.Upload, confirm bool) (string, error) {
	if !actor.Has(domain.RoleEditor) {
		return "", fmt.Errorf("import as %q: %w", actor.Name, domain.ErrRoleRequired)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	j := &job{Job: Job{ID: hex.EncodeToString(b[:]), Owner: actor.Name, State: Checking, Stage: rankfile.StageCheck,
		Started: js.now()}, actor: actor}
	js.mu.Lock()
	defer js.mu.Unlock()
	if err := js.makeRoom(); err != nil {
		return "", err
	}
	js.jobs[j.ID] = j
	js.order = append(js.order, j.ID)
	go js.check(j, u, confirm)
	return j.ID, nil
}

// makeRoom forgets the oldest job that is not running once keep are held.
func (js *Jobs) makeRoom() error {
	if len(js.order) < keep {
		return nil
	}
	for i, id := range js.order {
		if st := js.jobs[id].State; st != Checking && st != Opening {
			delete(js.jobs, id)
			js.order = append(js.order[:i:i], js.order[i+1:]...)
			return nil
		}
	}
	return ErrBusy
}

// Get returns user's job id.
func (js *Jobs) Get(id, user string) (Job, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.jobs[id]
	if !ok || j.Owner != user {
		return Job{}, ErrMissing
	}
	return j.Job, nil
}

// Confirm opens the proposals of user's checked job id. Confirming a job
// that is opening or done does nothing more: a double submit opens nothing
// twice.
func (js *Jobs) Confirm(id, user string) (Job, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.jobs[id]
	switch {
	case !ok || j.Owner != user:
		return Job{}, ErrMissing
	case j.State == Opening || j.State == Done:
		return j.Job, nil
	case !j.Confirmable():
		return j.Job, ErrNotReady
	}
	j.State, j.Stage, j.Done, j.Total = Opening, rankfile.StageOpen, 0, len(j.file.Entries)
	go js.open(j)
	return j.Job, nil
}

// update changes j under the lock.
func (js *Jobs) update(j *job, f func(*job)) {
	js.mu.Lock()
	defer js.mu.Unlock()
	f(j)
}

func (js *Jobs) progress(j *job) func(rankfile.Stage, int, int) {
	return func(s rankfile.Stage, done, total int) {
		js.update(j, func(j *job) { j.Stage, j.Done, j.Total = s, done, total })
	}
}

// check runs the dry run. Its context is the server's, not a request's.
func (js *Jobs) check(j *job, u rankfile.Upload, confirm bool) {
	f, sum, err := rankfile.Check(context.Background(), js.h, u, j.actor, rankfile.Options{Progress: js.progress(j)})
	js.update(j, func(j *job) {
		j.Summary, j.file = sum, f
		j.State = Checked
		if err != nil {
			j.State, j.Err = Failed, err
		}
	})
	if err != nil {
		js.log.Error("import check failed", "import", j.ID, "user", j.Owner, "err", err)
		return
	}
	if confirm {
		_, _ = js.Confirm(j.ID, j.Owner) // ErrNotReady: problems, or nothing to open; the job shows which
	}
}

// open runs the import the owner confirmed.
func (js *Jobs) open(j *job) {
	rep, err := rankfile.ImportWith(context.Background(), js.h, j.file, j.actor, rankfile.Options{Progress: js.progress(j)})
	js.update(j, func(j *job) {
		j.file = nil
		j.State, j.Opened = Done, rep.Summary.Open
		if err != nil {
			j.State, j.Err = Failed, err
		}
	})
	if err != nil {
		js.log.Error("import failed", "import", j.ID, "user", j.Owner, "err", err, "partly", rep.Appended)
		return
	}
	js.log.Info("import", "import", j.ID, "user", j.Owner, "ranking", rep.Summary.Ranking, "opened", rep.Summary.Open)
}
