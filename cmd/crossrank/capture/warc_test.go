package capture_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
)

// TestRecordRoundTrip captures a gzipped, chunked page, writes its record
// and reads it back: the same record, the same bytes, and headers that
// describe the body as stored.
func TestRecordRoundTrip(t *testing.T) {
	t.Parallel()
	const body = "<p>价格应以实时库存为准</p>"
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush() // headers go before the length is known
		}
		zw := gzip.NewWriter(w)
		io.WriteString(zw, body)
		zw.Close()
	})
	sized, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	sizedRec := capture.NewRecord(sized)
	if got := sizedRec.Header.Get("X-Crawler-Content-Length"); got == "" || got == fmt.Sprint(len(body)) {
		t.Errorf("the compressed length is not kept under X-Crawler-: %q", got)
	}

	resp, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL+"/p?chunked=1")
	if err != nil {
		t.Fatal(err)
	}
	rec := capture.NewRecord(resp)
	raw, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(body))
	if got, want := rec.Key(), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Key = %s, want %s", got, want)
	}
	text := string(raw)
	for _, want := range []string{
		"WARC/1.1\r\nWARC-Type: response\r\n",
		"\r\nWARC-Target-URI: " + s.URL + "/p?chunked=1\r\n",
		"\r\nWARC-IP-Address: 127.0.0.1\r\n",
		"\r\nWARC-Payload-Digest: sha256:" + rec.Key() + "\r\n",
		"\r\nContent-Type: application/http;msgtype=response\r\n",
		"\r\n\r\nHTTP/1.1 200 OK\r\n",
		"\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n",
		"\r\nX-Crawler-Content-Encoding: gzip\r\n",
		"\r\nX-Crawler-Transfer-Encoding: chunked\r\n",
		"\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n",
		"\r\n\r\n" + body + "\r\n\r\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("record lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\r\nContent-Encoding:") || strings.Contains(text, "\r\nTransfer-Encoding:") {
		t.Errorf("record still claims an encoding the body no longer has:\n%s", text)
	}

	got, err := capture.ReadRecord(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != rec.ID || !got.Date.Equal(rec.Date) || got.TargetURI != rec.TargetURI || got.IP != rec.IP ||
		got.Status != rec.Status || string(got.Body) != body || got.Header.Get("X-Crawler-Content-Encoding") != "gzip" {
		t.Errorf("read back %+v\nwrote %+v", got, rec)
	}
	again, _ := got.MarshalBinary()
	if !bytes.Equal(again, raw) {
		t.Errorf("a record read back marshals differently:\n%s\n---\n%s", again, raw)
	}
	if found, checked := capture.QuoteFound(got.Body, got.Header.Get("Content-Type"), "应以实时库存为准"); !found || !checked {
		t.Error("the quote is not found in the record read back")
	}
}

// TestRecordShape pins the bytes of a record.
func TestRecordShape(t *testing.T) {
	t.Parallel()
	rec := capture.Record{
		ID:        "<urn:uuid:92283950-ef2f-4d72-b224-f54c6ec90bb0>",
		Date:      time.Date(2026, 11, 30, 9, 8, 7, 0, time.UTC),
		TargetURI: "https://example.org/a?b=c",
		IP:        netip.MustParseAddr("93.184.215.14"),
		Status:    "HTTP/1.1 200 OK",
		Header:    http.Header{"Content-Type": {"text/plain"}, "Content-Length": {"5"}, "Date": {"Mon, 30 Nov 2026 09:08:07 GMT"}},
		Body:      []byte("hello"),
	}
	raw, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	block := "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\nDate: Mon, 30 Nov 2026 09:08:07 GMT\r\n\r\nhello"
	want := "WARC/1.1\r\n" +
		"WARC-Type: response\r\n" +
		"WARC-Record-ID: <urn:uuid:92283950-ef2f-4d72-b224-f54c6ec90bb0>\r\n" +
		"WARC-Date: 2026-11-30T09:08:07Z\r\n" +
		"WARC-Target-URI: https://example.org/a?b=c\r\n" +
		"WARC-IP-Address: 93.184.215.14\r\n" +
		// sha256 of "hello", as sha256sum prints it.
		"WARC-Payload-Digest: sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\r\n" +
		"WARC-Block-Digest: sha256:" + hexSHA256(block) + "\r\n" +
		"Content-Type: application/http;msgtype=response\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n", len(block)) +
		"\r\n" + block + "\r\n\r\n"
	if string(raw) != want {
		t.Errorf("got\n%q\nwant\n%q", raw, want)
	}
}

func hexSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func b32SHA1(s string) string {
	sum := sha1.Sum([]byte(s))
	return base32.StdEncoding.EncodeToString(sum[:])
}

// specExample is a record in the shape of the WARC 1.1 specification's
// annex C.2 example response: WARC/1.0, its fields in its order, SHA-1
// digests in base32, a warcinfo id and an identified payload type. The
// digests and lengths are computed, since the spec's are placeholders.
func specExample(body string) string {
	block := "HTTP/1.1 200 OK\r\n" +
		"Date: Tue, 19 Sep 2006 17:18:40 GMT\r\n" +
		"Server: Apache/2.0.54 (Ubuntu)\r\n" +
		"Last-Modified: Mon, 16 Jun 2003 22:28:51 GMT\r\n" +
		"ETag: \"3e45-67e-2ed02ec0\"\r\n" +
		"Accept-Ranges: bytes\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n", len(body)) +
		"Connection: close\r\n" +
		"Content-Type: image/jpeg\r\n" +
		"\r\n" + body
	return "WARC/1.0\r\n" +
		"WARC-Type: response\r\n" +
		"WARC-Target-URI: http://www.archive.org/images/logoc.jpg\r\n" +
		"WARC-Warcinfo-ID: <urn:uuid:d7ae5c10-e6b3-4d27-967d-34780c58ba39>\r\n" +
		"WARC-Date: 2006-09-19T17:20:24Z\r\n" +
		"WARC-Block-Digest: sha1:" + b32SHA1(block) + "\r\n" +
		"WARC-Payload-Digest: sha1:" + b32SHA1(body) + "\r\n" +
		"WARC-IP-Address: 207.241.233.58\r\n" +
		"WARC-Record-ID: <urn:uuid:92283950-ef2f-4d72-b224-f54c6ec90bb0>\r\n" +
		"Content-Type: application/http;msgtype=response\r\n" +
		"WARC-Identified-Payload-Type: image/jpeg\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n", len(block)) +
		"\r\n" + block + "\r\n\r\n"
}

func TestReadSpecExample(t *testing.T) {
	t.Parallel()
	body := "\xff\xd8\xff\xe0 not really a JPEG \r\n\r\n but binary enough\x00"
	rec, err := capture.ReadRecord(strings.NewReader(specExample(body)))
	if err != nil {
		t.Fatal(err)
	}
	if rec.TargetURI != "http://www.archive.org/images/logoc.jpg" || rec.IP != netip.MustParseAddr("207.241.233.58") ||
		rec.Status != "HTTP/1.1 200 OK" || rec.Header.Get("Etag") != `"3e45-67e-2ed02ec0"` || string(rec.Body) != body ||
		rec.Date != time.Date(2006, 9, 19, 17, 20, 24, 0, time.UTC) {
		t.Errorf("read %+v", rec)
	}
}

func TestReadRecordRejects(t *testing.T) {
	t.Parallel()
	good := specExample("payload")
	for name, raw := range map[string]string{
		"tampered body":        strings.Replace(good, "payload", "pAyload", 1),
		"tampered header":      strings.Replace(good, "Apache/2.0.54", "Apache/2.0.55", 1),
		"short block":          strings.Replace(good, "payload\r\n\r\n", "pay", 1),
		"no trailer":           strings.TrimSuffix(good, "\r\n\r\n"),
		"WARC/2.0":             strings.Replace(good, "WARC/1.0", "WARC/2.0", 1),
		"request record":       strings.Replace(good, "WARC-Type: response", "WARC-Type: request", 1),
		"not application/http": strings.Replace(good, "application/http;msgtype=response", "image/jpeg", 1),
		"huge Content-Length":  strings.Replace(good, "\r\nContent-Length: 2", "\r\nContent-Length: 99999999992", 1),
		"bad date":             strings.Replace(good, "2006-09-19T17:20:24Z", "yesterday", 1),
		"no header end":        "WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http\r\nContent-Length: 4\r\n\r\nHTTP\r\n\r\n",
		"empty":                "",
	} {
		if _, err := capture.ReadRecord(strings.NewReader(raw)); !errors.Is(err, capture.ErrRecord) {
			t.Errorf("%s: err = %v, want ErrRecord", name, err)
		}
	}
}

func FuzzReadRecord(f *testing.F) {
	f.Add([]byte(specExample("payload")))
	rec := capture.Record{ID: "<urn:uuid:1>", Date: time.Unix(0, 0), TargetURI: "http://a/", Status: "HTTP/1.1 200 OK", Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>x</p>")}
	raw, _ := rec.MarshalBinary()
	f.Add(raw)
	f.Fuzz(func(t *testing.T, raw []byte) {
		rec, err := capture.ReadRecord(bytes.NewReader(raw))
		if err != nil {
			return
		}
		// Whatever reads must write and read back the same.
		again, err := rec.MarshalBinary()
		if err != nil {
			return
		}
		back, err := capture.ReadRecord(bytes.NewReader(again))
		if err != nil {
			t.Fatalf("a record read from fuzz input does not read back: %v\n%q", err, again)
		}
		if !bytes.Equal(back.Body, rec.Body) || back.Status != rec.Status || back.TargetURI != rec.TargetURI {
			t.Fatalf("read back differs: %+v vs %+v", back, rec)
		}
	})
}
