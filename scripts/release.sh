#!/usr/bin/env bash
# ./gw release X.Y.Z: makes release X.Y.Z of the checkout it runs in (docs/release.md). On main with a clean tree, a
# changelog with an Unreleased section and no tag vX.Y.Z yet: sets the version of every pom to X.Y.Z, turns the
# changelog's Unreleased section into "[X.Y.Z] - <today, UTC>" under a new empty Unreleased, commits "Release X.Y.Z",
# tags it vX.Y.Z (annotated), then sets the next development version X.(Y+1).0-SNAPSHOT and commits that. The Helm
# chart's version and appVersion follow (X.Y.Z, then X.(Y+1).0), in the chart and the kustomize bases made from it. Nothing is
# pushed: it prints the push and the dist to run. Tested on a temporary clone by scripts/release-test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
die() { echo "release: $*" >&2; exit 1; }

[ $# = 1 ] || die "usage: ./gw release X.Y.Z"
VERSION="$1"
[[ "$VERSION" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || die "'$VERSION' is not a release version X.Y.Z (semver.org, without a pre-release or build suffix)"
MAJOR=${BASH_REMATCH[1]} MINOR=${BASH_REMATCH[2]}
NEXT="$MAJOR.$((MINOR + 1)).0-SNAPSHOT"
TAG="v$VERSION"
POMS=(pom.xml vendor-sim/pom.xml gateway/pom.xml bench/pom.xml)
CHART=deploy/helm/model-gateway/Chart.yaml

branch=$(git symbolic-ref --quiet --short HEAD || true)
[ "$branch" = main ] || die "releases are made on main, not on '${branch:-a detached HEAD}'"
[ -z "$(git status --porcelain)" ] || die "the working tree is not clean (git status): commit or stash first"
! git rev-parse --quiet --verify "refs/tags/$TAG" >/dev/null || die "tag $TAG exists already"
grep -q '^## \[Unreleased\]$' CHANGELOG.md || die "CHANGELOG.md has no '## [Unreleased]' section"
# the project's own version: the first <version> of the root pom (a module's first is its parent's, the same)
CURRENT=$(sed -n 's#^  <version>\(.*\)</version>$#\1#p' pom.xml | head -n1)
[ -n "$CURRENT" ] || die "no project version found in pom.xml"
latest=$(git tag --list 'v[0-9]*.[0-9]*.[0-9]*' | sed 's/^v//' | sort -V | tail -n1)
if [ -n "$latest" ] && [ "$(printf '%s\n%s\n' "$latest" "$VERSION" | sort -V | tail -n1)" != "$VERSION" ]; then
  die "$VERSION is not after the latest release, $latest"
fi

set_version() {
  local pom
  for pom in "${POMS[@]}"; do
    # the first <version> only: the project's (root) or its parent's (modules); dependencies keep theirs
    sed -i "0,/<version>$(sed 's/[.]/\\./g' <<<"$CURRENT")<\/version>/s##<version>$1</version>#" "$pom"
    grep -q "<version>$1</version>" "$pom" || die "$pom: version $CURRENT not found"
  done
  CURRENT="$1"
}

# the chart is versioned as the release it is or will be (no -SNAPSHOT: Helm wants SemVer 2 without a build suffix);
# the kustomize bases carry it in a label and the image tag (KustomizeBasesTest checks them against the chart)
set_chart() {
  local old
  old=$(sed -n 's/^version: //p' "$CHART")
  sed -i "s/^version: .*/version: $1/; s/^appVersion: .*/appVersion: \"$1\"/" "$CHART"
  sed -i "s#app.kubernetes.io/version: \"$old\"#app.kubernetes.io/version: \"$1\"#; s#image: \"model-gateway:$old\"#image: \"model-gateway:$1\"#" \
    deploy/kustomize/base/*/*.yaml
}

set_version "$VERSION"
set_chart "$VERSION"
today=$(date -u +%F)
sed -i "s/^## \[Unreleased\]$/## [Unreleased]\n\n## [$VERSION] - $today/" CHANGELOG.md
git add "${POMS[@]}" CHANGELOG.md "$CHART" deploy/kustomize/base
git commit -q -m "Release $VERSION" -m "Version $VERSION in every pom and the chart; the changelog's Unreleased section dated $today."
git tag -a "$TAG" -m "Model Gateway $VERSION"

set_version "$NEXT"
set_chart "${NEXT%-SNAPSHOT}"
git add "${POMS[@]}" "$CHART" deploy/kustomize/base
git commit -q -m "Start $NEXT" -m "The next development version, so that no build after $TAG calls itself $VERSION."

cat <<EOF2
release: tagged $TAG ($(git rev-parse --short "$TAG^{commit}")); main is now at $NEXT.
Next:
  git push origin main $TAG
  git checkout $TAG && ./gw dist && git checkout main   # dist/model-gateway-$VERSION-linux-x64.tar.gz
EOF2
