package capture_test

import (
	"strings"
	"testing"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
)

// BenchmarkQuoteFound checks a quote near the end of a 1 MiB page of
// mixed Chinese and ASCII paragraphs, as the capture bench's pages are.
func BenchmarkQuoteFound(b *testing.B) {
	para := "<p>GPU 云服务器按量计费，包年包月更优惠；A100、H100、RTX 4090 可选，存储与网络另计。</p>\n"
	page := []byte("<!doctype html><html><head><meta charset=utf-8><title>p</title></head><body>" +
		strings.Repeat(para, (1<<20)/len(para)) + "<p>RTX 4090 每小时 1.98 元</p></body></html>")
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if found, _ := capture.QuoteFound(page, "text/html; charset=utf-8", "rtx 4090 每小时 1.98 元"); !found {
			b.Fatal("quote not found")
		}
	}
}
