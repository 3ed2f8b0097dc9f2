// Package imports runs the imports of ranking files and CSVs that the desk
// and the API start: each upload is checked (a dry run) in the background,
// and opens its proposals only when its owner confirms. The work belongs
// to the server, not to a request: a browser that leaves, or a client that
// stops polling, loses nothing, and the page or the API shows the job's
// progress when asked again. The import itself is idempotent (its ids are
// derived from the content), so a job the server's restart cut short
// finishes when the same file is imported again.
//
// On a cluster the jobs are shared (Share, shared.go): each job's state is
// kept in a JetStream KV bucket, so every replica answers for it, and a job
// whose replica stopped mid-run is answered as failed, with the way to
// resume it.
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
	actor   domain.Actor
	file    *rankfile.File // kept from the check for the confirmation; nil once done
	ranking string         // the upload's ranking, for a confirmation on another replica
	kept    bool           // the checked upload is in the shared Files

	pub     sync.Mutex // orders the job's writes to the shared bucket
	written time.Time  // when the shared record was last written (under Jobs.mu)
}

// Jobs holds the server's imports.
type Jobs struct {
	h   *handler.Handler
	log *slog.Logger
	now func() time.Time

	mu     sync.Mutex
	jobs   map[string]*job
	order  []string        // oldest first
	shared *Shared         // nil: the jobs live in this process only
	ctx    context.Context // the jobs' work; ends when the server stops (Share)
}

// New returns the imports run through h.
func New(h *handler.Handler, log *slog.Logger, now func() time.Time) *Jobs {
	return &Jobs{h: h, log: log, now: now, jobs: map[string]*job{}, ctx: context.Background()}
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
		Started: js.now()}, actor: actor, ranking: u.Ranking}
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

// Get returns user's job id: this replica's own, else the one another
// replica keeps in the shared bucket (see Share).
func (js *Jobs) Get(id, user string) (Job, error) {
	js.mu.Lock()
	j, ok := js.jobs[id]
	sh := js.shared
	if ok {
		mine := j.Job
		js.mu.Unlock()
		if mine.Owner != user {
			return Job{}, ErrMissing
		}
		if r, taken := js.taken(mine); taken {
			return r.job(), nil
		}
		return mine, nil
	}
	js.mu.Unlock()
	if sh == nil {
		return Job{}, ErrMissing
	}
	rec, err := js.record(id, user)
	if err != nil {
		return Job{}, err
	}
	return rec.job(), nil
}

// Confirm opens the proposals of user's checked job id. Confirming a job
// that is opening or done does nothing more: a double submit opens nothing
// twice. A job another replica checked is confirmed here, from the upload
// it kept in the shared Files.
func (js *Jobs) Confirm(id string, actor domain.Actor) (Job, error) {
	js.mu.Lock()
	j, ok := js.jobs[id]
	if !ok && js.shared != nil {
		js.mu.Unlock()
		return js.confirmElsewhere(id, actor)
	}
	if ok && j.Owner == actor.Name && j.State == Checked {
		mine := j.Job
		js.mu.Unlock()
		if r, taken := js.taken(mine); taken {
			return r.job(), nil
		}
		js.mu.Lock()
	}
	switch {
	case !ok || j.Owner != actor.Name:
		js.mu.Unlock()
		return Job{}, ErrMissing
	case j.State == Opening || j.State == Done:
		defer js.mu.Unlock()
		return j.Job, nil
	case !j.Confirmable():
		defer js.mu.Unlock()
		return j.Job, ErrNotReady
	}
	j.State, j.Stage, j.Done, j.Total = Opening, rankfile.StageOpen, 0, len(j.file.Entries)
	out := j.Job
	js.mu.Unlock()
	js.opening(j)
	return out, nil
}

// opening shares that j opens, before the answer says so, then opens it.
func (js *Jobs) opening(j *job) {
	js.mu.Lock()
	shared := js.shared != nil
	js.mu.Unlock()
	if shared {
		js.publish(j)
	}
	go js.open(j)
}

// update changes j under the lock, then writes its record to the shared
// bucket: at once when it says so, else (progress) at most once a second.
func (js *Jobs) update(j *job, now bool, f func(*job)) {
	js.mu.Lock()
	f(j)
	write := js.shared != nil && (now || js.now().Sub(j.written) >= progressEvery)
	js.mu.Unlock()
	if write {
		js.publish(j)
	}
}

func (js *Jobs) progress(j *job) func(rankfile.Stage, int, int) {
	return func(s rankfile.Stage, done, total int) {
		js.update(j, false, func(j *job) { j.Stage, j.Done, j.Total = s, done, total })
	}
}

// check runs the dry run. Its context is the server's, not a request's.
func (js *Jobs) check(j *job, u rankfile.Upload, confirm bool) {
	defer js.beat(j)()
	f, sum, err := rankfile.Check(js.ctx, js.h, u, j.actor, rankfile.Options{Progress: js.progress(j)})
	if err == nil && f != nil && len(sum.Problems) == 0 && sum.Open > 0 && !confirm {
		// The confirmation may come to another replica. Without the
		// copy, only this one confirms (the others answer ErrFileGone).
		if err := js.keep(j, u); err != nil {
			js.log.Warn("import: cannot keep the checked file for the other replicas", "import", j.ID, "err", err)
		}
	}
	js.update(j, true, func(j *job) {
		j.Summary, j.file = sum, f
		j.State = Checked
		if err != nil {
			j.State, j.Err = Failed, js.failure(err)
		}
	})
	if err != nil {
		js.log.Error("import check failed", "import", j.ID, "user", j.Owner, "err", err)
		return
	}
	if confirm {
		_, _ = js.Confirm(j.ID, j.actor) // ErrNotReady: problems, or nothing to open; the job shows which
	}
}

// open runs the import the owner confirmed.
func (js *Jobs) open(j *job) {
	defer js.beat(j)()
	rep, err := rankfile.ImportWith(js.ctx, js.h, j.file, j.actor, rankfile.Options{Progress: js.progress(j)})
	js.update(j, true, func(j *job) {
		j.file = nil
		j.State, j.Opened = Done, rep.Summary.Open
		if err != nil {
			j.State, j.Err = Failed, js.failure(err)
		}
	})
	if err != nil {
		js.log.Error("import failed", "import", j.ID, "user", j.Owner, "err", err, "partly", rep.Appended)
		return
	}
	js.log.Info("import", "import", j.ID, "user", j.Owner, "ranking", rep.Summary.Ranking, "opened", rep.Summary.Open)
}

// failure is the job's failure for err: when the server stopping cut the
// job short, that it stopped and how to resume.
func (js *Jobs) failure(err error) error {
	if js.ctx.Err() != nil {
		return ErrRunnerStopped
	}
	return err
}
