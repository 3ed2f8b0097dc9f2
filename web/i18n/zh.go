package i18n

// zhParts are the Simplified Chinese (简体中文) catalog's parts, one file
// each (zh_<topic>.go), every part with its twin in enParts. The catalog
// test checks that zh has exactly the keys of en and that no key is in
// two parts.
var zhParts = []map[string]string{
	zhShell, zhProposals, zhAuditUsers, zhSite, zhErrors, zhMethodology, zhProvenance, zhWorkflow,
	zhCaptures,
	zhQuorum,
	zhReview,
	zhAccounts,
	zhPaging,
	zhEditionSize,
	zhEditionPage,
	zhImport,
	zhUsersAPI,
	zhPublishChoice,
	zhLists,
	zhAudit,
	zhTiers,
	zhGlance,
	zhChanges,
	zhFormats,
	zhBundle,
	zhVerify,
	zhVerifyDetail,
	zhReports,
	zhWacz,
	zhOIDC,
	zhPreview,
	zhMail,
	zhVendor,
	zhNudge,
	zhChat,
	zhInboxItems,
	zhCaptureProgress,
	zhBilingual,
}

// zh is every message in Simplified Chinese (简体中文), by key.
var zh = join(zhParts...)
