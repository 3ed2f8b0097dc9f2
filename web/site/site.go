// Package site serves the public site: the rankings, their entries,
// editions and methodology, the Atom feeds, the live push of new editions
// (GET /events), the public JSON reads, and the static export of all of
// it. Every answer depends only on published data, so it is validated by
// the edition mark and kept, rendered, in a cache bounded in bytes.
package site

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// Config configures a Site. Read is required to serve; every other field
// has a working zero value, noted on the field.
type Config struct {
	// Read is the read models the pages query. Nil: Routes still mounts
	// every route, and its read wrapper must answer instead of them.
	Read *projections.Store
	// Log receives warnings of the live push; nil: slog.Default().
	Log *slog.Logger
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Secure says the site is served over TLS (the feeds' own links).
	Secure bool
	// Rows is how many rows a page of a ranking shows; 0: 100.
	Rows int
	// PageCacheBytes bounds the memory of rendered public pages and API
	// answers kept for readers who are not signed in; 0: 64 MiB
	// (DefaultPageCacheBytes); negative: keep none.
	PageCacheBytes int
	// Origin is the site's public address ("https://rank.example"), for
	// the permalinks a reader takes elsewhere: citations and badge embeds.
	// "": downloads use the Host of each request, and pages (cached for
	// every Host) show site paths.
	Origin string
	// Captures reads the archived copies of cited pages; nil: GET
	// /captures/{sha256} answers 404, and pages link no copies.
	Captures Captures
	// Bundles writes each edition's signed bundle (GET
	// /r/{slug}/editions/{n}/bundle) and names the key that signs them
	// (GET /.well-known/crossrank-signing-key); nil: both answer 404 and
	// pages link no bundle.
	Bundles *bundle.Producer
}

// Site holds what the public handlers share.
type Site struct {
	read   *projections.Store
	log    *slog.Logger
	now    func() time.Time
	secure bool
	rows   int // ranking rows a page shows
	cache  *bodyCache
	memo   *markMemo
	hub    *hub
	origin string // Config.Origin, without a final slash
	// captures is nil when the server keeps no archive.
	captures Captures
	// captureSlots bounds the archived bodies sent at once, in all and
	// per client address.
	captureSlots *slots
	// streamSlots bounds the live streams (GET /events) per client
	// address.
	streamSlots *slots
	// bundles is nil when the server signs no bundles; bundleSlots
	// bounds those written at once.
	bundles     *bundle.Producer
	bundleSlots chan struct{}
	bundleCache *bundleCache
	// archives keeps the web archives written (edition WACZ, capture
	// WARC), to serve by ranges.
	archives *archiveCache
	// warm holds /readyz back during the first warming (ExpectWarm).
	warm warmGate
}

// New returns a Site; mount its routes with Routes.
func New(cfg Config) *Site {
	s := &Site{read: cfg.Read, log: cfg.Log, now: cfg.Now, secure: cfg.Secure, rows: pageRows,
		cache: newBodyCache(cfg.PageCacheBytes), memo: newMarkMemo(), captures: cfg.Captures,
		origin: strings.TrimSuffix(cfg.Origin, "/"), captureSlots: newSlots("archived bodies", DefaultCaptureStreams, CaptureStreamsPerClient, captureRetry),
		streamSlots: newSlots("live streams", 0, StreamsPerClient, streamRetry),
		bundles:     cfg.Bundles, bundleSlots: make(chan struct{}, bundleStreams), bundleCache: newBundleCache(),
		archives: newArchiveCache()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if cfg.Rows > 0 {
		s.rows = cfg.Rows
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.hub = newHub(s.read, s.log)
	return s
}

// Routes lists the public site's routes, top to bottom, on mux. Every one
// queries the read models, so each handler is wrapped in read, which may
// answer instead (a server built without read models answers 503).
func (s *Site) Routes(mux *http.ServeMux, read func(http.Handler) http.Handler) {
	handle := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, read(h)) }
	// An edition's routes answer one address per edition: 404 for "02" or "+2".
	edition := func(pattern string, h http.HandlerFunc) { handle(pattern, canonicalEdition(h)) }
	// What programs read (downloads, .json documents, archives) answers its
	// errors as problem+json, as the OpenAPI document says, not as a page.
	document := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, ui.Problems(read(h))) }
	download := func(pattern string, h http.HandlerFunc) { document(pattern, canonicalEdition(h)) }

	// Pages.
	handle("GET /{$}", s.home)
	handle("GET /r/{slug}", s.ranking)
	handle("GET /r/{slug}/e/{entry}", s.entry)
	handle("GET /r/{slug}/e/{entry}/badge.svg", s.badgeSVG)
	document("GET /r/{slug}/e/{entry}/badge.json", s.badgeJSON)
	handle("GET /r/{slug}/e/{entry}/changes", s.changes)
	document("GET /r/{slug}/e/{entry}/changes.json", s.changes)
	handle("GET /r/{slug}/editions", s.editions)
	edition("GET /r/{slug}/editions/{n}", s.edition)
	handle("GET /r/{slug}/methodology", s.methodology)
	handle("GET /r/{slug}/compare", s.compare)
	handle("GET /r/{slug}/corrections", s.corrections)
	handle("GET /r/{slug}/corrections.atom", s.correctionsFeed)
	// An entry's contact timeline with its vendor, as a page and as JSON.
	handle("GET /r/{slug}/e/{entry}/contact", s.contact)
	document("GET /r/{slug}/e/{entry}/contact.json", s.contact)

	// An edition's downloads and citations: immutable, like the edition.
	download("GET /r/{slug}/editions/{n}/ranking.csv", s.rankingCSV)
	download("GET /r/{slug}/editions/{n}/ranking.json", s.rankingJSON)
	download("GET /r/{slug}/editions/{n}/ranking.csv-metadata.json", s.csvMetadata)
	download("GET /r/{slug}/editions/{n}/cite.bib", s.citeBib)
	download("GET /r/{slug}/editions/{n}/cite.json", s.citeJSON)
	// An edition's signed bundle, to recompute it offline, and the key
	// that signs the bundles.
	download("GET /r/{slug}/editions/{n}/bundle", s.bundle)
	// The page that checks the bundle in the reader's browser (verify.js).
	edition("GET /r/{slug}/editions/{n}/"+verifyFile, s.verify)
	document("GET "+bundle.WellKnownPath, s.signingKey)
	// The WARC records of the pages an edition's evidence cites, as one
	// WACZ archive.
	download("GET /r/{slug}/editions/{n}/"+waczFile, s.evidenceWACZ)
	// A player or verifier on another origin asks before its ranged reads
	// (archivePreflight), for the bundle, the WACZ and a capture's record
	// alike.
	mux.HandleFunc("OPTIONS /r/{slug}/editions/{n}/bundle", archivePreflight)
	mux.HandleFunc("OPTIONS /r/{slug}/editions/{n}/"+waczFile, archivePreflight)
	mux.Handle("OPTIONS /captures/{sha256}", warcProblems(http.HandlerFunc(s.capturePreflight)))

	// Archived copies of the pages evidence cites: the site's page about
	// one, and its body (framed by that page, or as a download), streamed
	// from the archive. The read models say who may see which.
	mux.Handle("GET /captures/{sha256}", warcProblems(read(http.HandlerFunc(s.capture))))
	handle("GET /captures/{sha256}/raw", s.captureRaw)
	handle("GET /captures/{sha256}/download", s.captureRaw)

	// Feeds and the live push of new editions.
	handle("GET /r/{slug}/feed.atom", s.feed)
	handle("GET /feed.atom", s.feed)
	mux.Handle("GET /events", read(s.limitStreams(s.hub)))

	// The JSON API's public reads, cached with the pages.
	handle("GET /api/v1/rankings", s.apiRankings)
	handle("GET /api/v1/rankings/{slug}", s.apiRanking)
	handle("GET /api/v1/rankings/{slug}/editions", s.apiEditions)
	edition("GET /api/v1/rankings/{slug}/editions/{n}", s.apiEdition)
	handle("GET /api/v1/rankings/{slug}/entries/{entry}", s.apiEntry)
	handle("GET /api/v1/rankings/{slug}/corrections", s.apiCorrections)
}

// CloseStreams ends every live event stream. Streams never go idle, so
// register it with http.Server.RegisterOnShutdown for a prompt shutdown.
func (s *Site) CloseStreams() { s.hub.close() }

// Streams reports how many live event streams (GET /events) are open.
func (s *Site) Streams() int { return s.hub.streams() }
