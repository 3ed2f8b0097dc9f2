package site

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"
)

// A cached public body is also kept gzip-compressed, once per edition:
// the ranking of 1,000 entries is 6 MB of HTML and 180 KB gzipped, and
// compressing it costs 50 ms, too much per request. The request's CSP
// nonce sits inside the body, so each part between nonces is compressed
// on its own into DEFLATE blocks that end byte-aligned and refer to nothing
// before them (a fresh compressor, then a sync flush); a request's stream
// is those blocks with its nonce in between as stored blocks, then an
// empty final block. The gzip trailer's CRC-32 covers the nonce too: it is
// combined from the parts' CRCs with precomputed GF(2) operators, so a
// request does no work in proportion to the body's size.

// gzipPart is one part of a body, compressed, with its CRC-32 and the
// operator that appends its length of bytes to a CRC.
type gzipPart struct {
	deflated []byte
	crc      uint32
	shift    *crcShift
	size     int
}

// gzipParts compresses each part of a body.
func gzipParts(parts [][]byte) ([]gzipPart, error) {
	out := make([]gzipPart, len(parts))
	for i, p := range parts {
		var buf bytes.Buffer
		zw, err := flate.NewWriter(&buf, flate.DefaultCompression)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(p); err != nil {
			return nil, err
		}
		if err := zw.Flush(); err != nil { // byte-aligned, not final
			return nil, err
		}
		out[i] = gzipPart{deflated: buf.Bytes(), crc: crc32.ChecksumIEEE(p), shift: newCRCShift(len(p)), size: len(p)}
	}
	return out, nil
}

// gzipHeader is a gzip member header: no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// writeGzip writes the body as one gzip member with nonce between parts.
func writeGzip(w http.ResponseWriter, parts []gzipPart, nonce string) {
	n := []byte(nonce)
	// A stored block: BFINAL=0, BTYPE=00 (then padding to the byte), LEN, NLEN.
	stored := make([]byte, 5, 5+len(n))
	binary.LittleEndian.PutUint16(stored[1:], uint16(len(n)))
	binary.LittleEndian.PutUint16(stored[3:], ^uint16(len(n)))
	stored = append(stored, n...)
	nonceCRC, nonceShift := crc32.ChecksumIEEE(n), newCRCShift(len(n))

	size := len(gzipHeader) + 5 + 8
	crc, total := uint32(0), 0
	for i, p := range parts {
		if i > 0 {
			size += len(stored)
			crc, total = nonceShift.apply(crc)^nonceCRC, total+len(n)
		}
		size += len(p.deflated)
		crc, total = p.shift.apply(crc)^p.crc, total+p.size
	}
	h := w.Header()
	h.Set("Content-Encoding", "gzip")
	h.Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(gzipHeader)
	for i, p := range parts {
		if i > 0 {
			_, _ = w.Write(stored)
		}
		_, _ = w.Write(p.deflated)
	}
	var tail [13]byte
	tail[0] = 1 // the final block: BFINAL=1, BTYPE=00, empty
	binary.LittleEndian.PutUint16(tail[1:], 0)
	binary.LittleEndian.PutUint16(tail[3:], 0xffff)
	binary.LittleEndian.PutUint32(tail[5:], crc)
	binary.LittleEndian.PutUint32(tail[9:], uint32(total))
	_, _ = w.Write(tail[:])
}

// gzipTag is the entity tag of the gzip-coded copy of the body tagged
// tag: a content coding makes another representation (RFC 9110 §8.8.3),
// and one tag for both would let a cache holding the compressed bytes
// answer a client that cannot read them.
func gzipTag(tag string) string { return strings.TrimSuffix(tag, `"`) + `-gzip"` }

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, c := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(c), ";")
			if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
				continue
			}
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// crcShift is the linear map over GF(2) that takes the CRC-32 (IEEE) of A
// to the CRC of A followed by n zero bytes; crc(A‖B) is then
// shift_len(B)(crc(A)) ^ crc(B) (the method of zlib's crc32_combine).
type crcShift [32]uint32

func (m *crcShift) apply(crc uint32) uint32 {
	var sum uint32
	for i := 0; crc != 0; i, crc = i+1, crc>>1 {
		if crc&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// then returns the map m followed by o.
func (m *crcShift) then(o *crcShift) *crcShift {
	var r crcShift
	for i := range r {
		r[i] = o.apply(m[i])
	}
	return &r
}

func newCRCShift(n int) *crcShift {
	var bit crcShift // one zero bit
	bit[0] = crc32.IEEE
	for i := 1; i < 32; i++ {
		bit[i] = 1 << (i - 1)
	}
	op := bit.then(&bit).then(bit.then(&bit)) // four zero bits
	op = op.then(op)                          // one zero byte
	var r crcShift                            // identity
	for i := range r {
		r[i] = 1 << i
	}
	res := &r
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			res = res.then(op)
		}
		op = op.then(op)
	}
	return res
}
