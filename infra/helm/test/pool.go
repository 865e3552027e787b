package chart

import (
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The labels of the Kubernetes worker pool's pods (KubernetesWorkers.NAME_LABEL, NAME and
// SERVER_LABEL; pool_test.go checks them against the Java source).
const (
	poolNameLabel   = "app.kubernetes.io/name"
	poolName        = "tributary-worker"
	poolServerLabel = "tributary.io/server"
	// the server id's label value in PoolPods: each replica's pod name in a cluster
	poolServerStandIn = "trib-tributary-server-0"
	poolLabelsEnv     = "TRIBUTARY_WORKERS_KUBERNETES_LABELS"
)

// PoolPods returns the labels of the worker pods the chart's server Deployments keep through the
// Kubernetes API (server --workers kubernetes:N): the pool's own labels and those the server is
// given in TRIBUTARY_WORKERS_KUBERNETES_LABELS (k=v,k2=v2), with a stand-in server id.
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
			}
			set[poolNameLabel] = poolName
			set[poolServerLabel] = poolServerStandIn
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
