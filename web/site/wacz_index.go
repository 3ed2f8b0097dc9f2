package site

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A WACZ's index (indexes/index.cdx) is CDXJ, as pywb and ReplayWeb.page
// read it (specs.webrecorder.net/cdxj/0.1.0): a line per record, sorted
// by bytes, "searchable-url timestamp {json}", the JSON naming the record's
// WARC file, offset and length, and the response's URL, status, media type
// and payload digest. Those come from the record itself (its WARC fields
// and HTTP head), read as it is copied into the archive.

// maxRecordHead bounds a record's WARC fields and HTTP head together: the
// capture worker writes a few hundred bytes of them.
const maxRecordHead = 64 << 10

// errRecordHead says an archived record does not read as a WARC response.
var errRecordHead = errors.New("site: archived record has no readable WARC response head")

// recordHead is what the index says of one record.
type recordHead struct {
	raw     []byte // the bytes read: version line, WARC fields, HTTP head
	url     string // WARC-Target-URI
	date    time.Time
	payload string // WARC-Payload-Digest, "sha256:<hex>"
	status  int
	mime    string // the response's media type, without parameters
}

// readRecordHead reads a WARC response record's head from br, up to and
// including the blank line that ends its HTTP head.
func readRecordHead(br *bufio.Reader) (recordHead, error) {
	var h recordHead
	line := func() (string, error) {
		b, err := br.ReadSlice('\n')
		if err != nil {
			return "", fmt.Errorf("%w: %v", errRecordHead, err)
		}
		if h.raw = append(h.raw, b...); len(h.raw) > maxRecordHead {
			return "", fmt.Errorf("%w: head over %d bytes", errRecordHead, maxRecordHead)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	fields := func() (map[string]string, error) {
		f := map[string]string{}
		for {
			l, err := line()
			if err != nil || l == "" {
				return f, err
			}
			name, value, ok := strings.Cut(l, ":")
			if ok {
				f[strings.ToLower(strings.TrimSpace(name))] = strings.TrimSpace(value)
			}
		}
	}
	if v, err := line(); err != nil || !strings.HasPrefix(v, "WARC/") {
		return h, fmt.Errorf("%w: version line %q", errRecordHead, v)
	}
	warc, err := fields()
	if err != nil {
		return h, err
	}
	if warc["warc-type"] != "response" {
		return h, fmt.Errorf("%w: WARC-Type %q", errRecordHead, warc["warc-type"])
	}
	h.url, h.payload = warc["warc-target-uri"], warc["warc-payload-digest"]
	if h.date, err = time.Parse(time.RFC3339, warc["warc-date"]); err != nil {
		return h, fmt.Errorf("%w: WARC-Date: %v", errRecordHead, err)
	}
	status, err := line()
	if err != nil {
		return h, err
	}
	if parts := strings.Fields(status); len(parts) >= 2 {
		h.status, _ = strconv.Atoi(parts[1])
	}
	if h.status < 100 || h.status > 999 {
		return h, fmt.Errorf("%w: status line %q", errRecordHead, status)
	}
	httpHead, err := fields()
	if err != nil {
		return h, err
	}
	h.mime = mediaType(httpHead["content-type"])
	return h, nil
}

// mediaType is a Content-Type's media type alone, lower case, as CDX
// indexes record it ("text/html" of "text/html; charset=utf-8").
func mediaType(contentType string) string {
	if t, _, err := mime.ParseMediaType(contentType); err == nil {
		return t
	}
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// leadingWWW is the "www." (or "www2."…) that a searchable URL leaves out.
var leadingWWW = regexp.MustCompile(`^(https?://)www\d*\.`)

// searchableURL is a URL's sort key in a CDXJ index, as warcio (the
// indexer of ReplayWeb.page's engine) makes it: without a leading "www."
// (or "www2."…), lower case, without the scheme, the host's labels
// reversed and joined by commas, the port, ")", the path, and the query's
// arguments sorted. A URL that does not parse is its own key.
func searchableURL(raw string) string {
	if !strings.HasPrefix(raw, "http:") && !strings.HasPrefix(raw, "https:") {
		return raw
	}
	u, err := url.Parse(strings.ToLower(leadingWWW.ReplaceAllString(raw, "$1")))
	if err != nil || u.Host == "" {
		return raw
	}
	labels := strings.Split(u.Hostname(), ".")
	slices.Reverse(labels)
	key := strings.Join(labels, ",")
	if p := u.Port(); p != "" {
		key += ":" + p
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	key += ")" + path
	if u.RawQuery != "" {
		args := strings.Split(u.RawQuery, "&")
		slices.Sort(args)
		key += "?" + strings.Join(args, "&")
	}
	return key
}

// indexLine is one record's line in the index.
type indexLine struct {
	head           recordHead
	recordDigest   string // "sha256:<hex>" of the whole record
	offset, length int64  // where the record lies in the WARC file
}

// cdxj returns the index of lines in the WARC file filename: sorted
// lines, each ending in a newline.
func cdxj(filename string, lines []indexLine) ([]byte, error) {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		// The fields in the order warcio's indexer writes them.
		if err := enc.Encode(struct {
			URL          string `json:"url"`
			Mime         string `json:"mime"`
			Status       int    `json:"status"`
			Digest       string `json:"digest"`
			RecordDigest string `json:"recordDigest"`
			Length       int64  `json:"length"`
			Offset       int64  `json:"offset"`
			Filename     string `json:"filename"`
		}{l.head.url, l.head.mime, l.head.status, l.head.payload, l.recordDigest, l.length, l.offset, filename}); err != nil {
			return nil, err
		}
		out = append(out, searchableURL(l.head.url)+" "+l.head.date.UTC().Format("20060102150405")+" "+b.String())
	}
	slices.Sort(out)
	return []byte(strings.Join(out, "")), nil
}
