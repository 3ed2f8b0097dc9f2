package i18n

// zhEditionPage holds the Chinese words of an edition's public page: its
// summary, the ranking after it, its largest moves and its changes by
// entry, paged and filtered.
var zhEditionPage = map[string]string{
	"edition.summary":           "概要",
	"edition.stat_added":        "新上榜条目",
	"edition.stat_changed":      "有变更的条目",
	"edition.stat_up":           "名次上升",
	"edition.stat_down":         "名次下降",
	"edition.stat_scores":       "评分变更",
	"edition.stat_attributes":   "属性变更",
	"edition.stat_proposals":    "提案",
	"edition.stat_methodology":  "方法变更",
	"edition.top_of":            "这里列出前 %d 个，共 %d 个条目。",
	"edition.full_ranking":      "查看完整榜单 →",
	"edition.full_ranking_csv":  "本期完整榜单（CSV）",
	"edition.largest_moves":     "名次变化最大",
	"edition.no_moves":          "本期没有条目的名次发生变化。",
	"edition.more_new":          "……另有 %d 个，在榜单中标为“新”。",
	"edition.changes_by_entry":  "按条目查看变更",
	"edition.no_changes":        "没有符合条件的变更。",
	"edition.no_entry":          "没有名为“%s”的条目。",
	"edition.continued":         "接上页",
	"edition.only_entry":        "只看这个条目",
	"edition.filter_entry":      "条目（名称或标识）",
	"edition.filter_criterion":  "评分项",
	"edition.filter_all":        "全部评分项和属性",
	"edition.filter_scores":     "评分",
	"edition.filter_attributes": "属性",
	"edition.filter_apply":      "筛选",
	"edition.filter_clear":      "显示全部变更",
	"edition.about":             "关于本期",
	"edition.more_proposals":    "……另有 %d 个，见本期的 JSON。",
	"count.changes.one":         "%d 处变更",
	"count.changes.other":       "%d 处变更",
	"field.edition_criterion":   "{Field}不是本榜单的评分项或属性：“{value}”。",
}
