package i18n

// zhPublishChoice holds the Chinese words of the publish page's choice:
// a form posted again after its preview was published.
var zhPublishChoice = map[string]string{
	"publish.already":      "此预览已作为第 %d 期发布，未再发布任何内容。",
	"publish.already_link": "查看第 %d 期",
}
