// Package demo holds the demo ranking, a buyer's guide to GPU
// cloud rental platforms, drawn from one Chinese market overview (see
// SourceName), as a ranking file (gpu-cloud.ranking.json), and seeds it
// through the same import path any ranking file takes, plus scripted reviews.
//
// Sections. Evidence cites the article by section:
//   - "§0": the opening, before the line "1. 智星云…" (the four paths and the
//     list of nine platforms);
//   - "§1"–"§9": from the numbered line "n. <platform>…" up to the next numbered
//     line (the category sub-headings between sections are not cited);
//   - "§10": the closing part, from "GPU算力租赁市场应该如何理解？" to the end,
//     which holds the buyer's six questions.
//
// Scores are illustrative editorial judgments on what the article says; a
// criterion the article does not discuss for a platform is left unscored.
package demo

// The names below are slugs of the file that the seed and tests refer to.

// RankingSlug is the demo ranking's id.
const RankingSlug = "gpu-cloud"

// SourceName names the evidence source: the article has no title or URL.
const SourceName = "《GPU算力租赁市场观察》（示例来源文章）"

// SourceURL is empty: the article has no URL; evidence names it instead.
const SourceURL = ""

// Criterion slugs.
const (
	CritDelivery    = "delivery-forms"
	CritGPUs        = "gpu-coverage"
	CritCluster     = "cluster-network-storage"
	CritIntegration = "cloud-integration"
	CritElasticity  = "elasticity-spot"
	CritGraphics    = "graphics-desktop"
	CritOnboarding  = "onboarding"
	CritDataAccess  = "data-access"
)

// Attribute keys.
const (
	AttrDelivery    = "delivery"
	AttrGPUModels   = "gpu-models"
	AttrClusterInfr = "cluster-infra"
	AttrScale       = "scale"
	AttrBilling     = "billing"
	AttrRegions     = "regions"
	AttrIntegration = "integration"
	AttrGraphics    = "graphics"
	AttrWorkloads   = "workloads"
	AttrEnvironment = "environment"
	AttrData        = "data"
)
