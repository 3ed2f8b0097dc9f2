package site_test

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/textproto"
	"strconv"
	"strings"
)

// warcRecord is one record as the test's own reader of WARC/1.1 (ISO
// 28500:2017) reads it: written apart from the capture package, so a
// record only that package could read fails here.
type warcRecord struct {
	Fields textproto.MIMEHeader
	Block  []byte
}

// readWARC reads every record in data: the version line, the named
// fields up to a blank line, Content-Length bytes of block, CRLF CRLF;
// a WARC-Block-Digest is checked against the block and a
// WARC-Payload-Digest against what follows the HTTP head.
func readWARC(data []byte) ([]warcRecord, error) {
	br := bufio.NewReader(bytes.NewReader(data))
	var recs []warcRecord
	for {
		if _, err := br.Peek(1); err == io.EOF {
			return recs, nil
		}
		tp := textproto.NewReader(br)
		version, err := tp.ReadLine()
		if err != nil || version != "WARC/1.1" {
			return nil, fmt.Errorf("record %d: version line %q, %v", len(recs), version, err)
		}
		fields, err := tp.ReadMIMEHeader()
		if err != nil {
			return nil, fmt.Errorf("record %d: fields: %v", len(recs), err)
		}
		for _, name := range []string{"Warc-Type", "Warc-Record-Id", "Warc-Date", "Content-Length"} {
			if fields.Get(name) == "" {
				return nil, fmt.Errorf("record %d: no %s", len(recs), name)
			}
		}
		n, err := strconv.ParseInt(fields.Get("Content-Length"), 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("record %d: Content-Length %q", len(recs), fields.Get("Content-Length"))
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			return nil, fmt.Errorf("record %d: block: %v", len(recs), err)
		}
		var end [4]byte
		if _, err := io.ReadFull(br, end[:]); err != nil || string(end[:]) != "\r\n\r\n" {
			return nil, fmt.Errorf("record %d: no CRLF CRLF after the block", len(recs))
		}
		if err := checkWARCDigest(fields.Get("Warc-Block-Digest"), block); err != nil {
			return nil, fmt.Errorf("record %d: block: %v", len(recs), err)
		}
		if _, payload, ok := bytes.Cut(block, []byte("\r\n\r\n")); ok {
			if err := checkWARCDigest(fields.Get("Warc-Payload-Digest"), payload); err != nil {
				return nil, fmt.Errorf("record %d: payload: %v", len(recs), err)
			}
		}
		recs = append(recs, warcRecord{Fields: fields, Block: block})
	}
}

// checkWARCDigest checks a labelled digest ("sha256:hex" or base32); ""
// is no digest to check.
func checkWARCDigest(labelled string, data []byte) error {
	if labelled == "" {
		return nil
	}
	alg, value, ok := strings.Cut(labelled, ":")
	var h hash.Hash
	switch {
	case !ok:
		return fmt.Errorf("digest %q has no algorithm", labelled)
	case strings.EqualFold(alg, "sha256"):
		h = sha256.New()
	case strings.EqualFold(alg, "sha1"):
		h = sha1.New()
	default:
		return fmt.Errorf("digest %q: unknown algorithm", labelled)
	}
	h.Write(data)
	sum := h.Sum(nil)
	if strings.EqualFold(value, hex.EncodeToString(sum)) ||
		strings.EqualFold(strings.TrimRight(value, "="), base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum)) {
		return nil
	}
	return fmt.Errorf("digest %q does not match", labelled)
}
