#!/usr/bin/env bash
# Builds the release archive dist/model-gateway-<version>-linux-x64.tar.gz from the built jar (./gw dist builds it
# first): the jar, a Java runtime made by jlink with only the modules the gateway needs, the start-up cache built by a
# training run on that runtime, the launcher bin/model-gateway, LICENSE, NOTICE and a README. It runs on a Linux x64
# machine with no JDK and no Maven (docs/release.md; scripts/dist-test.sh proves it).
#   JAVA_HOME   the JDK 25 whose jlink makes the runtime (./gw finds one)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JAR="$ROOT/gateway/target/gateway.jar"
[ -f "$JAR" ] || { echo "error: $JAR is missing: run ./gw dist, or ./gw build first" >&2; exit 1; }
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25}"

# The modules `jdeps --print-module-deps --ignore-missing-deps --multi-release 25` finds in the jar (over a minute, so
# not at every build: scripts/dist-modules.sh checks the list after a dependency change). Among them jdk.jfr (Netty
# looks for JFR, Main), jdk.management (Micrometer's JVM metrics), java.sql (JDBC), java.net.http (the OTLP exporter's
# sender), jdk.unsupported (Netty's sun.misc.Unsafe). TLS (SunJSSE, SunEC) and the CA certificates are in java.base.
MODULES=java.base,java.compiler,java.desktop,java.naming,java.net.http,java.security.jgss,java.sql,jdk.jfr,jdk.management,jdk.net,jdk.unsupported

VERSION=$("$JAVA_HOME/bin/java" -jar "$JAR" --version | sed -n 's/^model-gateway //p')
[ -n "$VERSION" ] || { echo "error: $JAR printed no version" >&2; exit 1; }
NAME="model-gateway-$VERSION"
ARCHIVE="$ROOT/dist/$NAME-linux-x64.tar.gz"
STAGE="$ROOT/dist/stage"
APP="$STAGE/$NAME"
started=$SECONDS
rm -rf "$STAGE" "$ARCHIVE"
mkdir -p "$APP/bin" "$APP/lib"

echo "dist: jlink (modules: $MODULES)..." >&2
# --generate-cds-archive: the JDK's own class-data archive, for a start with GW_AOT=off
"$JAVA_HOME/bin/jlink" --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files \
  --generate-cds-archive --output "$APP/runtime" >/dev/null
cp "$JAR" "$APP/lib/gateway.jar"
cp gateway/jvm/compiler-directives.json "$APP/lib/"
cp LICENSE NOTICE CHANGELOG.md "$APP/"
cp scripts/dist/README.md "$APP/README.md"
cp scripts/dist/model-gateway.service "$APP/lib/"

# The launcher: ./gw's own JVM_FLAGS lines, the directives file found in lib/ instead of the checkout
flags=$(grep '^JVM_FLAGS=' gw | sed 's#\$ROOT/gateway/jvm/#$APP/lib/#g')
if grep -q '\$ROOT' <<<"$flags"; then echo "error: gw's JVM_FLAGS name another file of the checkout" >&2; exit 1; fi
awk -v flags="$flags" '$0 == "@JVM_FLAGS@" { print flags; next } { print }' scripts/dist/model-gateway >"$APP/bin/model-gateway"
chmod 755 "$APP/bin/model-gateway"

# The start-up cache, by the training run (./gw's build_aot) on the runtime just made, with the launcher's flags:
# a cache serves only the JVM and flags it was built with. The jar's path may differ at run time (checked:
# -XX:AOTMode=on in dist-test.sh). The training also exports sqlite-jdbc's native library next to it.
echo "dist: training run for the start-up cache..." >&2
eval "$flags"
read -r -a JVM_ARGS <<<"$JVM_FLAGS"
if ! MALLOC_ARENA_MAX=2 timeout -k 10 300 "$APP/runtime/bin/java" "${JVM_ARGS[@]}" -XX:AOTCacheOutput="$APP/lib/gateway.aot" \
    -jar "$APP/lib/gateway.jar" train --export-sqlite-library "$APP/lib" >"$STAGE/training.log" 2>&1 || [ ! -s "$APP/lib/gateway.aot" ]; then
  cat "$STAGE/training.log" >&2
  echo "error: the training run failed (log above)" >&2
  exit 1
fi
rm -f "$APP/lib/gateway.aot.config"

echo "dist: archiving..." >&2
# owner and group neutral, entries sorted: the same inputs give the same listing
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$STAGE" -czf "$ARCHIVE" "$NAME"
mib() { du -sm "$1" | cut -f1; }
echo "dist: $ARCHIVE: $(( $(stat -c %s "$ARCHIVE") / 1048576 )) MiB (unpacked $(mib "$APP") MiB: runtime $(mib "$APP/runtime"),"\
  "jar $(mib "$APP/lib/gateway.jar"), start-up cache $(mib "$APP/lib/gateway.aot")) in $((SECONDS - started)) s"
rm -rf "$STAGE"
