package i18n

// enParts are the English catalog's parts, one file each (en_<topic>.go),
// every part with its twin in zhParts. A new part is one line here and
// one in zh.go; the catalog test checks that en has exactly the keys of
// zh and that no key is in two parts.
var enParts = []map[string]string{
	enShell, enProposals, enAuditUsers, enSite, enErrors, enMethodology, enProvenance, enWorkflow,
	enCaptures,
	enQuorum,
	enReview,
	enAccounts,
	enPaging,
	enEditionSize,
	enEditionPage,
	enImport,
	enUsersAPI,
	enPublishChoice,
	enLists,
	enAudit,
	enTiers,
	enGlance,
	enChanges,
	enFormats,
	enBundle,
	enVerify,
	enVerifyDetail,
	enReports,
	enWacz,
	enOIDC,
	enPreview,
	enMail,
	enVendor,
	enNudge,
	enChat,
	enInboxItems,
	enCaptureProgress,
	enBilingual,
}

// en is every message in English, by key.
var en = join(enParts...)
