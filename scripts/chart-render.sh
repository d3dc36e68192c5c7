#!/usr/bin/env bash
# Regenerates the kustomize bases deploy/kustomize/base/<mode>/ from the Helm chart deploy/helm/model-gateway, rendered
# by Helm's own library with deploy/kustomize/chart-values/<mode>.yaml (dev.modelgateway.deploy.KustomizeBases, a test
# class: helm-java is a test dependency). KustomizeBasesTest fails while the committed bases differ from the chart.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CLASSPATH_FILE="$ROOT/gateway/target/chart-render.classpath"
mvn -B -q -pl gateway -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CLASSPATH_FILE" >&2
cd gateway
"${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/test-classes:target/classes:$(cat "$CLASSPATH_FILE")" \
  dev.modelgateway.deploy.KustomizeBases
