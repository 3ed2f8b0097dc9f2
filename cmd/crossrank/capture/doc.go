// Package capture keeps what a cited page said when it was cited: it
// fetches the page once, stores the response as a WARC/1.1 record in a
// JetStream Object Store keyed by the SHA-256 of the body, and checks
// whether the editor's excerpt appears in it.
//
// # Threat model
//
// The URL comes from an editor, and an editor's account can be taken over
// or can paste a link someone else crafted, so the fetcher treats every
// URL as hostile. What it must not become is a way to reach what only the
// server can reach (server-side request forgery): the loopback NATS and
// HTTP ports, the private network, the cloud metadata endpoint that hands
// out credentials. Hence:
//
//   - Addresses are checked when the socket connects, in the net.Dialer's
//     Control hook, on the address actually dialled: after DNS, after
//     every redirect, for every address Happy Eyeballs tries. Checking the
//     name before fetching would lose to DNS rebinding (public when
//     checked, 127.0.0.1 when dialled) and to spellings such as
//     http://2130706433/ or http://0x7f.0.0.1/ that some resolvers read as
//     127.0.0.1. Private, loopback, link-local, multicast, unspecified,
//     CGNAT, reserved and documentation ranges are refused. IPv6 forms
//     that carry an IPv4 address in their last 32 bits (mapped, compatible
//     ::7f00:1, translated ::ffff:0:7f00:1, well-known NAT64) are judged
//     as that IPv4 address; the prefixes that embed one elsewhere or
//     obfuscated (local-use NAT64, 6to4, Teredo) are refused outright. Fetcher.Allow opens chosen prefixes (tests open
//     loopback); cloud metadata addresses stay refused regardless.
//   - No proxy from the environment: a proxy would be dialled instead of
//     the target, and the target would go unchecked.
//   - http and https only, at most five redirects, each re-checked.
//   - Bounded cost: 20 s for the whole fetch, 64 KiB of response headers,
//     10 MiB of body counted after decompression (a gzip bomb stops
//     there), HTTP/1.1 only, one connection per fetch.
//   - Only HTML, plain text, JSON and PDF are captured: what evidence is.
//
// robots.txt is not consulted; see Fetcher for why.
//
// # Records
//
// A capture is stored as one WARC/1.1 'response' record (ISO 28500:2017):
// the status line, headers and body the server sent, so any WARC tool can
// replay or check it. The body is stored decompressed, because the body's
// digest is what the evidence cites and what the quote check reads;
// Content-Encoding and Transfer-Encoding are kept under the X-Crawler-
// prefix (as Common Crawl does) and Content-Length is set to the stored
// length, so the record stays a well-formed HTTP message. Header names
// are as net/http canonicalises them, in sorted order; their values, and
// the body's bytes, are as received.
//
// It lives under cmd/crossrank because it needs net/http and the NATS
// client, which neither domain nor events may import.
package capture
