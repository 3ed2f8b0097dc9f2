package i18n

// enPublishChoice holds the English words of the publish page's choice:
// a form posted again after its preview was published.
var enPublishChoice = map[string]string{
	"publish.already":             "This preview was already published as edition %d; nothing more was published.",
	"publish.already_link":        "See edition %d",
	"publish.choice.all":          "%d chosen: every ready proposal you may publish, but the %d you unticked.",
	"publish.choice.some":         "%d of %d chosen: the ones ticked, on any page.",
	"publish.choose_across_pages": "Ticks add up across pages: the page buttons below the list keep what you ticked here. Update the preview to see the edition they make.",
	"publish.select_all":          "Choose all %d",
	"publish.select_none":         "Clear the choice",
	"publish.candidate_pages":     "Pages of the proposals ready to publish",
	"publish.pages_after":         "Pages of the preview, below the new ranking",
}
