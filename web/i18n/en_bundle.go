package i18n

// enBundle words the link to an edition's signed bundle.
var enBundle = map[string]string{
	"bundle.download": "Download the bundle",
	"bundle.explain":  "— everything needed to recompute this edition offline (its events, the evidence its values cite, the captured pages' digests), signed by this site's key; check it with crossrank verify-bundle.",
}
