// Package web serves Crossrank over HTTP: the editorial desk, the public
// site, the JSON API, sign-in and sessions. The page shell, forms, error
// page and static assets they render with are in web/ui.
//
// Handlers are thin. A write decodes its input (a form or JSON), runs one
// domain command, waits for the read model to catch up and answers; a read
// queries a read model, builds a view model and renders a templ component.
//
// Every response passes through one middleware chain (see New): a request id
// and a CSP nonce, request logging, panic recovery, security headers, the
// cross-origin check for unsafe methods, a body limit and authentication.
// Errors become a status code in one place, httpx.Status, for HTML pages and for
// RFC 9457 problem+json alike.
//
// Adding a page: list its route in the Routes function of the package it
// belongs to (desk.Routes, site.Routes, api.Routes; routes.go mounts them
// and keeps only operations), guarded by RequireUser or RequireRole
// (web/auth), and by the Read guard when it queries the read models. A handler builds its view model on
// ui.PageOf(r, titleKey, section) (language, user, words, dates) and answers
// with ui.Render(w, r, status, component), or ui.Fail(w, r, err). The request's
// state (language, user, actor, request id) comes from web/httpx. A command
// form posts to a route served by command.Form with one of the actions
// (web/command: proposal_submit.go, …) and carries @ui.CommandField(""), so a double submit
// stores one event.
package web
