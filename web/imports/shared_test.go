package imports_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/imports"
)

var editor = domain.Actor{Name: "ed", Roles: []string{domain.RoleEditor}}

// replicas are two servers' imports on one JetStream server: each with a
// command handler and a connection of its own, sharing the buckets.
type replicas struct {
	a, b *imports.Jobs
	// cutA, when set, is called with the state of each record replica a
	// writes and reports whether to drop it: a replica that stopped
	// writing (killed) while its jobs run on.
	cutA  atomic.Pointer[func(state string) bool]
	stopA context.CancelFunc
	kv    *jetstream.KV // the jobs' bucket, as b reads it
}

const (
	testBeat  = 50 * time.Millisecond
	testStale = 400 * time.Millisecond
)

func newReplicas(t *testing.T) *replicas {
	t.Helper()
	env := jstest.Start(t)
	r := &replicas{}
	open := func(name string) (*jetstream.KV, *jetstream.Files, *handler.Handler) {
		nc, err := env.Server.Connect(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		kv, err := jetstream.OpenKV(ctx, nc, jetstream.ImportJobsBucket, time.Hour, 1)
		if err != nil {
			t.Fatal(err)
		}
		files, err := jetstream.OpenFiles(ctx, nc, jetstream.ImportFilesBucket, time.Hour, 1)
		if err != nil {
			t.Fatal(err)
		}
		st, err := jetstream.Open(ctx, nc, jetstream.Config{MaxBatch: jetstream.EmbeddedMaxBatch})
		if err != nil {
			t.Fatal(err)
		}
		return kv, files, handler.New(st, time.Now)
	}
	log := slog.New(slog.DiscardHandler)
	kvA, filesA, hA := open("replica a")
	kvB, filesB, hB := open("replica b")
	ctxA, stopA := context.WithCancel(context.Background())
	t.Cleanup(stopA)
	r.stopA = stopA
	r.kv = kvB
	r.a, r.b = imports.New(hA, log, time.Now), imports.New(hB, log, time.Now)
	r.a.Share(ctxA, imports.Shared{Jobs: &cutBucket{Bucket: kvA, cut: func(s string) bool {
		f := r.cutA.Load()
		return f != nil && (*f)(s)
	}},
		Files: filesA, Runner: "a", Beat: testBeat, Stale: testStale})
	r.b.Share(t.Context(), imports.Shared{Jobs: kvB, Files: filesB, Runner: "b", Beat: testBeat, Stale: testStale})
	return r
}

// cutBucket drops the writes cut chooses.
type cutBucket struct {
	imports.Bucket
	cut func(state string) bool
}

func (c *cutBucket) Put(ctx context.Context, key string, value []byte) error {
	var rec struct{ State string }
	_ = json.Unmarshal(value, &rec)
	if c.cut(rec.State) {
		return nil
	}
	return c.Bucket.Put(ctx, key, value)
}

// after returns a cut that drops every write after the first one in state.
func after(state imports.State) *func(string) bool {
	var mu sync.Mutex
	off := false
	f := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		drop := off
		off = off || s == string(state)
		return drop
	}
	return &f
}

func upload(t *testing.T, slug string, entries int) rankfile.Upload {
	t.Helper()
	data, err := json.Marshal(rankfile.Generate(slug, rankfile.Size{Entries: entries, Criteria: 2, Evidence: 1, Seed: 7}))
	if err != nil {
		t.Fatal(err)
	}
	return rankfile.Upload{Data: data}
}

// await polls js for the job until ok says so.
func await(t *testing.T, js *imports.Jobs, id string, what string, ok func(imports.Job) bool) imports.Job {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		j, err := js.Get(id, editor.Name)
		if err == nil && ok(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("import %s: never %s: last %+v, %v", id, what, j, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// same compares what the API and the desk show of two jobs.
func same(t *testing.T, where string, got, want imports.Job) {
	t.Helper()
	if !got.Started.Equal(want.Started) {
		t.Errorf("%s: started %v, want %v", where, got.Started, want.Started)
	}
	got.Started, want.Started = time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", where, got, want)
	}
}

// TestImportAnsweredByEveryReplica: a dry run checked on replica a is
// answered by b as a answers it, its problems in both languages; b
// confirms it from the upload a kept, and a then answers b's progress.
func TestImportAnsweredByEveryReplica(t *testing.T) {
	t.Parallel()
	r := newReplicas(t)

	// A file with a problem: its words travel with the record.
	bad := upload(t, "shared-bad", 3)
	bad.Data = []byte(strings.Replace(string(bad.Data), `"slug":"shared-bad"`, `"slug":"Shared Bad"`, 1))
	id, err := r.a.Check(editor, bad)
	if err != nil {
		t.Fatal(err)
	}
	onA := await(t, r.a, id, "checked", func(j imports.Job) bool { return j.State == imports.Checked })
	if len(onA.Summary.Problems) == 0 {
		t.Fatalf("the bad file checked without problems: %+v", onA.Summary)
	}
	onB, err := r.b.Get(id, editor.Name)
	if err != nil {
		t.Fatalf("replica b: GET of a's import: %v", err)
	}
	for _, lang := range []string{i18n.En, i18n.Zh} {
		if got, want := i18n.ImportProblem(lang, onB.Summary.Problems[0].Err), i18n.ImportProblem(lang, onA.Summary.Problems[0].Err); got != want {
			t.Errorf("problem in %s on b %q, on a %q", lang, got, want)
		}
	}
	if got, want := onB.Summary.Problems[0].Path, onA.Summary.Problems[0].Path; got != want {
		t.Errorf("problem at %q on b, %q on a", got, want)
	}
	if _, err := r.b.Get(id, "someone-else"); err == nil {
		t.Error("replica b shows a's import to another user")
	}

	// A good file, checked on a, confirmed on b.
	id, err = r.a.Check(editor, upload(t, "shared-good", 120))
	if err != nil {
		t.Fatal(err)
	}
	onA = await(t, r.a, id, "checked", func(j imports.Job) bool { return j.State == imports.Checked })
	onB, err = r.b.Get(id, editor.Name)
	if err != nil {
		t.Fatalf("replica b: GET of a's import: %v", err)
	}
	same(t, "checked, on b", onB, onA)
	if !onB.Confirmable() {
		t.Fatalf("replica b cannot confirm a's checked import: %+v", onB)
	}
	if _, err := r.b.Confirm(id, editor); err != nil {
		t.Fatalf("replica b: confirm of a's import: %v", err)
	}
	// While b opens, a answers b's state as b last wrote it (at most a
	// second of progress behind), never ahead of it.
	// a is read before b, so a answers what b wrote before b's state.
	var seen []string
	var done imports.Job
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		viaA, errA := r.a.Get(id, editor.Name)
		onB, err := r.b.Get(id, editor.Name)
		if err != nil || errA != nil {
			t.Fatalf("while b opens: b %v, a %v", err, errA)
		}
		if viaA.State != imports.Opening && viaA.State != imports.Done || viaA.State == imports.Done && onB.State != imports.Done ||
			viaA.Stage == onB.Stage && viaA.Done > onB.Done {
			t.Fatalf("while b opens (%s %s %d of %d), a answers %s %s %d of %d", onB.State, onB.Stage, onB.Done, onB.Total,
				viaA.State, viaA.Stage, viaA.Done, viaA.Total)
		}
		if p := fmt.Sprintf("%s %s %d", viaA.State, viaA.Stage, viaA.Done); len(seen) == 0 || seen[len(seen)-1] != p {
			seen = append(seen, p)
		}
		if onB.State == imports.Done {
			done = onB
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("b's import never done: %+v", onB)
		}
	}
	t.Logf("a answered, while b opened: %s", strings.Join(seen, ", "))
	if done.Opened != onA.Summary.Open || done.Err != nil {
		t.Errorf("b's import done with %d opened (want %d), err %v", done.Opened, onA.Summary.Open, done.Err)
	}
	onA = await(t, r.a, id, "done on a", func(j imports.Job) bool { return j.State == imports.Done })
	same(t, "done, on a", onA, done)
}

// TestImportWhoseRunnerStoppedFails: a replica that stops writing while it
// opens an import (killed) leaves its job answered by the other as failed,
// once its record is older than the bound, saying how to resume; importing
// the same file again opens nothing twice. A replica that shuts down
// says so at once.
func TestImportWhoseRunnerStoppedFails(t *testing.T) {
	t.Parallel()
	r := newReplicas(t)
	r.cutA.Store(after(imports.Opening))
	u := upload(t, "shared-killed", 60)
	id, err := r.a.Import(editor, u)
	if err != nil {
		t.Fatal(err)
	}
	opening := await(t, r.b, id, "opening on b", func(j imports.Job) bool { return j.State == imports.Opening })
	if opening.Err != nil {
		t.Fatalf("opening with an error: %v", opening.Err)
	}
	began := time.Now()
	failed := await(t, r.b, id, "failed on b", func(j imports.Job) bool { return j.State != imports.Opening })
	waited := time.Since(began)
	if failed.State != imports.Failed || failed.Err == nil {
		t.Fatalf("a's job with a's writes stopped, on b: %+v", failed)
	}
	for _, lang := range []string{i18n.En, i18n.Zh} {
		if got, want := i18n.Error(lang, failed.Err), i18n.T(lang, "import.runner_stopped"); got != want || got == "import.runner_stopped" {
			t.Errorf("failure in %s %q, want %q", lang, got, want)
		}
	}
	if waited > testStale+time.Second {
		t.Errorf("b answered failed %v after the job's last write; the bound is %v", waited, testStale)
	}
	t.Logf("b answered failed %v after it first saw the job opening (bound %v)", waited.Round(time.Millisecond), testStale)

	// a went on alone (only its writes were cut): importing the file
	// again, on b, finds every proposal open and opens none twice.
	mine := await(t, r.a, id, "done on a", func(j imports.Job) bool { return j.State == imports.Done })
	again, err := r.b.Import(editor, u)
	if err != nil {
		t.Fatal(err)
	}
	redo := await(t, r.b, again, "finished on b", func(j imports.Job) bool { return j.State != imports.Checking })
	if redo.Summary.Open != 0 || redo.Summary.AlreadyOpen != mine.Summary.Open || redo.Err != nil {
		t.Errorf("the same file again: %d to open, %d already open (a opened %d), err %v",
			redo.Summary.Open, redo.Summary.AlreadyOpen, mine.Summary.Open, redo.Err)
	}

	// A replica shutting down (its context ends) while it opens: its
	// record says at once that it stopped.
	stop := func(state string) bool {
		if state == string(imports.Opening) {
			r.stopA()
		}
		return false
	}
	r.cutA.Store(&stop)
	id, err = r.a.Import(editor, upload(t, "shared-stopped", 60))
	if err != nil {
		t.Fatal(err)
	}
	stopped := await(t, r.b, id, "failed on b", func(j imports.Job) bool { return j.State == imports.Failed })
	if got, want := i18n.Error(i18n.En, stopped.Err), i18n.T(i18n.En, "import.runner_stopped"); got != want {
		t.Errorf("a stopped: failure %q, want %q", got, want)
	}
	// a wrote it itself, not b's bound on a silent runner.
	b, _, err := r.kv.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("a stopped: its record: %v", err)
	}
	var rec struct {
		State string
		Error struct{ Code string }
	}
	if err := json.Unmarshal(b, &rec); err != nil || rec.State != string(imports.Failed) || rec.Error.Code != "import.runner_stopped" {
		t.Errorf("a stopped: its record %s, %v", b, err)
	}
}
