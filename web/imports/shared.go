package imports

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/i18n"
)

// Bucket keeps the jobs' records where every replica reads them: a
// JetStream KV bucket whose entries expire some days after their last
// write (jetstream.KV).
type Bucket interface {
	Put(ctx context.Context, key string, value []byte) error
	Get(ctx context.Context, key string) (value []byte, found bool, err error)
}

// Files keeps the checked uploads until their owners confirm them: a
// JetStream object store (jetstream.Files). An upload may be 32 MiB, more
// than one KV value holds. Keeping them, rather than answering a
// confirmation on another replica with 409 and the name of the one that
// holds the file, lets any replica confirm behind a load balancer without
// sticky sessions, and lets a dry run outlive the replica that checked it.
type Files interface {
	PutFile(ctx context.Context, name string, data []byte) error
	GetFile(ctx context.Context, name string) (data []byte, found bool, err error)
}

// Shared says where a server keeps its jobs for the other replicas.
type Shared struct {
	// Jobs holds each job's public state, written on every change of
	// state, on progress at most once a second, and every Beat while it
	// runs.
	Jobs Bucket
	// Files holds each checked upload, so that a dry run checked on one
	// replica is confirmed on any; nil: a confirmation on another replica
	// than the one that checked is refused (ErrFileGone).
	Files Files
	// Runner names this replica in the records (logs, operators); "":
	// the host's name and the process id.
	Runner string
	// Beat is how often a running job's record is written while nothing
	// else changes; 0: DefaultBeat.
	Beat time.Duration
	// Stale is how old the record of a running job may grow before the
	// other replicas answer it as failed: its runner stopped; 0:
	// DefaultStale. Keep it several Beats.
	Stale time.Duration
}

const (
	DefaultBeat  = 5 * time.Second
	DefaultStale = 30 * time.Second
	// progressEvery bounds the writes progress alone causes.
	progressEvery = time.Second
	// writeTimeout bounds one write of a record, so a job never waits
	// long on an absent cluster: its record is written again soon.
	writeTimeout = 5 * time.Second
)

// ErrRunnerStopped is the failure of a job whose replica stopped before
// it finished. The import is idempotent (rankfile.ImportWith: an entry's
// proposal id is derived from its content, an existing proposal is not
// opened again, and each command replays by its id), so importing the
// same file again goes on where it stopped.
var ErrRunnerStopped error = coded{code: "import.runner_stopped",
	text: "import: the server running it stopped before it finished; importing the same file again resumes it"}

// ErrFileGone refuses the confirmation of a job checked on another replica
// whose upload is not kept (expired, or no shared Files): import it again.
var ErrFileGone error = coded{code: "import.file_gone", text: "import: the checked file is no longer kept; import it again",
	is: domain.ErrState}

type coded struct {
	code, text string
	is         error
}

func (c coded) Error() string { return c.text }
func (c coded) Code() string  { return c.code }
func (c coded) Unwrap() error { return c.is }

// Share keeps the jobs in s from now on, so that every replica answers
// for them. When ctx ends (the server stops), the jobs this replica runs
// stop, and their records say so. Call it before serving.
func (js *Jobs) Share(ctx context.Context, s Shared) {
	if s.Beat <= 0 {
		s.Beat = DefaultBeat
	}
	if s.Stale <= 0 {
		s.Stale = DefaultStale
	}
	if s.Runner == "" {
		host, _ := os.Hostname()
		s.Runner = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	js.mu.Lock()
	defer js.mu.Unlock()
	js.shared, js.ctx = &s, ctx
}

// record is a job as the shared bucket holds it: the public state, with
// the errors in both languages (their types do not travel), and what a
// confirmation on another replica needs.
type record struct {
	ID       string           `json:"id"`
	Owner    string           `json:"owner"`
	State    State            `json:"state"`
	Stage    rankfile.Stage   `json:"stage"`
	Done     int              `json:"done"`
	Total    int              `json:"total"`
	Summary  rankfile.Summary `json:"summary"` // its Problems are in Problems
	Problems []problem        `json:"problems,omitempty"`
	Opened   int              `json:"opened"`
	Err      *i18n.Worded     `json:"error,omitempty"`
	Started  time.Time        `json:"started"`
	// Ranking is the upload's ranking (a CSV's ?ranking=); Kept says the
	// upload is in the shared Files under the job's id.
	Ranking string `json:"ranking,omitempty"`
	Kept    bool   `json:"kept,omitempty"`
	// Runner is the replica that runs the job; Updated is when it last
	// wrote the record: its heartbeat while the job runs.
	Runner  string    `json:"runner"`
	Updated time.Time `json:"updated_at"`
}

type problem struct {
	Path   string       `json:"path"`
	Line   int          `json:"line,omitempty"`
	Column int          `json:"column,omitempty"`
	Header string       `json:"header,omitempty"`
	Err    *i18n.Worded `json:"error"`
}

func (r record) job() Job {
	j := Job{ID: r.ID, Owner: r.Owner, State: r.State, Stage: r.Stage, Done: r.Done, Total: r.Total,
		Summary: r.Summary, Opened: r.Opened, Started: r.Started}
	j.Summary.Problems = nil
	for _, p := range r.Problems {
		j.Summary.Problems = append(j.Summary.Problems, rankfile.Problem{Path: p.Path, Line: p.Line, Column: p.Column,
			Header: p.Header, Err: p.Err})
	}
	if r.Err != nil {
		j.Err = r.Err
	}
	return j
}

// publish writes j's record. The job's own lock orders its writes, and
// the record is read under it, so the last write holds the latest state.
func (js *Jobs) publish(j *job) {
	j.pub.Lock()
	defer j.pub.Unlock()
	js.mu.Lock()
	sh := js.shared
	now := js.now()
	j.written = now
	r := record{ID: j.ID, Owner: j.Owner, State: j.State, Stage: j.Stage, Done: j.Done, Total: j.Total,
		Summary: j.Summary, Opened: j.Opened, Started: j.Started, Ranking: j.ranking, Kept: j.kept,
		Runner: sh.Runner, Updated: now}
	probs, failure := j.Summary.Problems, j.Err
	js.mu.Unlock()
	r.Summary.Problems = nil
	for _, p := range probs {
		r.Problems = append(r.Problems, problem{Path: p.Path, Line: p.Line, Column: p.Column, Header: p.Header,
			Err: i18n.WordProblem(p.Err)})
	}
	if failure != nil {
		r.Err = i18n.WordError(failure)
	}
	b, err := json.Marshal(r)
	if err == nil {
		// Not the jobs' context: the record of a job the server's stop
		// cut short is written after it ended.
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		err = sh.Jobs.Put(ctx, j.ID, b)
		cancel()
	}
	if err != nil {
		js.log.Warn("import: cannot share the job's state", "import", j.ID, "err", err)
	}
}

// beat writes j's record every Beat until the returned stop is called.
func (js *Jobs) beat(j *job) (stop func()) {
	js.mu.Lock()
	sh := js.shared
	js.mu.Unlock()
	if sh == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(sh.Beat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				js.publish(j)
			}
		}
	}()
	return func() { close(done) }
}

// keep stores u where any replica reads it, for the confirmation.
func (js *Jobs) keep(j *job, u rankfile.Upload) error {
	js.mu.Lock()
	sh := js.shared
	js.mu.Unlock()
	if sh == nil || sh.Files == nil {
		return nil
	}
	if err := sh.Files.PutFile(js.ctx, j.ID, u.Data); err != nil {
		return err
	}
	js.mu.Lock()
	j.kept = true
	js.mu.Unlock()
	return nil
}

// record reads user's job id from the shared bucket. A running job whose
// record is older than Stale lost its runner: it is answered as failed.
func (js *Jobs) record(id, user string) (record, error) {
	js.mu.Lock()
	sh := js.shared
	js.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	b, found, err := sh.Jobs.Get(ctx, id)
	if err != nil {
		return record{}, err
	}
	var r record
	if !found {
		return record{}, ErrMissing
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return record{}, fmt.Errorf("import %s: the shared record: %w", id, err)
	}
	if r.Owner != user {
		return record{}, ErrMissing
	}
	if (r.State == Checking || r.State == Opening) && js.now().Sub(r.Updated) > sh.Stale {
		r.State, r.Err = Failed, i18n.WordError(ErrRunnerStopped)
	}
	return r, nil
}

// taken reports whether another replica confirmed mine, a job checked
// here, and returns its record: this replica's copy stopped at checked.
func (js *Jobs) taken(mine Job) (record, bool) {
	js.mu.Lock()
	sh := js.shared
	js.mu.Unlock()
	if sh == nil || mine.State != Checked {
		return record{}, false
	}
	r, err := js.record(mine.ID, mine.Owner)
	if err != nil || r.Runner == sh.Runner || r.State == Checked {
		return record{}, false // unreadable now: this replica's copy is the best answer
	}
	return r, true
}

// confirmElsewhere confirms a job another replica checked: this replica
// reads the upload the checker kept, runs the import, and keeps the job
// from now on. Two replicas confirming at once would both run it; the
// import is idempotent, so nothing opens twice.
func (js *Jobs) confirmElsewhere(id string, actor domain.Actor) (Job, error) {
	r, err := js.record(id, actor.Name)
	if err != nil {
		return Job{}, err
	}
	j := r.job()
	switch {
	case j.State == Opening || j.State == Done:
		return j, nil
	case !j.Confirmable():
		return j, ErrNotReady
	case !r.Kept || js.shared.Files == nil:
		return j, ErrFileGone
	}
	data, found, err := js.shared.Files.GetFile(js.ctx, id)
	if err != nil {
		return j, err
	}
	if !found {
		return j, ErrFileGone
	}
	f, _, err := rankfile.Read(js.ctx, js.h, rankfile.Upload{Data: data, Ranking: r.Ranking})
	if err != nil {
		return j, err // the file was read once: only the store fails here
	}
	l := &job{Job: j, actor: actor, file: f, ranking: r.Ranking, kept: true}
	l.State, l.Stage, l.Done, l.Total = Opening, rankfile.StageOpen, 0, len(f.Entries)
	js.mu.Lock()
	if o, ok := js.jobs[id]; ok { // confirmed here meanwhile
		js.mu.Unlock()
		return o.Job, nil
	}
	if err := js.makeRoom(); err != nil {
		js.mu.Unlock()
		return j, err
	}
	js.jobs[id] = l
	js.order = append(js.order, id)
	out := l.Job
	js.mu.Unlock()
	js.opening(l)
	return out, nil
}
