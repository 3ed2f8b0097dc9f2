package web

// catalog holds every message a user reads, by key, in English and Chinese.
// Pages add their keys here; the catalog test checks both languages are
// filled for every key.
var catalog = map[string]text{
	// The shell.
	"app.name":         {"Crossrank", "Crossrank"},
	"app.tagline":      {"Evidence-backed rankings, cross-validated by reviewers", "有据可查、经审稿人交叉验证的榜单"},
	"nav.label":        {"Main navigation", "主导航"},
	"nav.skip":         {"Skip to content", "跳到正文"},
	"nav.rankings":     {"Rankings", "榜单"},
	"nav.dashboard":    {"Dashboard", "工作台"},
	"nav.audit":        {"Audit", "审计"},
	"nav.publish":      {"Publish", "发布"},
	"nav.users":        {"Users", "用户"},
	"nav.signin":       {"Sign in", "登录"},
	"nav.signout":      {"Sign out", "退出登录"},
	"nav.signed_in_as": {"Signed in as %s", "当前用户：%s"},
	"lang.label":       {"Language", "语言"},
	"lang.zh":          {"中文", "中文"},
	"lang.en":          {"English", "English"},
	"footer.about": {"Every change is an event on an append-only log; the ranking and its audit trail can be replayed and verified.",
		"每一次修改都是只追加日志中的一条事件；榜单及其审计记录都可以重放和核验。"},
	"footer.api": {"JSON API", "JSON 接口"},

	// Sign-in.
	"login.title":            {"Sign in", "登录"},
	"login.intro":            {"Sign in to the editorial desk.", "登录编辑工作台。"},
	"login.username":         {"Username", "用户名"},
	"login.password":         {"Password", "密码"},
	"login.submit":           {"Sign in", "登录"},
	"login.failed":           {"The username or password is incorrect.", "用户名或密码不正确。"},
	"login.too_many":         {"Too many sign-in attempts. Try again in %s.", "登录尝试次数过多，请在%s后重试。"},
	"login.unavailable":      {"Sign-in is unavailable right now. Try again shortly.", "暂时无法登录，请稍后重试。"},
	"login.signed_out":       {"You are signed out.", "你已退出登录。"},
	"login.already":          {"You are signed in as %s.", "你已登录为 %s。"},
	"login.to_desk":          {"Go to the dashboard", "前往工作台"},
	"duration.minutes.one":   {"%d minute", "%d 分钟"},
	"duration.minutes.other": {"%d minutes", "%d 分钟"},

	// Forms.
	"form.errors":  {"Please correct the marked fields.", "请修改标出的字段。"},
	"form.save":    {"Save", "保存"},
	"form.cancel":  {"Cancel", "取消"},
	"form.confirm": {"Are you sure?", "确定要这样做吗？"},
	"form.sending": {"Sending…", "提交中…"},

	// Roles and statuses.
	"role.editor":            {"Editor", "编辑"},
	"role.reviewer":          {"Reviewer", "审稿人"},
	"role.publisher":         {"Publisher", "发布人"},
	"role.admin":             {"Admin", "管理员"},
	"status.draft":           {"Draft", "草稿"},
	"status.in_review":       {"In review", "审核中"},
	"status.cross_validated": {"Cross-validated", "已交叉验证"},
	"status.published":       {"Published", "已发布"},
	"status.rejected":        {"Rejected", "已驳回"},
	"status.withdrawn":       {"Withdrawn", "已撤回"},
	"count.proposals.one":    {"%d proposal", "%d 条提案"},
	"count.proposals.other":  {"%d proposals", "%d 条提案"},
	"count.evidence.one":     {"%d evidence item", "%d 条证据"},
	"count.evidence.other":   {"%d evidence items", "%d 条证据"},
	"count.approvals.one":    {"%d approval", "%d 票赞成"},
	"count.approvals.other":  {"%d approvals", "%d 票赞成"},

	// Error pages and problem titles, by status.
	"error.400":        {"Bad request", "请求无效"},
	"error.401":        {"Sign-in required", "需要登录"},
	"error.403":        {"Not allowed", "无权操作"},
	"error.404":        {"Not found", "未找到"},
	"error.405":        {"Method not allowed", "不支持该请求方法"},
	"error.409":        {"Conflict", "状态冲突"},
	"error.413":        {"Request too large", "请求过大"},
	"error.415":        {"Unsupported content type", "不支持的内容类型"},
	"error.422":        {"Check your input", "请检查输入"},
	"error.429":        {"Too many requests", "请求过于频繁"},
	"error.500":        {"Something went wrong", "出错了"},
	"error.503":        {"Temporarily unavailable", "暂时不可用"},
	"error.request_id": {"Request ID", "请求编号"},
	"error.home":       {"Back to the start page", "返回首页"},
	"error.signin":     {"Sign in", "登录"},
}
