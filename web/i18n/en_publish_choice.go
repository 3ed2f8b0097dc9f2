package i18n

// enPublishChoice holds the English words of the publish page's choice:
// a form posted again after its preview was published.
var enPublishChoice = map[string]string{
	"publish.already":             "This preview was already published as edition %d; nothing more was published.",
	"publish.already_link":        "See edition %d",
	"publish.choice.all":          "%d chosen: every ready proposal you may publish, but the %d you unticked.",
	"publish.choice.every":        "%d chosen: every ready proposal you may publish.",
	"publish.choice.some":         "%d of %d chosen: the ones ticked, on any page.",
	"publish.choose_across_pages": "Ticks add up across pages: the page buttons below the list keep what you ticked here. Update the preview to see the edition they make.",
	"publish.select_all":          "Choose all %d",
	"publish.select_none":         "Clear the choice",
	"publish.candidate_pages":     "Pages of the proposals ready to publish",
	"publish.pages_after":         "Pages of the preview, below the new ranking",
	// A publish refused because its preview no longer holds names what changed.
	"edition.changed_edition":     "Edition {edition} was published since your preview; check the new preview.",
	"edition.changed_revised":     "Proposal {proposal} was revised since your preview (revision {from} → {to}); check the new preview.",
	"edition.changed_not_ready":   "Proposal {proposal} is no longer cross-validated since your preview; check the new preview.",
	"edition.changed_left":        "Proposal {proposal} is no longer among those to publish since your preview; check the new preview.",
	"edition.changed_joined":      "Proposal {proposal} became ready to publish since your preview; check the new preview.",
	"edition.not_cross_validated": "Proposal {proposal} is not cross-validated.",
	"edition.quorum_lost":         "Proposal {proposal} no longer meets its quorum (a veto, or an approval that no longer counts).",
	// The desk's page of an edition stored while the read models prepare its public page.
	"publish.pending.title":    "Edition being prepared",
	"publish.pending.heading":  "Edition %d is published",
	"publish.pending.status":   "Its public page is being prepared: the read models have applied %d of the %d events it needs. This page refreshes and opens it when it is ready.",
	"publish.pending.size":     "%s, %s, %s.",
	"publish.pending.snapshot": "Snapshot SHA-256:",
	"publish.pending.open":     "Open the public page",
}
