{{/* The chart name, possibly overridden. */}}
{{- define "tributary.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every resource name; short enough for the longest suffix (-server-api, 11). */}}
{{- define "tributary.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "tributary.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "tributary.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selector labels of one component: pass (dict "ctx" $ "component" "server"). */}}
{{- define "tributary.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tributary.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "tributary.serverServiceAccount" -}}
{{- if .Values.server.serviceAccount.create -}}
{{- default (printf "%s-server" (include "tributary.fullname" .)) .Values.server.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.server.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "tributary.workerServiceAccount" -}}
{{- if .Values.workers.serviceAccount.create -}}
{{- default (printf "%s-worker" (include "tributary.fullname" .)) .Values.workers.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.workers.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding admin-token, cluster-secret, token-key and optionally metrics-token. */}}
{{- define "tributary.secretName" -}}
{{- default (printf "%s-secrets" (include "tributary.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Where worker pods register: the control Service and the worker port. */}}
{{- define "tributary.controlPlane" -}}
{{- printf "%s-control.%s.svc:%d" (include "tributary.fullname" .) .Release.Namespace (int .Values.server.workerPort) -}}
{{- end -}}

{{- define "tributary.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Stops the rendering of a configuration that cannot work. */}}
{{- define "tributary.validate" -}}
{{- if not (hasPrefix "s3://" .Values.config.objectStore) -}}
{{- fail "config.objectStore must be an s3://bucket/prefix URL (the Terraform output object_store_url): worker pods reach state only through the object store" -}}
{{- end -}}
{{- if not .Values.config.metadata.dynamodb.table -}}
{{- fail "config.metadata.dynamodb.table is required (the Terraform output table_name): server replicas share their metadata in DynamoDB" -}}
{{- end -}}
{{- if ne .Values.config.metadata.store "dynamodb" -}}
{{- fail "config.metadata.store must be dynamodb: the embedded store serves one server with its own disk, and the chart's server pods keep none" -}}
{{- end -}}
{{- if not .Values.secrets.existingSecret -}}
{{- if or (not .Values.secrets.adminToken) (not .Values.secrets.clusterSecret) (not .Values.secrets.tokenKey) -}}
{{- fail "secrets.existingSecret names no Secret, so secrets.adminToken, secrets.clusterSecret and secrets.tokenKey are all required" -}}
{{- end -}}
{{- if lt (len .Values.secrets.adminToken) 32 -}}
{{- fail "secrets.adminToken must have 32 characters or more: a server on 0.0.0.0 refuses a weak administrator token" -}}
{{- end -}}
{{- if lt (len .Values.secrets.clusterSecret) 16 -}}
{{- fail "secrets.clusterSecret must have 16 characters or more" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The S3 settings a worker reads from its environment (the server gives it only the store's URL). */}}
{{- define "tributary.workerS3Env" -}}
{{- $region := default .Values.region .Values.config.s3.region -}}
{{- if $region }}
- name: AWS_REGION
  value: {{ $region | quote }}
{{- end }}
{{- if .Values.config.s3.endpoint }}
- name: TRIBUTARY_S3_ENDPOINT
  value: {{ .Values.config.s3.endpoint | quote }}
{{- end }}
{{- if .Values.config.s3.pathStyle }}
- name: TRIBUTARY_S3_PATH_STYLE
  value: "true"
{{- end }}
{{- end -}}
