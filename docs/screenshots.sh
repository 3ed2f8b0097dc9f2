#!/bin/sh
# screenshots.sh regenerates the screenshots of issue 43 (readers see a
# ranking at a glance), before and after, for a person to compare:
#
#   before: the commit just before issue 43's first (4416303's parent,
#           78410c1), whose TestBrowserScreenshots saves the public pages
#           at 412×915 in both languages, light only;
#   after:  this checkout's TestBrowserScreenshots (the same pages at the
#           same size, to compare like for like), TestBrowserGlance (public
#           pages) and TestBrowserDeskGlance (the desk), in both languages,
#           at 1366×900 and 390×844, light and dark.
#
# Run from the repository's root; it needs Go and chromium-headless-shell
# (or chromium). The PNGs are git-ignored (testdata/screenshots/):
#
#   /tmp/crossrank-before/web/site/testdata/screenshots/<page>-<lang>.png
#   web/site/testdata/screenshots/<page>-<lang>.png
#   web/site/testdata/screenshots/glance-<page>-<lang>-<width>-<theme>.png
#   web/desk/testdata/screenshots/desk-glance-<page>-<lang>-<width>-<theme>.png
#
# BEFORE=<dir> puts the old checkout elsewhere; ONLY=before or ONLY=after
# makes one set.
set -eu
before_commit=78410c1fc4ca935dc3171b3aab39361982b28678
before_dir=${BEFORE:-/tmp/crossrank-before}
only=${ONLY:-}

if [ "$only" != after ]; then
	[ -d "$before_dir" ] || git worktree add --detach "$before_dir" "$before_commit"
	# At that commit web/site's tests do not compile: bench_test.go and
	# archive_cache.go both declare countingWriter (4416303 removed the
	# test's copy). The old checkout drops the test's three lines.
	sed -i '/^\/\/ countingWriter counts/,/^func (w \*countingWriter) Write/d' "$before_dir/web/site/bench_test.go"
	# Its Chromium laid pages out beside a 15 px scrollbar that full-page
	# screenshots leave out, cutting off their right edge; both sets are
	# taken with overlay scrollbars, as browsertest now starts Chromium.
	grep -q hide-scrollbars "$before_dir/web/webtest/browsertest/browser.go" ||
		sed -i 's/^\(\t*\)chromedp.DisableGPU,$/&\n\1chromedp.Flag("hide-scrollbars", true),/' "$before_dir/web/webtest/browsertest/browser.go"
	(cd "$before_dir" && CROSSRANK_SCREENSHOTS=1 go test -count=1 -run '^TestBrowserScreenshots$' ./web/site/)
	echo "before: $before_dir/web/site/testdata/screenshots/"
fi
if [ "$only" != before ]; then
	CROSSRANK_SCREENSHOTS=1 go test -count=1 -run '^(TestBrowserScreenshots|TestBrowserGlance)$' ./web/site/
	CROSSRANK_SCREENSHOTS=1 go test -count=1 -run '^TestBrowserDeskGlance$' ./web/desk/
	echo "after: $(pwd)/web/site/testdata/screenshots/ and $(pwd)/web/desk/testdata/screenshots/"
fi
