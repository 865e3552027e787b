{{/*
The Kubernetes worker pool (workerPool.kubernetes.enabled): the leading server replica creates worker
pods for each job's attempt and deletes them when it ends (server --workers kubernetes[:N]), instead of
the worker Deployment. The pods belong to the server Deployment, not to one replica, so the next leader
takes their attempts over.
*/}}

{{/* The labels NetworkPolicies select the pool's pods by: the name label the pool gives every worker
pod (WorkerPods.NAME_LABEL and NAME) and the release, one of the labels the chart asks for. */}}
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
{{- with int .Values.workerPool.kubernetes.maxPods }}
- {{ printf "kubernetes:%d" . | quote }}
{{- else }}
- kubernetes
{{- end }}
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
# the pods register through the Service of every replica's worker port: after a leader change they
# find the next leader, which takes their attempts over
- name: TRIBUTARY_WORKERS_KUBERNETES_CONTROL_PLANE
  value: {{ printf "%s-control:%d" (include "tributary.fullname" .) (int .Values.server.workerPort) | quote }}
# the pool is the release's, the same on every replica; its pods belong to the server Deployment
- name: TRIBUTARY_WORKERS_KUBERNETES_POOL_ID
  value: {{ include "tributary.fullname" . | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_OWNER_DEPLOYMENT
  value: {{ printf "%s-server" (include "tributary.fullname" .) | quote }}
- name: TRIBUTARY_WORKERS_KUBERNETES_LABELS
  value: {{ include "tributary.poolLabels" . | quote }}
- name: TRIBUTARY_WORKER_JAVA_OPTS
  value: {{ $p.javaOpts | quote }}
{{- end -}}
