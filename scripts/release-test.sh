#!/usr/bin/env bash
# Tests ./gw release on a temporary clone of this repository, never on the repository itself: the refusals (a
# malformed version, another branch, a dirty tree, an existing tag, a version before the latest), then a release:
# the tag's poms and changelog, and main moved on to the next development version. A few seconds.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "release-test: FAILED: $*" >&2; exit 1; }
export GIT_AUTHOR_NAME=release-test GIT_AUTHOR_EMAIL=release-test@localhost
export GIT_COMMITTER_NAME=release-test GIT_COMMITTER_EMAIL=release-test@localhost
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

git clone -q --no-local "$ROOT" "$TMP/repo"
cd "$TMP/repo"
git checkout -q -B main
# the script under test is this checkout's, even uncommitted
cp "$ROOT/scripts/release.sh" scripts/release.sh
cp "$ROOT/gw" gw
git add -A && { git diff --cached --quiet || git commit -qm "release.sh under test"; }
git tag -l | xargs -r git tag -d >/dev/null
# a version of its own, so that the test holds whatever the checkout's is
sed -i '0,/<version>[^<]*<\/version>/s##<version>4.1.0-SNAPSHOT</version>#' pom.xml vendor-sim/pom.xml gateway/pom.xml bench/pom.xml
git commit -qam "4.1.0-SNAPSHOT"
git tag -a v4.0.0 -m old HEAD~1
before=$(git rev-parse HEAD)
chart=deploy/helm/model-gateway/Chart.yaml
chart_before=$(sed -n 's/^version: //p' "$chart")

refused() { # expected message, then the release's arguments
  local expected="$1" out; shift
  if out=$(./gw release "$@" 2>&1); then fail "'release $*' succeeded; expected a refusal: $expected"; fi
  grep -qF "$expected" <<<"$out" || fail "'release $*' said '$out', not '$expected'"
}
refused "is not a release version" 4.1
refused "is not a release version" 4.1.0-rc1
refused "usage" 
refused "is not after the latest release, 4.0.0" 3.9.9
git checkout -q -b feature && refused "releases are made on main, not on 'feature'" 4.1.0 && git checkout -q main
echo "dirty" >>README.md && refused "the working tree is not clean" 4.1.0 && git checkout -q README.md
git tag v4.1.0 && refused "tag v4.1.0 exists already" 4.1.0 && git tag -d v4.1.0 >/dev/null
[ "$(git rev-parse HEAD)" = "$before" ] && [ -z "$(git status --porcelain)" ] || fail "a refusal changed the repository"

out=$(./gw release 4.1.0) || fail "the release failed: $out"
today=$(date -u +%F)
for pom in pom.xml vendor-sim/pom.xml gateway/pom.xml bench/pom.xml; do
  git show "v4.1.0:$pom" | grep -q "<version>4.1.0</version>" || fail "v4.1.0's $pom is not at 4.1.0"
  grep -q "<version>4.2.0-SNAPSHOT</version>" "$pom" || fail "main's $pom is not at 4.2.0-SNAPSHOT"
  ! grep -q "4.1.0-SNAPSHOT" "$pom" || fail "$pom still names 4.1.0-SNAPSHOT"
done
# dependencies keep their own versions: only the project's line changed
[ "$(git diff HEAD~2 HEAD~1 -- gateway/pom.xml | grep -c '^[-+] ')" = 2 ] || fail "the release changed more than one line of gateway/pom.xml"
git show "v4.1.0:$chart" | grep -qx 'version: 4.1.0' && git show "v4.1.0:$chart" | grep -qx 'appVersion: "4.1.0"' \
  || fail "v4.1.0's chart is not at 4.1.0"
grep -qx 'version: 4.2.0' "$chart" && grep -qx 'appVersion: "4.2.0"' "$chart" || fail "main's chart is not at 4.2.0"
git show v4.1.0:deploy/kustomize/base/ha/deployment.yaml | grep -q 'image: "model-gateway:4.1.0"' \
  || fail "v4.1.0's kustomize base does not run image 4.1.0"
! grep -rqF -e "\"$chart_before\"" -e "model-gateway:$chart_before" deploy/kustomize/base || fail "main's kustomize bases still name the old chart version"
git show v4.1.0:CHANGELOG.md | grep -qx "## \[4.1.0\] - $today" || fail "the changelog's release heading is missing"
[ "$(git show v4.1.0:CHANGELOG.md | grep -n '^## \[' | head -n2 | cut -d: -f2 | tr '\n' '|')" = "## [Unreleased]|## [4.1.0] - $today|" ] \
  || fail "the changelog does not open with an empty Unreleased section above the release"
[ "$(git cat-file -t v4.1.0)" = tag ] || fail "v4.1.0 is not an annotated tag"
[ "$(git log -1 --format=%s v4.1.0)" = "Release 4.1.0" ] || fail "the tag is not on the release commit"
[ "$(git log -1 --format=%s)" = "Start 4.2.0-SNAPSHOT" ] || fail "main did not move to the next version"
[ -z "$(git status --porcelain)" ] || fail "the release left the tree dirty"
refused "tag v4.1.0 exists already" 4.1.0
echo "release-test: passed"
