package web

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Domain errors carry English messages for logs; users read these instead,
// in their language. The first entry err matches (errors.Is) wins, so the
// specific errors come before the kinds they wrap.
var errorTexts = []struct {
	err error
	msg text
}{
	{domain.ErrSelfApproval, text{"The author or a reviser of a proposal cannot vote on it.", "提案的作者或修订者不能对其投票。"}},
	{domain.ErrSelfPublish, text{"The author or a reviser of a proposal cannot publish or close it.", "提案的作者或修订者不能发布或驳回它。"}},
	{domain.ErrRoleRequired, text{"Your account does not hold the role this action needs.", "你的账号没有执行此操作所需的角色。"}},
	{domain.ErrNotAuthor, text{"Only the author or a reviser may change this proposal.", "只有作者或修订者可以修改此提案。"}},
	{domain.ErrNotVoter, text{"Only the reviewer who cast this veto can lift it.", "只有投出否决票的审稿人可以撤销它。"}},
	{domain.ErrTokenNotOwn, text{"An API token can only be issued by its own user, from their account page.", "API 令牌只能由其本人在“我的账号”页面签发。"}},
	{domain.ErrSelfGrant, text{"You cannot grant yourself a role; another admin must.", "不能给自己授予角色，须由另一位管理员授予。"}},
	{domain.ErrOwnAdminRole, text{"You cannot revoke your own admin role.", "你不能撤销自己的管理员角色。"}},
	{errOwnPasswordReset, text{"Change your own password on your account page.", "请在“我的账号”页面修改自己的密码。"}},
	{domain.ErrRankingExists, text{"This ranking already exists.", "该榜单已存在。"}},
	{domain.ErrRankingMissing, text{"There is no such ranking.", "没有这个榜单。"}},
	{domain.ErrEntryExists, text{"This entry already exists.", "该条目已存在。"}},
	{domain.ErrEntryMissing, text{"There is no such entry.", "没有这个条目。"}},
	{domain.ErrProposalMissing, text{"There is no such proposal.", "没有这个提案。"}},
	{domain.ErrProposalExists, text{"This proposal already exists.", "该提案已存在。"}},
	{domain.ErrNotDraft, text{"The proposal is not a draft; revise it first.", "提案不是草稿，请先修订。"}},
	{domain.ErrNotInReview, text{"The proposal is not in review.", "提案不在审核中。"}},
	{domain.ErrNotCrossValidated, text{"The proposal is not cross-validated.", "提案尚未通过交叉验证。"}},
	{domain.ErrClosed, text{"The proposal is closed.", "提案已关闭。"}},
	{domain.ErrStaleRevision, text{"The proposal has a newer revision; reload the page.", "提案已有更新的修订版本，请刷新页面。"}},
	{domain.ErrStaleBaseline, text{"A value this proposal changes was published since; revise the proposal.", "此提案修改的数值在此期间已发布了新值，请修订提案。"}},
	{domain.ErrPreviewChanged, text{"The edition changed since your preview; check the new preview.", "预览之后版本内容有变化，请查看新的预览。"}},
	{domain.ErrNoVeto, text{"There is no open veto by this reviewer.", "该审稿人没有未撤销的否决票。"}},
	{domain.ErrNothingToSubmit, text{"The proposal has no change to review yet.", "提案还没有可供审核的修改。"}},
	{domain.ErrUncitedChange, text{"Every change must cite at least one evidence item of this revision.", "每项修改都必须引用本次修订中的至少一条证据。"}},
	{domain.ErrUnknownEvidence, text{"There is no such evidence item in this revision.", "本次修订中没有这条证据。"}},
	{domain.ErrNothingToPublish, text{"Choose at least one cross-validated proposal.", "请至少选择一条已交叉验证的提案。"}},
	{domain.ErrDuplicateTarget, text{"Two chosen proposals change the same value.", "所选的两条提案修改了同一个数值。"}},
	{domain.ErrUserExists, text{"This user already exists.", "该用户已存在。"}},
	{domain.ErrUserMissing, text{"There is no such user.", "没有这个用户。"}},
	{domain.ErrTokenMissing, text{"There is no such token.", "没有这个令牌。"}},
	{domain.ErrHasRole, text{"The user already holds this role.", "该用户已拥有此角色。"}},
	{domain.ErrLacksRole, text{"The user does not hold this role.", "该用户没有此角色。"}},
	{events.ErrConflict, text{"Someone changed this at the same time. Reload the page and try again.", "有人同时修改了此内容，请刷新页面后重试。"}},
	{events.ErrUnavailable, text{"The event store is unavailable right now; the change may not have been saved. Send the same request again shortly (same form or Idempotency-Key): it is never applied twice.", "事件存储暂时不可用，本次修改可能未保存。请稍后原样重新提交（同一表单或同一 Idempotency-Key），不会重复生效。"}},
	{events.ErrTooLarge, text{"This change is too large to store.", "此次修改过大，无法保存。"}},
	{errBadCredentials, text{"The username or password is incorrect.", "用户名或密码不正确。"}},
	{errUnauthenticated, text{"Sign in to continue.", "请先登录。"}},
	{errCrossOrigin, text{"This request came from another site and was refused.", "该请求来自其他网站，已被拒绝。"}},
	{errNoRoute, text{"There is no page at this address.", "此地址没有页面。"}},
	{errMethod, text{"This address does not accept this request method.", "此地址不接受该请求方法。"}},
	{errNotJSON, text{"The API accepts only application/json: send the request body as JSON.", "API 只接受 application/json：请以 JSON 格式发送请求内容。"}},
	{errNotForm, text{"This address accepts only a form (application/x-www-form-urlencoded).", "此地址只接受表单（application/x-www-form-urlencoded）。"}},
	{errMediaType, text{"This content type is not accepted here.", "此处不接受该内容类型。"}},
	{errTooMany, text{"Too many attempts. Wait a little and try again.", "尝试次数过多，请稍后再试。"}},
	{errMalformed, text{"The request could not be read.", "无法解析该请求。"}},
	// The kinds, for errors without a text of their own.
	{domain.ErrForbidden, text{"You are not allowed to do this.", "你无权执行此操作。"}},
	{domain.ErrNotFound, text{"Not found.", "未找到。"}},
	{domain.ErrState, text{"This is not possible in the current state.", "当前状态下无法执行此操作。"}},
	{domain.ErrInvalid, text{"Check your input.", "请检查输入。"}},
}

// messageOf returns the message a user reads for err, in lang. It never
// shows the text of an unexpected error, which may hold internals.
func messageOf(lang string, err error) string {
	var fe *domain.FieldError
	if errors.As(err, &fe) {
		return fieldMessage(lang, fe.Field, fe.Msg)
	}
	var bf *badField
	if errors.As(err, &bf) {
		return fieldMessage(lang, bf.Field, bf.Msg)
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return text{"The request is larger than the limit of 1 MiB.", "请求超过了 1 MiB 的上限。"}.in(lang)
	}
	if m, ok := stateText(err); ok {
		return m.in(lang)
	}
	for _, et := range errorTexts {
		if errors.Is(err, et.err) {
			return et.msg.in(lang)
		}
	}
	return text{"Something went wrong on our side; it has been logged. Try again later.", "服务器出错了，已记录日志，请稍后重试。"}.in(lang)
}

// stateText translates the state errors the domain raises with an inline
// message rather than a sentinel.
func stateText(err error) (text, bool) {
	if !errors.Is(err, domain.ErrState) {
		return text{}, false
	}
	for _, m := range []struct {
		suffix string
		msg    text
	}{
		{"only a draft or a proposal in review can be withdrawn", text{"Only a draft or a proposal in review can be withdrawn.", "只有草稿或审核中的提案可以撤回。"}},
		{"the proposal is already a draft", text{"The proposal is already a draft.", "提案已经是草稿。"}},
	} {
		if strings.HasSuffix(err.Error(), m.suffix) {
			return m.msg, true
		}
	}
	return text{}, false
}

// fieldProblem is one field's message, for forms and problem+json.
type fieldProblem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// fieldProblemsOf lists the field errors in err (the domain reports one at a time).
func fieldProblemsOf(lang string, err error) []fieldProblem {
	var fe *domain.FieldError
	if errors.As(err, &fe) {
		return []fieldProblem{{fe.Field, fieldMessage(lang, fe.Field, fe.Msg)}}
	}
	var bf *badField
	if errors.As(err, &bf) {
		return []fieldProblem{{bf.Field, fieldMessage(lang, bf.Field, bf.Msg)}}
	}
	return nil
}

// fieldMessage puts a field error into words: "Title is required." /
// "标题为必填项。" Most domain messages are predicates that follow the
// field's name; a message that is a sentence of its own ("give a source URL
// or name the source") follows the name after a colon instead, in both
// languages: "Source URL: give a source URL or name the source." A message
// without a translation keeps its English words.
func fieldMessage(lang, field, msg string) string {
	label := fieldLabel(lang, field)
	p, m := matchFieldPattern(msg)
	if lang == langZh {
		if p == nil {
			return label + "：" + msg
		}
		zh := string(p.re.ExpandString(nil, p.zh, msg, m))
		if p.sentence {
			return label + "：" + zh + "。"
		}
		return label + zh + "。"
	}
	if p != nil && p.sentence {
		return upperFirst(label) + ": " + msg + "."
	}
	return upperFirst(label) + " " + msg + "."
}

// matchFieldPattern returns the pattern msg matches and the submatch
// indexes, or nil.
func matchFieldPattern(msg string) (*fieldPattern, []int) {
	for i := range fieldPatterns {
		if m := fieldPatterns[i].re.FindStringSubmatchIndex(msg); m != nil {
			return &fieldPatterns[i], m
		}
	}
	return nil, nil
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// fieldLabel names a field ("name.zh" → "name (Chinese)" / "名称（中文）").
func fieldLabel(lang, field string) string {
	base, sub, _ := strings.Cut(field, ".")
	l, ok := fieldLabels[base]
	if !ok {
		l = text{base, base}
	}
	out := l.in(lang)
	if sub == "zh" || sub == "en" {
		if lang == langZh {
			out += map[string]string{"zh": "（中文）", "en": "（英文）"}[sub]
		} else {
			out += map[string]string{"zh": " (Chinese)", "en": " (English)"}[sub]
		}
	}
	return out
}

var fieldLabels = map[string]text{
	"id": {"id", "编号"}, "ranking": {"ranking", "榜单"}, "entry": {"entry", "条目"},
	"proposal": {"proposal", "提案"}, "proposals": {"proposals", "提案"},
	"title": {"title", "标题"}, "summary": {"summary", "摘要"}, "name": {"name", "名称"},
	"category": {"category", "类别"}, "website": {"website", "网站"}, "description": {"description", "简介"},
	"claim": {"claim", "论断"}, "source_url": {"source URL", "来源网址"}, "source_name": {"source name", "来源名称"},
	"section": {"section", "章节"}, "excerpt": {"excerpt", "摘录"}, "observed_on": {"observed on", "观察日期"},
	"valid_for_days": {"valid for (days)", "有效天数"}, "evidence": {"evidence", "证据"},
	"criterion": {"criterion", "评分项"}, "attribute": {"attribute", "属性"}, "to": {"new value", "新值"},
	"rationale": {"rationale", "理由"}, "target": {"change", "修改项"}, "verdict": {"verdict", "结论"},
	"revision": {"revision", "修订版本"}, "verified_evidence": {"verified evidence", "已核实的证据"},
	"comment": {"comment", "意见"}, "reason": {"reason", "原因"}, "note": {"note", "说明"},
	"voter": {"reviewer", "审稿人"}, "preview_hash": {"preview", "预览"}, "audit_head": {"audit head", "审计链头"},
	"username": {"username", "用户名"}, "password": {"password", "密码"}, "new_password": {"new password", "新密码"}, "display_name": {"display name", "显示名称"},
	"roles": {"roles", "角色"}, "role": {"role", "角色"}, "token": {"token", "令牌"}, "hash": {"hash", "哈希"},
	"slug": {"slug", "标识"}, "new_entry": {"new entry", "新条目"}, "body": {"request body", "请求内容"},
	"criteria": {"criteria", "评分项"}, "categories": {"categories", "类别"}, "weights": {"weights", "权重"},
}

// fieldPattern translates one of the domain's field messages into Chinese.
type fieldPattern struct {
	re *regexp.Regexp
	zh string
	// sentence marks a message that does not read as a predicate of the
	// field's name; it follows the name after a colon.
	sentence bool
}

// fieldPatterns translate the domain's field messages into Chinese; the
// message follows the field label ("标题" + "为必填项"). Messages listed in
// fieldSentences are sentences of their own.
var fieldPatterns = func() []fieldPattern {
	pairs := [][2]string{
		{`^is not valid UTF-8$`, "不是有效的 UTF-8 文本"},
		{`^is required$`, "为必填项"},
		{`^is required in at least one language$`, "至少需要填写一种语言"},
		{`^is (\d+) characters long; the limit is (\d+)$`, "有 $1 个字符，上限为 $2 个"},
		{`^contains a control character$`, "含有控制字符"},
		{`^contains an invisible formatting character \(a bidirectional control or a zero-width character\)$`, "含有不可见的格式字符（双向控制符或零宽字符）"},
		{`^must be an http or https URL$`, "必须是 http 或 https 网址"},
		{`^contains characters not allowed in a URL$`, "含有网址中不允许的字符"},
		{`^must be 1–60 lowercase letters, digits or hyphens$`, "须为 1–60 个小写字母、数字或连字符"},
		{`^must be a date like 2026-01-31$`, "须为日期，例如 2026-01-31"},
		{`^must be an integer from (\d+) to (\d+)$`, "须为 $1 到 $2 之间的整数"},
		{`^has (\d+) tags; the limit is (\d+)$`, "有 $1 个标签，上限为 $2 个"},
		{`^repeats "(.*)"$`, "重复了“$1”"},
		{`^names unknown criterion "(.*)"$`, "包含未知评分项“$1”"},
		{`^names unknown attribute "(.*)"$`, "包含未知属性“$1”"},
		{`^weight of "(.*)" must be 0–100$`, "“$1”的权重须在 0–100 之间"},
		{`^weights sum to (\d+); they must sum to 100$`, "权重合计为 $1，须合计为 100"},
		{`^is not a category of this ranking$`, "不是该榜单的类别"},
		{`^is not a criterion of this ranking$`, "不是该榜单的评分项"},
		{`^is not an attribute of this ranking$`, "不是该榜单的属性"},
		{`^"(.*)" is not a value of (.*)$`, "中的“$1”不是 $2 的可选值"},
		{`^cites (\S+) twice$`, "重复引用了 $1"},
		{`^a reject needs a reason$`, "否决需要写明理由"},
		{`^(\S+) is cited by the change (\S+); remove that first$`, "$1 被修改项 $2 引用，请先删除该修改项"},
		{`^a revision holds at most (\d+) evidence items$`, "每个修订版本最多包含 $1 条证据"},
		{`^unknown role "(.*)"$`, "“$1”不是已知角色"},
		{`^(\S+) belongs to another ranking$`, "$1 属于另一个榜单"},
		{`^lists a proposal twice$`, "重复列出了同一提案"},
		{`^invalid proposal id, ranking or entry slug$`, "编号、榜单或条目标识无效"},
		{`^is not a valid slug$`, "不是有效的标识"},
		{`^is not a valid proposal id$`, "不是有效的提案编号"},
		{`^need 1–(\d+) categories$`, "须有 1–$1 个类别"},
		{`^need 1–(\d+) criteria$`, "须有 1–$1 个评分项"},
		{`^must be 1–10$`, "须在 1–10 之间"},
		{`^must be 2–32 lowercase letters, digits, _ or -, starting with a letter$`, "须为 2–32 个小写字母、数字、_ 或 -，并以字母开头"},
		{`^must be a hex SHA-256$`, "须为十六进制 SHA-256 值"},
		{`^must be stored as an argon2id hash$`, "须以 argon2id 哈希保存"},
		{`^give a source URL or name the source$`, "请填写来源网址或来源名称"},
		{`^the proposal has no change "(.*)"$`, "提案中没有修改项“$1”"},
		{`^invalid token id or too many tokens$`, "编号无效或令牌过多"},
		{`^must be 0 \(does not expire\) to 3650 days$`, "须为 0（不过期）到 3650 天"},
		{`^must be approve or reject$`, "须为赞成或否决"},
		{`^must be a whole number$`, "须为整数"},
		{`^must be a number$`, "须为数字"},
		{`^must be a list$`, "须为列表"},
		{`^must be an object$`, "须为对象"},
		{`^must be text$`, "须为文本"},
		{`^must be true or false$`, "须为 true 或 false"},
		{`^has the wrong type$`, "类型不正确"},
		{`^is not a field of this request$`, "不是此请求的字段"},
		{`^give a criterion or an attribute, not both$`, "请填写评分项或属性之一，不能同时填写"},
		{`^must be a UUID or up to 255 printable ASCII characters$`, "须为 UUID 或不超过 255 个可打印 ASCII 字符"},
		{`^differs from the Idempotency-Key header$`, "与 Idempotency-Key 请求头不一致"},
	}
	out := make([]fieldPattern, len(pairs))
	for i, p := range pairs {
		out[i] = fieldPattern{re: regexp.MustCompile(p[0]), zh: p[1], sentence: fieldSentences[p[0]]}
	}
	return out
}()

// fieldSentences lists the patterns of messages that are sentences of their
// own rather than predicates of the field's name.
var fieldSentences = map[string]bool{
	`^a reject needs a reason$`:                               true,
	`^(\S+) is cited by the change (\S+); remove that first$`: true,
	`^a revision holds at most (\d+) evidence items$`:         true,
	`^(\S+) belongs to another ranking$`:                      true,
	`^invalid proposal id, ranking or entry slug$`:            true,
	`^give a source URL or name the source$`:                  true,
	`^the proposal has no change "(.*)"$`:                     true,
	`^invalid token id or too many tokens$`:                   true,
	`^give a criterion or an attribute, not both$`:            true,
	`^weight of "(.*)" must be 0–100$`:                        true,
	`^weights sum to (\d+); they must sum to 100$`:            true,
}
