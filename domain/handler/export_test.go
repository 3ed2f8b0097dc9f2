package handler

// AlwaysChain makes h send every single-event append as a link of its
// chain, a command alone included (chain.go), so a test can hold one in
// flight.
func AlwaysChain(h *Handler) { h.alwaysChain = true }
