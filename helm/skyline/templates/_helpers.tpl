{{/* Names and labels shared by every template. */}}
{{- define "skyline.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "skyline.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "skyline.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "skyline.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "skyline.selectorLabels" -}}
app.kubernetes.io/name: {{ include "skyline.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "skyline.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "skyline.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "skyline.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "skyline.redisSecretName" -}}
{{- if .Values.redis.existingSecret -}}
{{- .Values.redis.existingSecret -}}
{{- else -}}
{{- printf "%s-redis" (include "skyline.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- /* The queues' Redis has a Secret only when queueRedis names one, or a URL to write into one. */}}
{{- define "skyline.queueRedisSecretName" -}}
{{- if .Values.queueRedis.existingSecret -}}
{{- .Values.queueRedis.existingSecret -}}
{{- else if .Values.queueRedis.url -}}
{{- printf "%s-queue-redis" (include "skyline.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "skyline.databaseSecretName" -}}
{{- if .Values.database.existingSecret -}}
{{- .Values.database.existingSecret -}}
{{- else -}}
{{- printf "%s-database" (include "skyline.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* The environment of both roles: Redis (the queues' too, when apart) and PostgreSQL from their Secrets, settings from the ConfigMap. */}}
{{- define "skyline.env" -}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "skyline.redisSecretName" . }}
      key: {{ .Values.redis.existingSecretKey }}
{{- if .Values.redis.cluster }}
{{- if not (include "skyline.queueRedisSecretName" .) }}
{{- fail "redis.cluster needs queueRedis (url or existingSecret): RQ cannot use a Redis Cluster" }}
{{- end }}
- name: SKYLINE_REDIS_CLUSTER
  value: "1"
{{- end }}
{{- with include "skyline.queueRedisSecretName" . }}
- name: RQ_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.queueRedis.existingSecretKey }}
{{- end }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "skyline.databaseSecretName" . }}
      key: {{ .Values.database.existingSecretKey }}
{{- range $name, $value := .Values.config.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{- define "skyline.podSecurity" -}}
serviceAccountName: {{ include "skyline.serviceAccountName" . }}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
