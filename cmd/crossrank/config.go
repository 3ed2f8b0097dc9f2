package main

import (
	"flag"
	"fmt"
	"net/netip"
	"os"
	"strconv"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/site"
)

// Every setting is a flag with an environment twin, declared here and
// nowhere else: the flag's default comes from its twin, and its help (what
// -h prints) names it.

// common holds the settings every command that opens the store shares.
type common struct {
	data       string
	natsURL    string
	natsListen string
	replicas   int
	// natsMaxBatch is the external server's batch max_msgs; the
	// embedded server's is jetstream.EmbeddedMaxBatch.
	natsMaxBatch int
}

// config is every setting of `crossrank serve`.
type config struct {
	common
	memoryLimitMiB int
	addr           string
	metricsAddr    string
	noDemo         bool
	secure         bool
	publicURL      string
	trustedProxies []netip.Prefix
	pageCacheBytes int
	publish        publishing
	capture        capturing
	signIn         signingIn
	mail           mailing
}

// settings declares flags with their environment twins on a flag set.
type settings struct{ fs *flag.FlagSet }

func (s settings) str(p *string, name, env, def, usage string) {
	s.fs.StringVar(p, name, envOr(env, def), withEnv(usage, env))
}

// boolean is set by any non-empty value of its twin.
func (s settings) boolean(p *bool, name, env, usage string) {
	s.fs.BoolVar(p, name, os.Getenv(env) != "", withEnv(usage, env))
}

func (s settings) integer(p *int, name, env string, def int, usage string) {
	s.fs.IntVar(p, name, envInt(env, def), withEnv(usage, env))
}

// parsed is a setting its own function parses: from the twin now (an error
// is kept until the flag has had its say: a flag overrides a bad twin) and
// from the flag when given.
func (s settings) parsed(name, env, usage string, set func(string) error, envErr *error) {
	if v := os.Getenv(env); v != "" {
		*envErr = set(v)
	}
	s.fs.Func(name, withEnv(usage, env), func(v string) error {
		*envErr = nil
		return set(v)
	})
}

func withEnv(usage, env string) string { return usage + " (" + env + ")" }

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

func (c *common) register(fs *flag.FlagSet) {
	s := settings{fs}
	s.str(&c.data, "data", "CROSSRANK_DATA", "./data", "data directory")
	s.str(&c.natsURL, "nats-url", "CROSSRANK_NATS_URL", "", "external NATS server or cluster; empty runs an embedded server")
	s.str(&c.natsListen, "nats-listen", "CROSSRANK_NATS_LISTEN", "", "also expose the embedded NATS server on this loopback address")
	s.integer(&c.replicas, "replicas", "CROSSRANK_REPLICAS", 1, "stream replicas (3 on a cluster)")
	s.integer(&c.natsMaxBatch, "nats-max-batch", "CROSSRANK_NATS_MAX_BATCH", jetstream.MaxBatch,
		"with --nats-url: the server's jetstream { limits { batch { max_msgs } } }, which bounds the proposals one edition releases")
}

// parseServe reads serve's settings from args and the environment.
func parseServe(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	c.register(fs)
	s := settings{fs}
	s.str(&c.addr, "addr", "CROSSRANK_ADDR", ":8080", "HTTP listen address")
	s.str(&c.metricsAddr, "metrics-addr", "CROSSRANK_METRICS_ADDR", "",
		"serve /metrics only on this address, e.g. 127.0.0.1:9090; empty: on the site's address")
	s.integer(&c.memoryLimitMiB, "memory-limit", "CROSSRANK_MEMORY_LIMIT", defaultMemoryLimitMiB,
		"soft limit of the Go heap in MiB: the collector runs harder near it rather than let the heap double (0: none; GOMEMLIMIT, when set, wins)")
	s.boolean(&c.noDemo, "no-demo", "CROSSRANK_NO_DEMO", "do not load the demo ranking into an empty store")
	s.boolean(&c.secure, "secure", "CROSSRANK_SECURE", "the site is served over TLS (Secure cookies, HSTS)")
	s.str(&c.publicURL, "public-url", "CROSSRANK_PUBLIC_URL", "",
		"the site's public address, e.g. https://rank.example, for permalinks in citations and badge embeds")
	var proxies string
	s.str(&proxies, "trusted-proxies", "CROSSRANK_TRUSTED_PROXIES", "",
		"reverse proxies (CIDR,…) whose X-Forwarded-For or Forwarded header names the client")
	s.integer(&c.pageCacheBytes, "page-cache-bytes", "CROSSRANK_PAGE_CACHE_BYTES", site.DefaultPageCacheBytes,
		"bytes of rendered public pages kept, least recently used dropped first; 0: the default, negative: none")
	p := &c.publish
	s.str(&p.siteDir, "site-dir", "CROSSRANK_SITE_DIR", "",
		"keep a static export of the public site in this folder, rewritten atomically on each publish")
	s.str(&p.webhookURL, "webhook", "CROSSRANK_WEBHOOK_URL", "", "POST each published edition to this URL")
	s.str(&p.webhookSecret, "webhook-secret", "CROSSRANK_WEBHOOK_SECRET", "",
		"sign webhook deliveries the Standard Webhooks way under this secret: whsec_<base64 key>; a plain secret also signs X-Crossrank-Signature (deprecated)")
	s.str(&c.mail.smtpURL, "smtp-url", "CROSSRANK_SMTP_URL", "",
		"mail users through this relay: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465 (TLS); empty: send no mail")
	s.str(&c.mail.from, "mail-from", "CROSSRANK_MAIL_FROM", "", "the From of the mails, e.g. \"Crossrank <desk@rank.example>\"")
	s.str(&p.chatAllow, "chat-allow", "CROSSRANK_CHAT_ALLOW", "",
		"let the rankings' chat webhooks reach these non-public prefixes (CIDR,…), e.g. 10.0.0.0/8 for an on-premises Mattermost; cloud metadata addresses stay refused")
	cp := &c.capture
	s.str(&cp.allow, "capture-allow", "CROSSRANK_CAPTURE_ALLOW", "",
		"let the capture of cited pages reach these non-public prefixes (CIDR,…), e.g. 127.0.0.1/32 for a local test page; cloud metadata addresses stay refused")
	s.boolean(&cp.off, "no-capture", "CROSSRANK_NO_CAPTURE", "do not fetch and archive the pages evidence cites, nor re-check them")
	cp.recheckEvery = capture.DefaultRecheckEvery
	s.parsed("recheck-every", "CROSSRANK_RECHECK_EVERY", "re-check the captured sources behind published scores this often, on a schedule stored in the "+
		"CROSSRANK_SCHEDULES stream (at least 1s; 0: this server runs no re-checks; default 24h)", cp.setRecheckEvery, &cp.envErr)
	c.signIn.register(s)
	fs.Parse(args)
	var err error
	if c.trustedProxies, err = auth.ParseTrustedProxies(proxies); err != nil {
		return c, fmt.Errorf("--trusted-proxies (CROSSRANK_TRUSTED_PROXIES): %w", err)
	}
	return c, nil
}
