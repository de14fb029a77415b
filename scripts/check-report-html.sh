#!/bin/sh
# Checks a report.html written by `kir report` (report/render) in headless Chromium:
#  1. --dump-dom: the page's script finished (body data-rendered="ok") and recorded no error
#     (<pre id="kir-errors"> is empty);
#  2. the browser's console log (--enable-logging=stderr) reports no console error and no uncaught
#     exception;
#  3. --screenshot: saves a 1400x2000 PNG of the page to SCREENSHOT.png.
# Usage: scripts/check-report-html.sh REPORT.html SCREENSHOT.png
# Exit: 0 ok; 1 a check failed (the message names it); 2 usage; 77 chromium is not installed (skip).
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 REPORT.html SCREENSHOT.png" >&2
  exit 2
fi
html=$1
png=$2
chromium=${CHROMIUM:-/usr/bin/chromium}

if [ ! -x "$chromium" ]; then
  echo "check-report-html: SKIP: $chromium not found (install the Debian package chromium)" >&2
  exit 77
fi
if [ ! -r "$html" ]; then
  echo "check-report-html: cannot read $html" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kir-check-html.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

case $html in
  /*) url="file://$html" ;;
  *) url="file://$(pwd)/$html" ;;
esac

fail() {
  echo "check-report-html: FAIL: $*" >&2
  exit 1
}

# Runs chromium with a fresh profile, a time limit and the common flags; stdout/stderr to files.
run_chromium() {
  name=$1
  shift
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
    --disable-extensions --disable-background-networking --disable-component-update --disable-sync \
    --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/profile-$name" \
    --enable-logging=stderr --v=0 "$@" "$url" >"$work/$name.out" 2>"$work/$name.err"
  status=$?
  if [ $status -eq 124 ]; then
    fail "chromium ($name) did not finish within 60 s"
  fi
  return $status
}

# Console messages as Chromium logs them with --enable-logging=stderr:
#   [pid:tid:time:INFO:CONSOLE:LINE] "Uncaught ReferenceError: ...", source: file:///... (LINE)
# The level of a console call is not in the line (console.error and console.log look alike), and
# report.html's script writes nothing to the console, so every CONSOLE line is an error report.
console_errors() {
  grep -E ':CONSOLE[:(]' "$1" || true
}

# 1. The DOM after the page's script ran.
run_chromium dom --dump-dom --virtual-time-budget=5000 || {
  sed -n '1,20p' "$work/dom.err" >&2
  fail "chromium --dump-dom exited with status $status"
}
dom="$work/dom.out"
[ -s "$dom" ] || fail "chromium printed no DOM for $html"
grep -q 'data-rendered="ok"' "$dom" ||
  fail "the page's script did not finish: <body> has no data-rendered=\"ok\" (a script error?)"
grep -q '<pre id="kir-errors"' "$dom" || fail "the page has no <pre id=\"kir-errors\"> element"
errors=$(sed -n 's/.*<pre id="kir-errors"[^>]*>\(.*\)<\/pre>.*/\1/p' "$dom")
if [ -z "$errors" ] && ! grep -q '<pre id="kir-errors"[^>]*></pre>' "$dom"; then
  errors=$(sed -n '/<pre id="kir-errors"/,/<\/pre>/p' "$dom" | head -20)
fi
[ -z "$errors" ] || fail "#kir-errors is not empty: $errors"
found=$(console_errors "$work/dom.err")
[ -z "$found" ] || fail "console errors while rendering:
$found"

# 2. The screenshot (the console is checked again: this run lays the page out at full size).
rm -f "$png"
run_chromium shot --screenshot="$png" --window-size=1400,2000 || {
  sed -n '1,20p' "$work/shot.err" >&2
  fail "chromium --screenshot exited with status $status"
}
[ -s "$png" ] || fail "chromium wrote no screenshot to $png"
found=$(console_errors "$work/shot.err")
[ -z "$found" ] || fail "console errors while taking the screenshot:
$found"

echo "check-report-html: ok: $html (screenshot $png)"
exit 0
