#!/usr/bin/env bash
# Builds the container image from the release archive (./gw dist) and Debian packages, with no Docker daemon and no
# container registry (docs/operations/container-image.md): an OCI image layout in one tar,
# dist/model-gateway-<version>-linux-amd64.oci.tar (skopeo copy oci-archive:…, podman load), and its SBOM beside it,
# dist/model-gateway-<version>-linux-amd64.cdx.json (CycloneDX 1.6). ./gw image builds the archive first if needed.
#   SOURCE_DATE_EPOCH  the time of every file, layer and of the image (default: the last commit's), so that the same
#                      archive and packages give the same image digest
#   JAVA_HOME          a JDK 25, for the SBOM's program (./gw finds one)
# Two layers: the base (a few Debian packages of this machine's release, from the apt sources it uses, unpacked
# without their maintainer scripts: no shell, no package manager) and /opt/model-gateway (the archive's runtime, jar
# and start-up cache). umoci writes the layers and the configuration; nothing runs inside the image to build it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
archives=("$ROOT"/dist/model-gateway-*-linux-x64.tar.gz)
[ -f "${archives[0]}" ] || { echo "error: no archive in dist/: run ./gw dist first" >&2; exit 1; }
[ "${#archives[@]}" = 1 ] || { echo "error: several archives in dist/: ${archives[*]}" >&2; exit 1; }
ARCHIVE="${archives[0]}"
VERSION=$(basename "$ARCHIVE" | sed 's/^model-gateway-\(.*\)-linux-x64\.tar\.gz$/\1/')
NAME=model-gateway
IMAGE="$ROOT/dist/$NAME-$VERSION-linux-amd64.oci.tar"
SBOM="$ROOT/dist/$NAME-$VERSION-linux-amd64.cdx.json"
WORK="$ROOT/dist/image-build"
BASE="$WORK/base"                     # the first layer's tree
APP="$WORK/app"                       # the second's: /opt/model-gateway
OPT=/opt/model-gateway
DATA=/var/lib/model-gateway
USER_ID=65532                         # the non-root user (and group) the gateway runs as; the conventional "nonroot" id
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"
CREATED=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
started=$SECONDS

need() { # command, Debian package
  command -v "$1" >/dev/null 2>&1 && return
  echo "image: installing $2 (apt-get)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}
need umoci umoci
need jq jq
need dpkg-deb dpkg
need readelf binutils

# this version's image and SBOM, and any other version's: dist/ holds the one archive they are made from
rm -rf "$WORK" "$ROOT"/dist/$NAME-*-linux-amd64.oci.tar "$ROOT"/dist/$NAME-*-linux-amd64.cdx.json
mkdir -p "$WORK/debs" "$BASE" "$APP"

# --- The base: the Debian packages whose files the runtime needs, and their dependencies. The JVM, its libraries and
# sqlite-jdbc's native library link against glibc alone (checked below); glibc loads libgcc_s to unwind a cancelled
# thread. base-files gives /etc/os-release (which release this is, for scanners) and the common licences; netbase
# /etc/services and /etc/protocols. The JVM brings its own CA certificates, time zones and zlib.
PACKAGES=(libc6 base-files netbase)
download() { (cd "$WORK/debs" && apt-get download -qq "$@" 2>/dev/null); }
echo "image: Debian packages from the apt sources of this machine ($(. /etc/os-release && echo "$PRETTY_NAME"))..." >&2
# the dependency closure: each package's Depends (the first of alternatives); not Pre-Depends, which serve the
# maintainer scripts (base-files' awk), never run here
todo=("${PACKAGES[@]}")
declare -A have=()
while [ "${#todo[@]}" -gt 0 ]; do
  download "${todo[@]}" || { apt-get update -qq && download "${todo[@]}"; } \
    || { echo "error: apt-get download ${todo[*]} failed" >&2; exit 1; }
  for p in "${todo[@]}"; do have[$p]=1; done
  todo=()
  for deb in "$WORK"/debs/*.deb; do
    for dep in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g'); do
      [ -n "${have[$dep]:-}" ] || { have[$dep]=1; todo+=("$dep"); }
    done
  done
done

# merged /usr, as Debian's own systems since bookworm: /bin, /lib, /lib64 and /sbin are links into /usr
mkdir -p "$BASE/usr/bin" "$BASE/usr/lib" "$BASE/usr/lib64" "$BASE/usr/sbin"
for d in bin lib lib64 sbin; do ln -s "usr/$d" "$BASE/$d"; done
: >"$WORK/debs.tsv"
for deb in "$WORK"/debs/*.deb; do
  pkg=$(dpkg-deb -f "$deb" Package)
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$BASE" --keep-directory-symlink
  # what scanners (Trivy, Syft, Grype) read in an image without dpkg: one control file per package
  mkdir -p "$BASE/var/lib/dpkg/status.d"
  dpkg-deb -f "$deb" >"$BASE/var/lib/dpkg/status.d/$pkg"
  dpkg-deb -I "$deb" md5sums >"$BASE/var/lib/dpkg/status.d/$pkg.md5sums" 2>/dev/null || true
  printf '%s\t%s\t%s\t%s\t%s\n' "$pkg" "$(dpkg-deb -f "$deb" Version)" "$(dpkg-deb -f "$deb" Architecture)" \
    "$(dpkg-deb -f "$deb" Source | cut -d' ' -f1)" "$(sha256sum "$deb" | cut -d' ' -f1)" >>"$WORK/debs.tsv"
done
echo "image: base: $(cut -f1,2 "$WORK/debs.tsv" | tr '\t\n' '= ')" >&2

# the users (the gateway's has no shell to log in with: there is none), name resolution from /etc/hosts then DNS
# (a container runtime mounts its own /etc/hosts over this one, and /etc/resolv.conf)
mkdir -p "$BASE/etc" "$BASE/opt" "$BASE/tmp" "$BASE$DATA" "$BASE/etc/model-gateway"
cat >"$BASE/etc/passwd" <<EOF
root:x:0:0:root:/root:/usr/sbin/nologin
model-gateway:x:$USER_ID:$USER_ID:Model Gateway:$DATA:/usr/sbin/nologin
EOF
cat >"$BASE/etc/group" <<EOF
root:x:0:
model-gateway:x:$USER_ID:
EOF
printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\nnetworks: files\nprotocols: files\nservices: files\n' \
  >"$BASE/etc/nsswitch.conf"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$BASE/etc/hosts"
chmod 1777 "$BASE/tmp"
# the data directory: a volume in any real deployment (the root filesystem is read-only); owned by the gateway's user
# so that a fresh volume made from it (podman, docker) is writable by it
chown "$USER_ID:$USER_ID" "$BASE$DATA"
chmod 750 "$BASE$DATA"

# --- The application: the archive's runtime, jar, start-up cache and sqlite-jdbc's native library, the licences.
# Not its bin/model-gateway: a bash script, and there is no bash.
tar -xzf "$ARCHIVE" -C "$WORK"
DIST="$WORK/$NAME-$VERSION"
cp -a "$DIST/runtime" "$APP/runtime"
mkdir -p "$APP/lib"
cp -a "$DIST/lib/gateway.jar" "$DIST/lib/gateway.aot" "$DIST/lib/libsqlitejdbc.so" "$DIST/lib/compiler-directives.json" "$APP/lib/"
cp -a "$DIST/LICENSE" "$DIST/NOTICE" "$APP/"

# Every shared library an ELF file of the image needs is in the image, but for AWT's X11, sound and splash-screen
# libraries: java.desktop is in the runtime for java.beans, and the gateway runs headless, never loading them.
elves=$(find "$BASE" "$APP" -type f \( -name '*.so*' -o -perm -u+x \) ! -name libawt_xawt.so ! -name libjawt.so \
  ! -name libjsound.so ! -name libsplashscreen.so)
missing=$(awk 'NR == FNR { have[$0] = 1; next } /^File: / { file = $2 } /\(NEEDED\)/ { so = $NF; gsub(/[][]/, "", so); if (!(so in have)) print file " needs " so }' \
  <(find "$BASE/usr/lib" "$BASE/usr/lib64" "$APP/runtime/lib" "$APP/lib" \( -type f -o -type l \) -printf '%f\n') \
  <(readelf -d $elves /dev/null 2>/dev/null))
[ -z "$missing" ] || { echo "error: shared libraries missing from the image:"$'\n'"$missing" >&2; exit 1; }

# --- The entry point: what the archive's launcher runs, without the launcher. Its JVM_FLAGS lines (./gw's, which
# the start-up cache was trained with), then as it adds them: the cache, the native library's directory, the data
# directory's default; and the temporary files on the data volume, since the root filesystem is read-only: the
# JVM's (Vert.x unpacks the console's pages from the jar there at each start, and deletes them at exit) and, through
# TMPDIR, SQLite's (large sorts; unlinked as soon as opened).
flags=$(grep '^JVM_FLAGS=' "$DIST/bin/model-gateway")
[ -n "$flags" ] || { echo "error: no JVM_FLAGS in the archive's launcher" >&2; exit 1; }
JVM_FLAGS=$(APP="$OPT"; eval "$flags"; echo "$JVM_FLAGS")
read -r -a jvm_args <<<"$JVM_FLAGS"
ENTRYPOINT=("$OPT/runtime/bin/java" "${jvm_args[@]}" "-XX:AOTCache=$OPT/lib/gateway.aot" "-Dorg.sqlite.lib.path=$OPT/lib"
  "-Dgateway.default_data_dir=$DATA" "-Djava.io.tmpdir=$DATA" -jar "$OPT/lib/gateway.jar")

# --- The image. Every file's time is SOURCE_DATE_EPOCH (the start-up cache does not check the jar's time: a moved,
# re-timed jar is still its jar; scripts/image-test.sh starts with -XX:AOTMode=on to prove it).
find "$BASE" "$APP" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
OCI="$WORK/oci"
umoci init --layout "$OCI"
umoci new --image "$OCI:$VERSION"
umoci insert --image "$OCI:$VERSION" --history.created "$CREATED" \
  --history.created_by "Debian packages: $(cut -f1,2 "$WORK/debs.tsv" | tr '\t\n' '= ' | sed 's/ $//')" "$BASE" /
umoci insert --image "$OCI:$VERSION" --history.created "$CREATED" \
  --history.created_by "$NAME $VERSION: $(basename "$ARCHIVE") without bin/" "$APP" "$OPT"
config=(--created "$CREATED" --history.created "$CREATED" --history.created_by "$NAME $VERSION: configuration"
  --architecture amd64 --os linux --author "Model Gateway"
  --config.user "$USER_ID:$USER_ID" --config.workingdir "$DATA" --config.volume "$DATA" --config.exposedports 8080/tcp
  --config.env "PATH=$OPT/runtime/bin" --config.env LANG=C.UTF-8 --config.env MALLOC_ARENA_MAX=2
  --config.env "TMPDIR=$DATA"
  --config.cmd serve --config.stopsignal SIGTERM)
for arg in "${ENTRYPOINT[@]}"; do config+=(--config.entrypoint "$arg"); done
for label in "org.opencontainers.image.title=$NAME" "org.opencontainers.image.version=$VERSION" \
    "org.opencontainers.image.licenses=Apache-2.0" "org.opencontainers.image.created=$CREATED" \
    "org.opencontainers.image.description=Model Gateway, an LLM gateway: serve --config /etc/model-gateway/gateway.yaml"; do
  config+=(--config.label "$label" --manifest.annotation "$label")
done
umoci config --image "$OCI:$VERSION" "${config[@]}"
umoci gc --layout "$OCI"

# one tar of the layout, entries sorted, owner and times neutral: the same layout gives the same bytes
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner --mode=a+r -C "$OCI" -cf "$IMAGE" .
manifest=$(jq -r '.manifests[0].digest' "$OCI/index.json")
layers=$(jq '[.layers[].size] | add' "$OCI/blobs/sha256/${manifest#sha256:}")
unpacked=$(du -sb "$BASE" "$APP" | awk '{s += $1} END {print s}')

# --- The SBOM: the jar's dependencies as cyclonedx-maven-plugin resolves them (../pom.xml), with the runtime and the
# Debian packages, by scripts/image/sbom/ImageSbom.java on CycloneDX's Java library, validated against the schema.
echo "image: SBOM..." >&2
# the runtime: jlink's release file names its modules; the JVM itself, its vendor and version
{ cat "$APP/runtime/release"
  "$APP/runtime/bin/java" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *\(java\.vendor\|java\.vendor\.version\|java\.runtime\.version\) = \(.*\)$/\1=\2/p'
} >"$WORK/runtime.properties"
mvn -B -q -pl gateway org.cyclonedx:cyclonedx-maven-plugin:makeBom -DoutputDirectory="$WORK" >&2
mvn -B -q -f scripts/image/sbom/pom.xml dependency:build-classpath -Dmdep.outputFile="$WORK/sbom.classpath" \
  -Dmdep.includeScope=runtime >&2
"$JAVA_HOME/bin/java" -Dslf4j.internal.verbosity=ERROR -cp "$(cat "$WORK/sbom.classpath")" scripts/image/sbom/ImageSbom.java \
  build "$SBOM" "$WORK/bom.json" "$WORK/debs.tsv" "$WORK/runtime.properties" "$NAME" "$VERSION" "$manifest" "$SOURCE_DATE_EPOCH" >&2

mib() { echo $(( ($1 + 524288) / 1048576 )); }
echo "image: $IMAGE: $NAME:$VERSION $manifest; layers $(mib "$layers") MiB compressed, $(mib "$unpacked") MiB unpacked;" \
  "SBOM $(basename "$SBOM"); in $((SECONDS - started)) s" >&2
rm -rf "$WORK"
