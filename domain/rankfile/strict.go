package rankfile

import "github.com/crossrank/crossrank/domain/strictjson"

// StrictError refuses a ranking file with a duplicate key or a lone
// surrogate escape; Path names where ("entries[2].slug"). Decode wraps it
// ("ranking file: …"), so errors.As finds it.
type StrictError = strictjson.Error
