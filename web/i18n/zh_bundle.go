package i18n

// zhBundle words the link to an edition's signed bundle.
var zhBundle = map[string]string{
	"bundle.download": "下载数据包",
	"bundle.explain":  "——离线重算本期所需的一切（事件、各项数值引用的证据、存档网页的摘要），由本站密钥签名；可用 crossrank verify-bundle 校验。",
}
