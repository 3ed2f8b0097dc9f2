package site

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// ExportStats says what Export wrote.
type ExportStats struct {
	Files    int
	Bytes    int64
	Mark     string // the edition mark the export shows (see projections.EditionMark)
	Duration time.Duration
}

// exportMark records, inside the export, the edition mark it shows.
const exportMark = ".crossrank-export"

// Export writes the public site as it stands (the latest edition of every
// ranking) into dir as static files: the pages in both languages (zh/,
// en/) with links relative to each file, so the folder works from file://
// or any web server; the JSON API's answers (api/v1/…, the same bytes the
// API serves); the Atom feeds; the stylesheets.
//
// The swap is atomic: everything is written into a new sibling folder,
// flushed to disk, and then exchanged with dir in one rename, so a reader
// sees either the old site or the new one, never a mix.
func Export(ctx context.Context, read *projections.Store, dir string, now time.Time) (ExportStats, error) {
	return ExportWithBundles(ctx, read, nil, dir, now)
}

// ExportWithBundles is Export, with each edition's signed bundle written by
// bundles beside its other downloads and linked from its page (nil: none).
// A bundle the export in dir already holds, signed by the same key, is
// copied rather than written again: an edition's bundle never changes.
func ExportWithBundles(ctx context.Context, read *projections.Store, bundles *bundle.Producer, dir string, now time.Time) (ExportStats, error) {
	start := time.Now()
	dir = filepath.Clean(dir)
	mark, err := read.EditionMark(ctx, "")
	if err != nil {
		return ExportStats{}, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return ExportStats{}, err
	}
	removeLeftovers(dir)
	tmp := dir + ".tmp-" + randomSuffix()
	x := &exporter{ctx: ctx, read: read, root: tmp, now: now, bundler: bundles, prev: dir}
	if err := x.site(); err != nil {
		os.RemoveAll(tmp)
		return ExportStats{}, err
	}
	x.write(exportMark, []byte(mark.Key()+"\n"))
	if x.err != nil {
		os.RemoveAll(tmp)
		return ExportStats{}, x.err
	}
	if err := publicModes(tmp); err != nil {
		os.RemoveAll(tmp)
		return ExportStats{}, err
	}
	if err := swapDir(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return ExportStats{}, err
	}
	syncDir(filepath.Dir(dir))
	return ExportStats{Files: x.files, Bytes: x.bytes, Mark: mark.Key(), Duration: time.Since(start)}, nil
}

// ExportOnPublish keeps dir an export of the latest editions: it exports
// when the edition mark differs from the one dir shows, then again after
// every commit of the read models that changes it (a publish, or a change
// of a ranking's definition), until ctx ends; with bundles, each edition's
// signed bundle too.
func ExportOnPublish(ctx context.Context, read *projections.Store, bundles *bundle.Producer, dir string, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	have := ""
	if b, err := os.ReadFile(filepath.Join(dir, exportMark)); err == nil {
		have = strings.TrimSpace(string(b))
	}
	for {
		changed := read.Changed()
		m, err := read.EditionMark(ctx, "")
		switch {
		case err != nil:
			log.Warn("site export: reading the edition mark failed", "err", err)
		case m.Seq > 0 && m.Key() != have:
			st, err := ExportWithBundles(ctx, read, bundles, dir, time.Now())
			if err != nil {
				log.Error("site export failed", "dir", dir, "err", err)
				break
			}
			have = st.Mark
			log.Info("site exported", "dir", dir, "files", st.Files, "bytes", st.Bytes, "seconds", st.Duration.Seconds())
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
	}
}

// exporter writes files under root, keeping the first error.
type exporter struct {
	ctx   context.Context
	read  *projections.Store
	root  string
	now   time.Time
	files int
	bytes int64
	err   error
	// bundler writes the editions' bundles (nil: none); prev is the
	// export being replaced, whose bundles may be reused.
	bundler *bundle.Producer
	prev    string
}

func (x *exporter) write(name string, body []byte) {
	if x.err != nil {
		return
	}
	p := filepath.Join(x.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		x.err = err
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		x.err = err
		return
	}
	_, err = f.Write(body)
	if err == nil {
		err = f.Sync() // on disk before the swap makes it visible
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	x.err = err
	x.files++
	x.bytes += int64(len(body))
}

func (x *exporter) json(name string, v any, err error) {
	if x.err == nil && err != nil {
		x.err = fmt.Errorf("export %s: %w", name, err)
	}
	if x.err != nil {
		return
	}
	b, err := marshalJSON(v)
	if err != nil {
		x.err = err
		return
	}
	x.write(name, b)
}

func (x *exporter) page(name string, c templ.Component, err error) {
	if x.err == nil && err != nil {
		x.err = fmt.Errorf("export %s: %w", name, err)
	}
	if x.err != nil {
		return
	}
	var buf bytes.Buffer
	if err := c.Render(x.ctx, &buf); err != nil {
		x.err = fmt.Errorf("export %s: %w", name, err)
		return
	}
	x.write(name, buf.Bytes())
}

// site writes every file of the export.
func (x *exporter) site() error {
	for _, name := range []string{"app.css", "public.css", "favicon.svg"} {
		body, ok := ui.Asset(name)
		if !ok {
			return fmt.Errorf("export: no static file %s", name)
		}
		x.write("static/"+name, body)
	}
	x.page("index.html", exportIndex(), nil)
	rankings, err := x.read.PublicRankings(x.ctx)
	if err != nil {
		return err
	}
	list, err := apiRankingsOf(x.ctx, x.read)
	x.json("api/v1/rankings.json", list, err)
	for _, rk := range rankings {
		x.api(rk.Slug)
		x.downloads(rk.Slug)
		x.bundles(rk.Slug)
	}
	for _, lang := range []string{i18n.Zh, i18n.En} {
		x.lang(lang, rankings)
	}
	return x.err
}

// api writes a ranking's JSON files, as the API answers them.
func (x *exporter) api(slug string) {
	ctx, read := x.ctx, x.read
	base := "api/v1/rankings/" + slug
	// Every row in one file: a static file cannot be asked for pages. Up
	// to a page of rows it is the API's answer byte for byte.
	st, err := apiStandingOf(ctx, read, slug, viewQuery{Needs: map[string]string{}}, standingPage{})
	x.json(base+".json", st, err)
	eds, err := apiEditionsOf(ctx, read, slug)
	x.json(base+"/editions.json", eds, err)
	for _, e := range eds.Editions {
		ed, err := apiEditionOf(ctx, read, slug, e.Number)
		x.json(base+"/editions/"+strconv.Itoa(e.Number)+".json", ed, err)
	}
	for _, e := range st.Entries {
		en, err := apiEntryOf(ctx, read, slug, e.Slug, x.now)
		x.json(base+"/entries/"+e.Slug+".json", en, err)
	}
}

// lang writes the pages and feeds of one language under lang/.
func (x *exporter) lang(lang string, rankings []projections.RankingSummary) {
	ctx, read := x.ctx, x.read
	pg := ui.Page{Lang: lang}
	at := func(name string) linkSet { return staticLinks(lang, name) }
	file := func(name string) string { return lang + "/" + name }
	if len(rankings) == 1 {
		v, err := buildRanking(ctx, read, pg, at("index.html"), rankings[0].Slug, viewQuery{Needs: map[string]string{}}, pageRows)
		x.page(file("index.html"), rankingPage(v), err)
	} else {
		v, err := buildHome(ctx, read, pg, at("index.html"))
		x.page(file("index.html"), homePage(v), err)
	}
	feed, err := feedOf(ctx, read, lang, "", at("feed.atom"), identity)
	if err == nil {
		x.write(file("feed.atom"), feed)
	}
	for _, rk := range rankings {
		slug := rk.Slug
		def, _, err := read.Definition(ctx, slug)
		if err != nil {
			x.err = err
			return
		}
		scenarios, categories := []string{""}, []string{""}
		for _, s := range def.Scenarios {
			scenarios = append(scenarios, s.Slug)
		}
		for _, c := range def.Categories {
			categories = append(categories, c.Slug)
		}
		var entries []string
		for _, sc := range scenarios {
			for _, cat := range categories {
				for n, pages := 1, 1; n <= pages; n++ {
					name := pagedFile(rankingFile(slug, sc, cat), n)
					q := viewQuery{Scenario: sc, Category: cat, Needs: map[string]string{}, Page: n}
					v, err := buildRanking(ctx, read, pg, at(name), slug, q, pageRows)
					x.page(file(name), rankingPage(v), err)
					if err != nil {
						break
					}
					pages = v.Pager.Pages
					if sc == "" && cat == "" {
						for _, r := range v.Rows {
							entries = append(entries, r.Slug)
						}
					}
				}
			}
		}
		for _, e := range entries {
			name := "r/" + slug + "/e/" + e + ".html"
			v, err := buildEntry(ctx, read, pg, at(name), slug, e, x.now)
			x.page(file(name), entryPage(v), err)
		}
		v, err := buildEditions(ctx, read, pg, at("r/"+slug+"/editions/index.html"), slug)
		x.page(file("r/"+slug+"/editions/index.html"), editionsPage(v), err)
		for _, e := range v.Editions {
			// An edition's changes are paged as on the server, a file a
			// page: n.html, n-2.html, …
			for k, pages := 1, 1; k <= pages; k++ {
				name := pagedFile("r/"+slug+"/editions/"+strconv.Itoa(e.Number)+".html", k)
				l := at(name)
				l.bundles = x.bundler != nil
				ev, err := buildEdition(ctx, read, pg, l, slug, e.Number, editionQuery{Page: k}, pageRows)
				x.page(file(name), editionPage(ev), err)
				if err != nil {
					break
				}
				pages = ev.Pager.Pages
			}
		}
		mv, err := buildMethodology(ctx, read, pg, at("r/"+slug+"/methodology.html"), slug)
		x.page(file("r/"+slug+"/methodology.html"), methodologyPage(mv), err)
		feed, err := feedOf(ctx, read, lang, slug, at("r/"+slug+"/feed.atom"), identity)
		if err == nil {
			x.write(file("r/"+slug+"/feed.atom"), feed)
		} else if x.err == nil {
			x.err = err
		}
	}
}

func identity(s string) string { return s }
