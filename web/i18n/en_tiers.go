package i18n

// enTiers holds the English words of tiers: the entries an edition's
// evidence cannot tell apart.
var enTiers = map[string]string{
	"tiers.label":        "Tier %d",
	"tiers.title":        "Entries in tier %d: one removed score or one weight moved by 5 points could change their order.",
	"tiers.entry":        "· tier %d",
	"tiers.alone":        "alone in its tier",
	"tiers.shared.one":   "shares its tier with %d other entry",
	"tiers.shared.other": "shares its tier with %d other entries",
	"tiers.method_title": "Tiers",
	"tiers.method_body":  "Ranks are exact, but the evidence behind them is not: two entries whose order one removed published score, or one criterion's weight moved by 5 points (the others renormalised to 100), could reverse are not told apart by the edition. Such entries share a tier, and so does every entry either could change places with, and so on: a tier is a connected group of the “could change places” relation. Tiers are runs of consecutive ranks, numbered 1, 2, … from the top; an entry nothing could overtake and that could overtake nothing is a tier of its own. They are computed from the edition's published snapshot with the ranking's integer arithmetic, the same as each rank's stability, so anyone holding the snapshot can recompute them; they are not part of the snapshot or its hash. Tiers are of the overall order only: not under a scenario's weights or in the independent view.",
	"download.col.tier":  "Tier (entries one removed score or one moved weight could reorder)",
}
