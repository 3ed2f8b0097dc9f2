package i18n

// zhVerify words the page that checks an edition's bundle in the browser.
var zhVerify = map[string]string{
	"verify.link":             "校验本期",
	"verify.link_explain":     "——在你的浏览器中进行，不依赖本站代码：核对签名与每个摘要，并由事件重算排名。",
	"verify.title":            "校验第 %d 期",
	"verify.intro":            "本页下载本期的数据包和本站的签名密钥，由一段独立于服务器代码的脚本在你的浏览器中校验：Ed25519 签名、每个文件的 SHA-256、每条事件的存储字节，然后由事件重算每一期的排名（总分、名次、场景），并与该期公布的哈希比对。",
	"verify.needs_script":     "校验在浏览器中运行，需要 JavaScript；若无，请下载数据包并运行 crossrank verify-bundle。",
	"verify.running":          "校验中……",
	"verify.pass":             "全部校验通过：这些事件算出的正是本期。",
	"verify.fail":             "有校验未通过：此数据包算不出它声称的那一期。",
	"verify.error":            "无法下载数据包或密钥：",
	"verify.check.manifest":   "清单说明数据包是什么",
	"verify.check.signature":  "由本站密钥签名",
	"verify.check.files":      "每个文件与其摘要一致",
	"verify.check.events":     "事件完整、有序、保持存储原样",
	"verify.check.snapshot":   "由事件重算的排名",
	"verify.check.evidence":   "引用的每条证据都在",
	"verify.check.captures":   "存档网页的摘要",
	"verify.proves_title":     "它证明什么",
	"verify.proves":           "本站密钥的持有者为这些事件作保，且这些事件按公开的算法（docs/edition-bundle.md）算出本期排名的每个分数、总分和名次。",
	"verify.not_proves_title": "它不证明什么",
	"verify.not_proves":       "它信任密钥：密钥来自同一网站，请与你从别处得到的副本比对。它不证明数据包含有本站存储过的全部事件（草稿、投票和审计链留在服务器上），也不证明证据支持分数：请阅读存档网页。",
	"verify.key":              "本站签名密钥",
}
