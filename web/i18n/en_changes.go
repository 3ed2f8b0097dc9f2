package i18n

// enChanges holds the English words of an entry's changes between two
// editions ("why did it move?").
var enChanges = map[string]string{
	"changes.title":              "Why did %s move?",
	"changes.link":               "Why did it move? Compare two editions",
	"changes.from":               "From",
	"changes.to":                 "to",
	"changes.compare":            "Compare",
	"changes.one_edition":        "There is no earlier edition with this entry to compare with yet.",
	"changes.rank_title":         "Edition %d → edition %d",
	"changes.rank_move":          "Rank %d → %d; total %s → %s of 10.",
	"changes.part_own_scores":    "Its own scores",
	"changes.part_others_scores": "Other entries' scores",
	"changes.part_methodology":   "Methodology",
	"changes.up":                 "up %d",
	"changes.down":               "down %d",
	"changes.same":               "no change",
	"changes.after":              "(rank %d after this step)",
	"changes.how":                "How the move is split: the three changes are applied one after another, in this fixed order, each on top of the last. First this entry's own scores as the later edition has them, with every other entry and every weight as in the earlier edition; then every other entry's scores as in the later edition (entries new since then join here), still at the earlier weights; then the later edition's weights and criteria, which gives its published rank. Each part is the rank before its step minus the rank after it, so the three add up to the whole move. A score on a criterion the later edition retired counts as unchanged until the methodology step. Ties break by slug, as in the ranking.",
	"changes.scores_title":       "Its score changes",
	"changes.no_scores":          "None of its scores changed between these editions.",
	"changes.score_line":         "%s: %s → %s (proposal %s)",
	"changes.method_title":       "Methodology changes that moved its total",
	"changes.no_method":          "No change of weights or criteria moved its total.",
	"changes.weight_line":        "%s: weight %d%% → %d%%, its total %s",
	"changes.retired_line":       "%s retired (it weighed %d%%), its total %s",
	"field.changes_from":         "“from” must be the number of one of the ranking's editions, 1 to {latest}.",
	"field.changes_to":           "“to” must be the number of one of the ranking's editions, 1 to {latest}.",
	"field.changes_order":        "“from” must be an edition before edition {to}.",
	"field.changes_absent":       "The entry is not in edition {edition}: choose a later “from”.",
}
