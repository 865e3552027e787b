{{/*
The Kubernetes worker pool (workerPool.kubernetes.enabled): each server replica keeps its worker
pods itself (server --workers kubernetes:N), instead of the worker Deployment.
*/}}

{{/* The labels NetworkPolicies select the pool's pods by: the name label the pool gives every worker
pod (KubernetesWorkers.NAME_LABEL and NAME) and the release, one of the labels the chart asks for. */}}
{{- define "tributary.poolSelectorLabels" -}}
app.kubernetes.io/name: tributary-worker
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The pool's further pod labels, as tributary.workers.kubernetes.labels takes them (k=v,k2=v2). */}}
{{- define "tributary.poolLabels" -}}
{{- printf "app.kubernetes.io/instance=%s,app.kubernetes.io/component=worker" .Release.Name -}}
{{- end -}}

{{/* The selector labels of the pods that run workers: the pool's, or the worker Deployment's. */}}
{{- define "tributary.workerPodLabels" -}}
{{- if .Values.workerPool.kubernetes.enabled -}}
{{ include "tributary.poolSelectorLabels" . }}
{{- else -}}
{{ include "tributary.selectorLabels" (dict "ctx" . "component" "worker") }}
{{- end -}}
{{- end -}}

{{/* The server's --workers and --worker-slots arguments. */}}
{{- define "tributary.workersArgs" -}}
- --workers
{{- if .Values.workerPool.kubernetes.enabled }}
- {{ printf "kubernetes:%d" (int .Values.workerPool.kubernetes.pods) | quote }}
- --worker-slots
- {{ .Values.workers.slots | quote }}
{{- else }}
- external
{{- end }}
{{- end -}}

{{/* The pool's settings, tributary.workers.kubernetes.* as environment variables of the server
(after POD_IP, which they refer to). */}}
{{- define "tributary.poolEnv" -}}
{{- $p := .Values.workerPool.kubernetes -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: TRIBUTARY_WORKERS_KUBERNETES_IMAGE
  value: {{ include "tributary.image" . | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_IMAGE_PULL_POLICY
  value: {{ .Values.image.pullPolicy | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_NAMESPACE
  value: $(POD_NAMESPACE)
# the workers' ServiceAccount: the bucket's IAM role, and the image's pull secrets
- name: TRIBUTARY_WORKERS_KUBERNETES_SERVICE_ACCOUNT
  value: {{ include "tributary.workerServiceAccount" . | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_SECRET_NAME
  value: {{ include "tributary.secretName" . | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_SECRET_KEY
  value: cluster-secret
- name: TRIBUTARY_WORKERS_KUBERNETES_CPU_PER_SLOT
  value: {{ $p.cpuPerSlot | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_MEMORY_PER_SLOT
  value: {{ $p.memoryPerSlot | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_DATA_PORT
  value: {{ .Values.workers.dataPort | quote }}
# the pods register at this replica's pod IP (and its worker port)
- name: TRIBUTARY_WORKERS_KUBERNETES_CONTROL_PLANE
  value: $(POD_IP)
# each replica keeps its own pods, named after it and deleted with its pod
- name: TRIBUTARY_WORKERS_KUBERNETES_SERVER_ID
  value: $(POD_NAME)
- name: TRIBUTARY_WORKERS_KUBERNETES_OWNER_POD
  value: $(POD_NAME)
- name: TRIBUTARY_WORKERS_KUBERNETES_LABELS
  value: {{ include "tributary.poolLabels" . | quote }}
- name: TRIBUTARY_WORKER_JAVA_OPTS
  value: {{ $p.javaOpts | quote }}
{{- end -}}
