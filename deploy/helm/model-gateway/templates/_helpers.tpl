{{/* Names and labels (the Kubernetes recommended labels, app.kubernetes.io/*). */}}
{{- define "model-gateway.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "model-gateway.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "model-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "model-gateway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "model-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: gateway
{{- end -}}

{{- define "model-gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "model-gateway.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag -}}
{{- if .Values.image.digest -}}
{{- printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/*
The shutdown's arithmetic (docs/operations/kubernetes.md, "Draining"): the pod is taken out of the endpoints and
sleeps preStopSleepSeconds, then SIGTERM starts the gateway's drain of maxStreamSeconds, then the ledger and the
stores close within shutdownMarginSeconds, all inside the grace period, after which the kubelet kills.
*/}}
{{- define "model-gateway.gracePeriodSeconds" -}}
{{- add .Values.preStopSleepSeconds .Values.maxStreamSeconds .Values.shutdownMarginSeconds -}}
{{- end -}}

{{/* A proxy in front waits longer than the gateway's own deadline, so that a caller sees the gateway's error. */}}
{{- define "model-gateway.proxyTimeoutSeconds" -}}
{{- add .Values.maxStreamSeconds 30 -}}
{{- end -}}

{{/* The fixed ports and paths the image and the probes agree on. */}}
{{- define "model-gateway.httpPort" -}}8080{{- end -}}
{{- define "model-gateway.metricsPort" -}}9464{{- end -}}
{{- define "model-gateway.dataDir" -}}/var/lib/model-gateway{{- end -}}
{{- define "model-gateway.configDir" -}}/etc/model-gateway{{- end -}}

{{/* A Secret named by the values, else <fullname>-<suffix>: the Secret the operator creates (kubernetes.md, "Secrets"). */}}
{{- define "model-gateway.secretName" -}}
{{- $ctx := index . 0 -}}
{{- default (printf "%s-%s" (include "model-gateway.fullname" $ctx) (index . 2)) (index . 1).existingSecret -}}
{{- end -}}

{{/* Refusals the schema cannot express, each naming the value to change. */}}
{{- define "model-gateway.validate" -}}
{{- if and (eq .Values.mode "single") (ne (int .Values.replicas) 1) -}}
{{- fail (printf "mode single runs SQLite on one volume: replicas must be 1, got %d; use mode ha (PostgreSQL and Redis) to run several" (int .Values.replicas)) -}}
{{- end -}}
{{- if eq .Values.mode "ha" -}}
{{- if and .Values.autoscaling.enabled (lt (int .Values.autoscaling.maxReplicas) (int .Values.autoscaling.minReplicas)) -}}
{{- fail (printf "autoscaling.maxReplicas (%d) is below autoscaling.minReplicas (%d)" (int .Values.autoscaling.maxReplicas) (int .Values.autoscaling.minReplicas)) -}}
{{- end -}}
{{- else -}}
{{- if or .Values.database.existingSecret .Values.redis.existingSecret -}}
{{- fail "database and redis are for mode ha: mode single keeps its accounts in SQLite on its volume; set mode: ha to use PostgreSQL and Redis" -}}
{{- end -}}
{{- if .Values.journal.existingClaim -}}
{{- fail "journal.existingClaim is for mode ha: mode single keeps its journal on its own volume" -}}
{{- end -}}
{{- end -}}
{{- if and .Values.httpRoute.enabled (not .Values.httpRoute.parentRefs) -}}
{{- fail "httpRoute.enabled needs httpRoute.parentRefs: the Gateway(s) the route attaches to" -}}
{{- end -}}
{{- if and .Values.ingress.enabled (not .Values.ingress.host) -}}
{{- fail "ingress.enabled needs ingress.host" -}}
{{- end -}}
{{- end -}}
