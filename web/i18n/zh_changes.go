package i18n

// zhChanges holds the Simplified Chinese words of an entry's changes
// between two editions.
var zhChanges = map[string]string{
	"changes.title":              "%s 的名次为何变动？",
	"changes.link":               "名次为何变动？比较任意两期",
	"changes.from":               "从",
	"changes.to":                 "到",
	"changes.compare":            "比较",
	"changes.one_edition":        "目前还没有包含该条目的更早一期可供比较。",
	"changes.rank_title":         "第 %d 期 → 第 %d 期",
	"changes.rank_move":          "名次 %d → %d；总分 %s → %s（满分 10）。",
	"changes.part_own_scores":    "自身评分",
	"changes.part_others_scores": "其他条目的评分",
	"changes.part_methodology":   "方法",
	"changes.up":                 "上升 %d 位",
	"changes.down":               "下降 %d 位",
	"changes.same":               "不变",
	"changes.after":              "（此步之后名次为 %d）",
	"changes.how":                "变动的拆分方法：三类变化按以下固定顺序逐一叠加。先把本条目自身的评分换成较新一期的值，其他条目和所有权重仍按较早一期；再把其他所有条目的评分换成较新一期的值（此后新增的条目在这一步加入），权重仍按较早一期；最后换用较新一期的权重与标准，即得到其公布的名次。每一部分等于该步之前的名次减去该步之后的名次，因此三部分之和恰为总变动。较新一期已停用的标准上的评分，在方法这一步之前视为未变。同分时按标识排序，与排行一致。",
	"changes.scores_title":       "自身评分的变化",
	"changes.no_scores":          "这两期之间，它的评分没有变化。",
	"changes.score_line":         "%s：%s → %s（提案 %s）",
	"changes.method_title":       "使其总分变动的方法变化",
	"changes.no_method":          "权重或标准的变化没有改变它的总分。",
	"changes.weight_line":        "%s：权重 %d%% → %d%%，其总分 %s",
	"changes.retired_line":       "%s 已停用（原权重 %d%%），其总分 %s",
	"field.changes_from":         "“from” 须为本排行某一期的编号，1 至 {latest}。",
	"field.changes_to":           "“to” 须为本排行某一期的编号，1 至 {latest}。",
	"field.changes_order":        "“from” 须早于第 {to} 期。",
	"field.changes_absent":       "该条目不在第 {edition} 期中：请选择更晚的 “from”。",
}
