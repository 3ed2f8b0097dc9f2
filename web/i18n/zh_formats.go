package i18n

// zhFormats are enFormats in Chinese, which has one form for every count:
// .one repeats .other so the catalogs keep the same keys.
var zhFormats = map[string]string{
	"public.feed_changes.one":     "%d 项修改",
	"public.feed_changes.other":   "%d 项修改",
	"public.feed_proposals.one":   "%d 条提案",
	"public.feed_proposals.other": "%d 条提案",
	"download.col.score_note":     "为空：该条目在此标准上没有评分。排名在总分（Σ 权重 × 评分）中按 0 计，即本列的默认值。",
}
