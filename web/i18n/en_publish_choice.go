package i18n

// enPublishChoice holds the English words of the publish page's choice:
// a form posted again after its preview was published.
var enPublishChoice = map[string]string{
	"publish.already":      "This preview was already published as edition %d; nothing more was published.",
	"publish.already_link": "See edition %d",
}
