package i18n

// zhOIDC holds the Chinese words of signing in through the organisation's
// OpenID Provider.
var zhOIDC = map[string]string{
	"oidc.button":                    "通过 %s 登录",
	"oidc.welcome_intro":             "也可以通过 %s 登录：你在这里的账户将与你在那里的账户绑定，此后即用它登录。",
	"oidc.refused_title":             "未登录",
	"oidc.back":                      "返回登录页",
	"oidc.off":                       "本服务器未配置通过身份提供方登录。",
	"oidc.unavailable":               "目前无法连接 %s，暂时无法通过它登录。请稍后再试。",
	"oidc.flow_invalid":              "此次登录不是在本浏览器中发起的、已经用过，或耗时过长。请从登录页重新开始。",
	"oidc.provider_refused":          "%s 未让你登录。请从登录页重新开始。",
	"oidc.token_invalid":             "无法验证来自 %s 的应答，因此没有人登录。请重新开始；如果再次出现，请告知管理员。",
	"oidc.unknown":                   "你已在 %s 登录，但这里没有属于你的账户。请向管理员索取邀请，然后从邀请链接登录。",
	"oidc.taken":                     "你在 %s 的账户已绑定到这里的另一个账户。请联系管理员。",
	"login.passwords_off":            "本服务器已关闭密码登录。请通过 %s 登录。",
	"audit.via.oidc":                 "通过 %s（OpenID Connect）",
	"audit.msg.identity_bound":       "通过在 {issuer} 登录接受了邀请",
	"audit.type.user.identity_bound": "在一次性链接上通过身份提供方登录",
}
