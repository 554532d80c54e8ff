#!/usr/bin/env bash
# Makes links.tsv beside this script: for every example that `latin convert --to penpa` writes, the link latin
# writes, opened by Penpa+ itself in headless Chromium and written again by Penpa+ (`maketext_solve`, what its
# "Share" button gives for solving). tests/penpa.rs reads Penpa+'s links and solves them to the examples'
# answers. Needs a checkout of Penpa+ (github.com/swaroopg92/penpa-edit; its `docs` folder is the site),
# chromium, python3 and a release build: tests/support/penpa/make-links.sh PENPA_CHECKOUT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
site="$1/docs"
latin="${LATIN:-$root/target/release/latin}"
cp "$here/check.html" "$site/check.html"
python3 -m http.server 8765 --bind 127.0.0.1 --directory "$site" > /dev/null 2>&1 &
server=$!
trap 'kill $server; rm -f "$site/check.html"' EXIT
sleep 1
out="$here/links.tsv"
: > "$out"
cd "$root"
for f in puzzles/*/*.yaml; do
  ours=$("$latin" convert "$f" --to penpa 2>/dev/null) || continue
  query=$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1].split('#',1)[1], safe=''))" "$ours")
  theirs=""
  # Headless Chromium's virtual time now and then ends before Penpa+ has loaded: try again.
  for _ in 1 2 3 4 5 6 7 8; do
    page=$(timeout 90 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=40000 \
      --dump-dom "http://127.0.0.1:8765/check.html?$query" 2>/dev/null || true)
    theirs=$(printf '%s' "$page" | python3 -c '
import html, json, re, sys
m = re.search(r"<pre id=\"out\">(.*)</pre>", sys.stdin.read(), re.S)
d = json.loads(html.unescape(m.group(1))) if m and m.group(1).startswith("{") else {}
print((d.get("again") or "").replace("http://127.0.0.1:8765/index.html", "https://swaroopg92.github.io/penpa-edit/"))
')
    [ -n "$theirs" ] && break
  done
  [ -n "$theirs" ] || { echo "Penpa+ did not open $f" >&2; exit 1; }
  printf '%s\t%s\t%s\n' "$f" "$ours" "$theirs" >> "$out"
done
echo "$(wc -l < "$out") links in $out"
