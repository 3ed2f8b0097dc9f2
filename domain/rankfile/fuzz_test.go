package rankfile_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain/rankfile"
)

// FuzzDecode: any input either is refused or decodes to a file that
// encodes and decodes back to itself.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"format":"crossrank.ranking/v1","slug":"x","methodology":{"title":{"zh":"甲","en":"A"}}}`))
	f.Add([]byte(`{"format":"crossrank.ranking/v1","slug":"x","methodology":{},"entries":[{"slug":"a","name":{"zh":"","en":""},"category":"c","description":{"zh":"","en":""},"evidence":[{"key":"k","claim":"c","excerpt":"e","observed_on":"2026-01-01","tier":"own"}],"scores":[{"criterion":"q","value":3,"rationale":"r","evidence":["k"]}]}]}`))
	f.Add([]byte("{\"format\":\"crossrank.ranking/v1\",\"slug\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := rankfile.Decode(bytes.NewReader(b))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := rankfile.Encode(&buf, got); err != nil {
			t.Fatal(err)
		}
		again, err := rankfile.Decode(&buf)
		if err != nil {
			t.Fatalf("re-decoding an encoded file: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(normal(got), normal(again)) {
			t.Fatalf("round trip changed the file:\n%+v\n%+v", got, again)
		}
	})
}

// normal re-encodes f so nil and empty lists compare equal.
func normal(f *rankfile.File) string {
	var b bytes.Buffer
	rankfile.Encode(&b, f)
	return b.String()
}
