package demo

import (
	"bytes"
	_ "embed"

	"github.com/crossrank/crossrank/domain/rankfile"
)

// rankingFile is the demo ranking as a ranking file (docs/ranking-file.md):
// its methodology and the nine platforms with the article's evidence.
//
//go:embed gpu-cloud.ranking.json
var rankingFile []byte

// File returns the demo ranking file, decoded afresh (the caller may
// change it).
func File() *rankfile.File {
	f, err := rankfile.Decode(bytes.NewReader(rankingFile))
	if err != nil {
		panic("demo: the embedded ranking file: " + err.Error()) // checked by the tests
	}
	return f
}
