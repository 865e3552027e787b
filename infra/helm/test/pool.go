package chart

import (
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The labels of the Kubernetes worker pool's pods (WorkerPods.NAME_LABEL, NAME, POOL_LABEL, JOB_LABEL
// and ATTEMPT_LABEL; pool_test.go checks them against the Java source).
const (
	poolNameLabel    = "app.kubernetes.io/name"
	poolName         = "tributary-worker"
	poolPoolLabel    = "tributary.io/pool"
	poolJobLabel     = "tributary.io/job"
	poolAttemptLabel = "tributary.io/attempt"
	poolIDEnv        = "TRIBUTARY_WORKERS_KUBERNETES_POOL_ID"
	poolLabelsEnv    = "TRIBUTARY_WORKERS_KUBERNETES_LABELS"
)

// PoolPods returns the labels of the worker pods the chart's server Deployments create through the
// Kubernetes API (server --workers kubernetes[:N]): the pool's own labels with its id from
// TRIBUTARY_WORKERS_KUBERNETES_POOL_ID and a stand-in job and attempt, and those the server is given
// in TRIBUTARY_WORKERS_KUBERNETES_LABELS (k=v,k2=v2).
func (m *Manifests) PoolPods() []labels.Set {
	var out []labels.Set
	for _, d := range Of[*appsv1.Deployment](m) {
		for _, c := range d.Spec.Template.Spec.Containers {
			i := slices.Index(c.Args, "--workers")
			if i < 0 || i+1 >= len(c.Args) || !strings.HasPrefix(c.Args[i+1], "kubernetes") {
				continue
			}
			set := labels.Set{}
			for _, e := range c.Env {
				if e.Name == poolLabelsEnv {
					for _, kv := range strings.Split(e.Value, ",") {
						if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok {
							set[k] = v
						}
					}
				}
				if e.Name == poolIDEnv {
					set[poolPoolLabel] = e.Value
				}
			}
			set[poolNameLabel] = poolName
			set[poolJobLabel] = "default--clicks"
			set[poolAttemptLabel] = "7"
			out = append(out, set)
		}
	}
	return out
}

// selectsPods reports whether sel selects the pods of a Deployment of ds or of a pool.
func selectsPods(ds []*appsv1.Deployment, pool []labels.Set, sel labels.Selector) bool {
	if len(selected(ds, sel, false)) > 0 {
		return true
	}
	return slices.ContainsFunc(pool, func(l labels.Set) bool { return sel.Matches(l) })
}
