{{/*
The pod of both modes. The image has no shell: the preStop hook is a sleep action, not an exec. Probes go to the
metrics port (observability.metrics_port), which serves /health, /ready and /metrics without an access-log line and
stays off the callers' port.
*/}}
{{- define "model-gateway.podTemplate" -}}
metadata:
  labels:
    {{- include "model-gateway.selectorLabels" . | nindent 4 }}
    {{- with .Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with .Values.podAnnotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  serviceAccountName: {{ include "model-gateway.serviceAccountName" . }}
  # the gateway never calls the Kubernetes API
  automountServiceAccountToken: false
  # no {SERVICE}_PORT variables: a release named gateway would otherwise get GATEWAY_* ones
  enableServiceLinks: false
  terminationGracePeriodSeconds: {{ include "model-gateway.gracePeriodSeconds" . }}
  securityContext:
    runAsNonRoot: true
    runAsUser: {{ .Values.runAsUser }}
    runAsGroup: {{ .Values.runAsUser }}
    fsGroup: {{ .Values.runAsUser }}
    fsGroupChangePolicy: OnRootMismatch
    seccompProfile: {type: RuntimeDefault}
  {{- with .Values.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  {{- with .Values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  containers:
    - name: gateway
      image: {{ include "model-gateway.image" . | quote }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      {{- with .Values.args }}
      args:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      ports:
        - {name: http, containerPort: {{ include "model-gateway.httpPort" . }}, protocol: TCP}
        - {name: metrics, containerPort: {{ include "model-gateway.metricsPort" . }}, protocol: TCP}
      env:
        - {name: GATEWAY_SERVER_PORT, value: {{ include "model-gateway.httpPort" . | quote }}}
        - {name: GATEWAY_OBSERVABILITY_METRICS_PORT, value: {{ include "model-gateway.metricsPort" . | quote }}}
        - {name: GATEWAY_SERVER_DATA_DIR, value: {{ include "model-gateway.dataDir" . | quote }}}
        # no stream outlasts the drain: both are maxStreamSeconds
        - {name: GATEWAY_SERVER_MAX_VENDOR_STREAM_SECONDS, value: {{ .Values.maxStreamSeconds | quote }}}
        - {name: GATEWAY_SERVER_DRAIN_SECONDS, value: {{ .Values.maxStreamSeconds | quote }}}
        - {name: GATEWAY_ACCESS_LOG_FORMAT, value: {{ .Values.accessLogFormat | quote }}}
        - name: GATEWAY_SERVER_MASTER_KEY
          valueFrom: {secretKeyRef: {name: {{ include "model-gateway.secretName" (list . .Values.masterKey "master-key") }}, key: {{ .Values.masterKey.key }}}}
        {{- if eq .Values.mode "ha" }}
        - name: GATEWAY_ACCOUNTS_DATABASE_URL
          valueFrom: {secretKeyRef: {name: {{ include "model-gateway.secretName" (list . .Values.database "database") }}, key: {{ .Values.database.key }}}}
        - name: GATEWAY_ACCOUNTS_REDIS_URL
          valueFrom: {secretKeyRef: {name: {{ include "model-gateway.secretName" (list . .Values.redis "redis") }}, key: {{ .Values.redis.key }}}}
        {{- end }}
        {{- range .Values.vendorKeys }}
        - name: {{ .env }}
          valueFrom: {secretKeyRef: {name: {{ .secret }}, key: {{ .key }}}}
        {{- end }}
        {{- with .Values.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      volumeMounts:
        # the whole directory, never a subPath: a subPath mount is not updated when the ConfigMap changes
        - {name: config, mountPath: {{ include "model-gateway.configDir" . }}, readOnly: true}
        # also the JVM's and SQLite's temporary files: the image points java.io.tmpdir and TMPDIR here
        - {name: data, mountPath: {{ include "model-gateway.dataDir" . }}}
      # the gateway listens only once its database is open and migrated, which may wait on another pod's migration
      # (a PostgreSQL advisory lock): the startup probe allows longer than the gateway's own 60 s start-up bound
      startupProbe:
        httpGet: {path: /health, port: metrics}
        periodSeconds: 2
        failureThreshold: 45
      readinessProbe:
        httpGet: {path: /ready, port: metrics}
        periodSeconds: 5
        timeoutSeconds: 3
        failureThreshold: 2
      livenessProbe:
        httpGet: {path: /health, port: metrics}
        periodSeconds: 10
        timeoutSeconds: 3
        failureThreshold: 3
      lifecycle:
        preStop:
          sleep: {seconds: {{ .Values.preStopSleepSeconds }}}
      securityContext:
        runAsNonRoot: true
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities: {drop: [ALL]}
        seccompProfile: {type: RuntimeDefault}
      {{- with .Values.resources }}
      resources:
        {{- toYaml . | nindent 8 }}
      {{- end }}
  volumes:
    - name: config
      configMap: {name: {{ include "model-gateway.fullname" . }}}
    {{- if eq .Values.mode "ha" }}
    {{- if .Values.journal.existingClaim }}
    - name: data
      persistentVolumeClaim: {claimName: {{ .Values.journal.existingClaim }}}
    {{- else }}
    - name: data
      emptyDir: {sizeLimit: 1Gi}
    {{- end }}
    {{- end }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- if .Values.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- toYaml .Values.topologySpreadConstraints | nindent 4 }}
  {{- else if eq .Values.mode "ha" }}
  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: kubernetes.io/hostname
      whenUnsatisfiable: ScheduleAnyway
      labelSelector:
        matchLabels:
          {{- include "model-gateway.selectorLabels" . | nindent 10 }}
  {{- end }}
{{- end -}}
