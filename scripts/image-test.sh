#!/usr/bin/env bash
# Tests the container image (./gw image) as a container runtime runs it (docs/operations/container-image.md):
# skopeo copies dist/model-gateway-<version>-linux-amd64.oci.tar to an OCI layout (checking every blob's digest), umoci
# unpacks it into a runtime bundle whose config.json comes from the image's configuration (user, entry point, command,
# environment, working directory), and crun runs it with a read-only root filesystem and a host directory as the data
# volume, on the host's network (the simulator and the SDKs are on its loopback). Checked:
#   - the image: a numeric non-root user, no shell or package manager anywhere, the SBOM beside it valid against the
#     CycloneDX 1.6 schema and naming every Debian package the image holds, at its version, and the image's digest;
#   - --version; the runtime's CA certificates (its keytool, in the container);
#   - without the data volume the gateway cannot start: its first write hits the read-only root filesystem;
#   - serve --config (a file mounted read-only) in front of the vendor simulator, started outside the container, with
#     -XX:AOTMode=on (the JVM refuses to start when the start-up cache does not match its runtime, flags and jar):
#     /health with the version, /ready, the process's user ids, no /bin/sh to exec, the official openai and
#     anthropic SDKs (compat/image-smoke.mjs), the state on the volume under the gateway's user, a clean stop on SIGTERM.
# Prints the image's size (layers compressed, unpacked) and the cold start (crun run to the first /health answered).
#   JAVA_HOME  a JDK 25, for the SBOM's check and the simulator (./gw sets it)
set -Eeuo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
images=("$ROOT"/dist/model-gateway-*-linux-amd64.oci.tar)
[ -f "${images[0]}" ] || { echo "error: no image in dist/: run ./gw image first" >&2; exit 1; }
[ "${#images[@]}" = 1 ] || { echo "error: several images in dist/: ${images[*]}" >&2; exit 1; }
IMAGE="${images[0]}"
VERSION=$(basename "$IMAGE" | sed 's/^model-gateway-\(.*\)-linux-amd64\.oci\.tar$/\1/')
SBOM="${IMAGE%.oci.tar}.cdx.json"
KEY=pk-image-test-master-key
started=$SECONDS

need() { # command, Debian package
  command -v "$1" >/dev/null 2>&1 && return
  echo "image-test: installing $2 (apt-get)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}
need skopeo skopeo
need umoci umoci
need crun crun
need jq jq
"$ROOT/compat/run.sh" --install-only

TMP=$(mktemp -d)
ID="model-gateway-image-test-$$"
RUNS=(version cacerts no-volume serve)   # the containers' names, after $ID-
SIM_PID=
# crun 1.8 refuses a hybrid cgroup layout (a cgroup v2 hierarchy holding a controller beside the v1 ones, as some
# machines have); in a mount namespace of its own without the v2 mount, it sees plain v1 and manages the container's
# cgroups there. Nothing changes outside that namespace.
runtime() {
  if [ -n "$(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null)" ]; then
    unshare -m sh -c 'umount -l /sys/fs/cgroup/unified && exec crun "$@"' crun "$@"
  else
    crun "$@"
  fi
}
cleanup() {
  for name in "${RUNS[@]}"; do runtime delete -f "$ID-$name" >/dev/null 2>&1 || true; done
  [ -z "$SIM_PID" ] || kill "$SIM_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'fail "line $LINENO exited $?"' ERR
fail() { echo "image-test: FAILED: $*" >&2; for f in "$TMP"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -15 "$f" >&2; }; done; exit 1; }

# --- The image as a registry client would receive it, then as a runtime bundle
skopeo copy -q "oci-archive:$IMAGE:$VERSION" "oci:$TMP/layout:$VERSION" || fail "skopeo could not read the image"
umoci unpack --image "$TMP/layout:$VERSION" "$TMP/bundle" >/dev/null || fail "umoci could not unpack the image"
ROOTFS="$TMP/bundle/rootfs"
# the vendor simulator (the image's jar holds it), outside the container, on a free loopback port; it starts meanwhile
"$JAVA_HOME/bin/java" -cp "$ROOTFS$(jq -r '.process.args | .[index("-jar") + 1]' "$TMP/bundle/config.json")" \
  dev.modelgateway.sim.VendorSimulator --port 0 >"$TMP/simulator.log" 2>&1 &
SIM_PID=$!
manifest=$(jq -r '.manifests[0].digest' "$TMP/layout/index.json")
blob() { echo "$TMP/layout/blobs/sha256/${1#sha256:}"; }
config=$(jq -r '.config.digest' "$(blob "$manifest")")
user=$(jq -r '.config.User' "$(blob "$config")")
[[ "$user" =~ ^[1-9][0-9]*:[1-9][0-9]*$ ]] || fail "the image's user is '$user', not a numeric non-root uid:gid"
uid=${user%%:*} gid=${user#*:}
shells=$(find "$ROOTFS" \( -name sh -o -name bash -o -name dash -o -name ash -o -name busybox -o -name zsh -o -name ksh \
  -o -name mksh -o -name dpkg -o -name apt -o -name apt-get \) ! -type d)
[ -z "$shells" ] || fail "the image has a shell or package manager: $shells"

# --- The SBOM: valid, and naming what the image holds
mvn -B -q -f "$ROOT/scripts/image/sbom/pom.xml" dependency:build-classpath -Dmdep.outputFile="$TMP/sbom.classpath" \
  -Dmdep.includeScope=runtime >/dev/null || fail "the SBOM program's class path"
"$JAVA_HOME/bin/java" -Dslf4j.internal.verbosity=ERROR -cp "$(cat "$TMP/sbom.classpath")" "$ROOT/scripts/image/sbom/ImageSbom.java" \
  check "$SBOM" || fail "the SBOM is not valid CycloneDX"
jq -e --arg d "$manifest" '.metadata.component.purl | contains($d | sub(":"; "%3A"))' "$SBOM" >/dev/null \
  || fail "the SBOM does not describe the image $manifest: $(jq -c .metadata.component.purl "$SBOM")"
for status in "$ROOTFS"/var/lib/dpkg/status.d/*; do
  case "$status" in *.md5sums) continue ;; esac
  pkg=$(sed -n 's/^Package: //p' "$status"); ver=$(sed -n 's/^Version: //p' "$status")
  jq -e --arg p "$pkg" --arg v "$ver" 'any(.components[]; .name == $p and .version == $v and (.purl | startswith("pkg:deb/debian/")))' \
    "$SBOM" >/dev/null || fail "the SBOM lacks the Debian package $pkg $ver"
done
jq -e --arg v "$VERSION" 'any(.components[]; .name == "gateway" and .version == $v) and any(.components[]; .name == "vertx-core")' \
  "$SBOM" >/dev/null || fail "the SBOM lacks the gateway $VERSION or its libraries"

# --- The runtime spec: umoci's, from the image's configuration, with what an operator's runtime adds: a read-only
# root, the host's network (as podman run --network=host), a memory limit. Each run below passes base.json through a
# jq filter of its own: its arguments, environment and mounts.
DATA=$(jq -r '.config.Volumes | keys[0]' "$(blob "$config")")
jq -e '.config.Entrypoint[0] | endswith("/bin/java")' "$(blob "$config")" >/dev/null \
  || fail "the entry point is not the runtime's java: $(jq -c .config.Entrypoint "$(blob "$config")")"
jq -e '.config.Cmd == ["serve"]' "$(blob "$config")" >/dev/null || fail "the image's command is not serve"
jq --arg data "$DATA" '.process.terminal = false | .root.readonly = true
  | .linux.namespaces |= map(select(.type != "network"))
  | .mounts |= map(select(.destination != $data))
  | .linux.resources.memory = {limit: 1073741824}' "$TMP/bundle/config.json" >"$TMP/base.json"
mkdir -p "$TMP/data"
chown "$user" "$TMP/data"
# the data volume (a host directory in place of umoci's tmpfs for the image's volume), the configuration file
# read-only, the host's resolv.conf (as podman and docker mount it)
VOLUME='.mounts += [{destination: $dataDir, type: "bind", source: $data, options: ["rbind", "rw"]}]'
CONFIG='.mounts += [{destination: "/etc/model-gateway/gateway.yaml", type: "bind", source: $conf, options: ["rbind", "ro"]},
  {destination: "/etc/resolv.conf", type: "bind", source: "/etc/resolv.conf", options: ["rbind", "ro"]}]'
# run NAME FILTER [crun run options]: runs base.json through FILTER, in the foreground, the output in NAME.log
run() {
  local name=$1 filter=$2
  shift 2
  jq --arg data "$TMP/data" --arg dataDir "$DATA" --arg conf "$TMP/gateway.yaml" "$filter" "$TMP/base.json" >"$TMP/$name.json"
  runtime run --bundle "$TMP/bundle" --config "$TMP/$name.json" "$@" "$ID-$name" >"$TMP/$name.log" 2>&1
}

run version '.process.args[-1] = "--version"' || fail "--version exited $?"
grep -qx "model-gateway $VERSION" "$TMP/version.log" || fail "--version printed: $(cat "$TMP/version.log")"
# the runtime's trust store, for the vendors' TLS, read by its keytool
run cacerts '.process.args = [(.process.args[0] | sub("/java$"; "/keytool")), "-list", "-cacerts", "-storepass", "changeit"]' \
  || fail "keytool -list -cacerts exited $?"
roots=$(grep -c trustedCertEntry "$TMP/cacerts.log" || true)
[ "$roots" -gt 50 ] || fail "the runtime's trust store holds $roots CA certificates"
# no data volume: the gateway's first write goes to the read-only root filesystem, and it stops
if run no-volume '.process.env += ["GATEWAY_SERVER_PORT=0"]'; then fail "the gateway started without its data volume"; fi
grep -q 'Read-only file system' "$TMP/no-volume.log" || fail "without the data volume: $(tail -3 "$TMP/no-volume.log")"

# --- serve --config, in front of the simulator
for _ in $(seq 1 600); do
  SIM=$(sed -n 's#^vendor-sim listening on \(http://127.0.0.1:[0-9]*\)$#\1#p' "$TMP/simulator.log")
  [ -z "$SIM" ] || break
  kill -0 "$SIM_PID" 2>/dev/null || fail "the simulator exited"
  sleep 0.1
done
[ -n "$SIM" ] || fail "the simulator did not start within 60 s"
cat >"$TMP/gateway.yaml" <<YAML
server:
  host: 127.0.0.1
  port: 0
vendors:
  anthropic: {api_key: "\${ANTHROPIC_API_KEY}", base_url: $SIM/anthropic}
  openai: {api_key: "\${OPENAI_API_KEY}", base_url: $SIM/openai/v1}
YAML
ms() { echo $(( $(date +%s%N) / 1000000 )); }
: >"$TMP/serve.log"   # before the container, which the loop below reads
t0=$(ms)
# in the background; its exit status (143 after SIGTERM) is not the test's: the checks below are
{ run serve "$VOLUME | $CONFIG | .process.args += [\"--config\", \"/etc/model-gateway/gateway.yaml\"]
  | .process.env += [\"GATEWAY_SERVER_MASTER_KEY=$KEY\", \"OPENAI_API_KEY=sim-openai-key\", \"ANTHROPIC_API_KEY=sim-anthropic-key\",
    \"JDK_JAVA_OPTIONS=-XX:AOTMode=on\"]" --pid-file "$TMP/serve.pid" || true; } &
SERVE=$!
URL=
for _ in $(seq 1 6000); do
  [ -n "$URL" ] || URL=$(sed -n 's#^Model Gateway listening on \(http://127.0.0.1:[0-9]*\)/api/v1$#\1#p' "$TMP/serve.log")
  if [ -n "$URL" ] && curl -sf "$URL/health" -o "$TMP/health.json" 2>/dev/null; then break; fi
  kill -0 "$SERVE" 2>/dev/null || fail "the gateway's container exited"
  sleep 0.01
done
[ -s "$TMP/health.json" ] || fail "no /health within 60 s"
cold=$(( $(ms) - t0 ))
grep -q "\"version\":\"$VERSION\"" "$TMP/health.json" || fail "/health: $(cat "$TMP/health.json")"
curl -sf "$URL/ready" >/dev/null || fail "/ready did not answer 200"
pid=$(cat "$TMP/serve.pid")
# real, effective, saved and file-system ids
grep -Eq "^Uid:\s+$uid\s+$uid\s+$uid\s+$uid$" "/proc/$pid/status" || fail "the gateway's $(grep "^Uid:" "/proc/$pid/status")"
grep -Eq "^Gid:\s+$gid\s+$gid\s+$gid\s+$gid$" "/proc/$pid/status" || fail "the gateway's $(grep "^Gid:" "/proc/$pid/status")"
awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo" | grep -q '^ro' || fail "the container's root is not mounted read-only"
if runtime exec "$ID-serve" /bin/sh -c true >"$TMP/exec.log" 2>&1; then fail "/bin/sh ran in the container"; fi
grep -q 'not found' "$TMP/exec.log" || fail "exec /bin/sh: $(cat "$TMP/exec.log")"
node "$ROOT/compat/image-smoke.mjs" "$URL" "$KEY" || fail "the official SDKs through the gateway in the container"
for f in gateway.db journal; do
  [ "$(stat -c %u "$TMP/data/$f" 2>/dev/null)" = "$uid" ] || fail "the data volume's $f is missing or not the gateway user's"
done
runtime kill "$ID-serve" TERM
for _ in $(seq 1 300); do kill -0 "$SERVE" 2>/dev/null || break; sleep 0.1; done
kill -0 "$SERVE" 2>/dev/null && fail "the gateway did not stop within 30 s of SIGTERM"
grep -q '^Model Gateway stopped$' "$TMP/serve.log" || fail "the gateway did not stop cleanly"
[ -z "$(find "$TMP/data" -maxdepth 1 -name 'vertx-cache-*')" ] || fail "the temporary files outlived the gateway"

mib() { echo $(( ($1 + 524288) / 1048576 )); }
layers=$(jq '[.layers[].size] | add' "$(blob "$manifest")")
echo "image-test: passed in $((SECONDS - started)) s: $(basename "$IMAGE") ($manifest): layers $(mib "$layers") MiB compressed," \
  "$(mib "$(du -sb "$ROOTFS" | cut -f1)") MiB unpacked; cold start in crun to /health: $cold ms (start-up cache, first start, database created)"
