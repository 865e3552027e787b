package chart

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

const workerPods = "worker/kubernetes/src/main/java/io/tributary/worker/kubernetes/WorkerPods.java"

func pool(t *testing.T, args ...string) *Manifests {
	return minimal(t, append([]string{"--set", "workerPool.kubernetes.enabled=true"}, args...)...)
}

// envName is ServerConfiguration.envName: the environment variable of a configuration key.
func envName(key string) string {
	return strings.NewReplacer(".", "_", "-", "_").Replace(strings.ToUpper(key))
}

func TestPoolLabelsAreThoseWorkerPodsGivesItsPods(t *testing.T) {
	for name, want := range map[string]string{"NAME_LABEL": poolNameLabel, "NAME": poolName,
		"POOL_LABEL": poolPoolLabel, "JOB_LABEL": poolJobLabel, "ATTEMPT_LABEL": poolAttemptLabel} {
		got := javaStrings(t, workerPods, regexp.MustCompile(`String `+name+` = "([^"]+)"`))
		if got[0] != want {
			t.Errorf("WorkerPods.%s is %q; the chart's checks assume %q", name, got[0], want)
		}
	}
}

func TestKubernetesPoolWithoutALimitOfPods(t *testing.T) {
	sc := container(t, Named[*appsv1.Deployment](pool(t), prefix+"-server"))
	if got := flag(t, sc.Args, "--workers"); got != "kubernetes" {
		t.Errorf("server --workers %q, want kubernetes (maxPods 0: no limit)", got)
	}
}

func TestKubernetesPoolRunsTheWorkersFromTheServer(t *testing.T) {
	m := pool(t, "--set", "workerPool.kubernetes.maxPods=3", "--set", "workerPool.kubernetes.cpuPerSlot=250m",
		"--set", "workers.slots=2")
	if Named[*appsv1.Deployment](m, prefix+"-worker") != nil {
		t.Error("the worker Deployment is rendered although the server keeps the worker pods")
	}
	server := Named[*appsv1.Deployment](m, prefix+"-server")
	if *server.Spec.Replicas != 2 {
		t.Errorf("server replicas %d, want 2 (the leader lease)", *server.Spec.Replicas)
	}
	sc := container(t, server)
	checkFlags(t, sc.Args, "api/src/main/java/io/tributary/cli/ServerCommand.java")
	for f, want := range map[string]string{"--workers": "kubernetes:3", "--worker-slots": "2",
		"--worker-bind": "0.0.0.0", "--worker-port": "7077"} {
		if got := flag(t, sc.Args, f); got != want {
			t.Errorf("server %s %q, want %q", f, got, want)
		}
	}
	keys := map[string]bool{}
	for _, k := range configKeys(t) {
		keys[envName(k)] = true
	}
	for _, e := range sc.Env {
		if strings.HasPrefix(e.Name, "TRIBUTARY_WORKERS_KUBERNETES_") && !keys[e.Name] {
			t.Errorf("the server gets %s, which is no key of ServerConfiguration.KEYS", e.Name)
		}
	}
	want := map[string]string{"IMAGE": sc.Image, "IMAGE_PULL_POLICY": "IfNotPresent",
		"NAMESPACE": "$(POD_NAMESPACE)", "SERVICE_ACCOUNT": prefix + "-worker", "SECRET_NAME": "tributary-secrets",
		"SECRET_KEY": "cluster-secret", "CPU_PER_SLOT": "250m", "MEMORY_PER_SLOT": "768Mi", "DATA_PORT": "7078",
		"CONTROL_PLANE": prefix + "-control:7077", "POOL_ID": prefix, "OWNER_DEPLOYMENT": prefix + "-server",
		"LABELS": "app.kubernetes.io/instance=" + release + ",app.kubernetes.io/component=worker"}
	for k, v := range want {
		if e := env(sc, "TRIBUTARY_WORKERS_KUBERNETES_"+k); e == nil || e.Value != v {
			t.Errorf("TRIBUTARY_WORKERS_KUBERNETES_%s = %+v, want %q", k, e, v)
		}
	}
	for name, field := range map[string]string{"POD_IP": "status.podIP", "POD_NAMESPACE": "metadata.namespace"} {
		if e := env(sc, name); e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
			e.ValueFrom.FieldRef.FieldPath != field {
			t.Errorf("server env %s = %+v, want the downward API's %s", name, e, field)
		}
	}
	if e := env(sc, "TRIBUTARY_WORKER_JAVA_OPTS"); e == nil || e.Value != "-XX:MaxRAMPercentage=70" {
		t.Errorf("the pool's JVM options %+v", e)
	}
	if Named[*corev1.ServiceAccount](m, prefix+"-worker") == nil {
		t.Error("the workers' ServiceAccount, which the pool's pods run as, is not rendered")
	}
}

func TestKubernetesPoolNetworkPolicyAdmitsThePoolAndOnlyIt(t *testing.T) {
	m := pool(t)
	pods := m.PoolPods()
	if len(pods) != 1 {
		t.Fatalf("pool pods %v, want those of the one server Deployment", pods)
	}
	other := labels.Merge(pods[0], labels.Set{"app.kubernetes.io/instance": "another-release"})
	server := Named[*appsv1.Deployment](m, prefix+"-server").Spec.Template.Labels
	admitsOnlyThePool := func(what string, s *metav1.LabelSelector) {
		sel, err := metav1.LabelSelectorAsSelector(s)
		if err != nil || !sel.Matches(pods[0]) || sel.Matches(other) || sel.Matches(labels.Set(server)) {
			t.Errorf("%s: %v selects other pods than this release's pool %v (%v)", what, s, pods[0], err)
		}
	}
	onePeer := func(what string, r networkingv1.NetworkPolicyIngressRule, port int32) {
		if len(r.From) != 1 || r.From[0].PodSelector == nil || r.From[0].NamespaceSelector != nil ||
			len(r.Ports) != 1 || r.Ports[0].Port.IntVal != port {
			t.Errorf("%s: rule %+v, want the pool's pods on port %d", what, r, port)
			return
		}
		admitsOnlyThePool(what, r.From[0].PodSelector)
	}
	sp := Named[*networkingv1.NetworkPolicy](m, prefix+"-server")
	if len(sp.Spec.Ingress) != 2 {
		t.Fatalf("server ingress %+v", sp.Spec.Ingress)
	}
	onePeer("the server's worker port", sp.Spec.Ingress[0], 7077)
	wp := Named[*networkingv1.NetworkPolicy](m, prefix+"-worker")
	if wp == nil || len(wp.Spec.Ingress) != 1 {
		t.Fatalf("the pool's NetworkPolicy %+v", wp)
	}
	admitsOnlyThePool("the pool's pods", &wp.Spec.PodSelector)
	onePeer("the workers' data port", wp.Spec.Ingress[0], 7078)
}

func TestWorkersServiceAccountCarriesThePullSecrets(t *testing.T) {
	m := pool(t, "--set", "image.pullSecrets[0]=registry-login")
	sa := Named[*corev1.ServiceAccount](m, prefix+"-worker")
	if sa == nil || len(sa.ImagePullSecrets) != 1 || sa.ImagePullSecrets[0].Name != "registry-login" {
		t.Errorf("workers' ServiceAccount %+v, want the pull secret registry-login (the pool's pods name none)", sa)
	}
}

// The chart's default image is the one `mvn package` of infra/image writes, and the chart runs its
// entrypoint (the CLI), giving only arguments.
func TestDefaultImageIsTheOneInfraImageBuilds(t *testing.T) {
	version := javaStrings(t, "pom.xml", regexp.MustCompile(`<artifactId>tributary-parent</artifactId>\s*<version>([^<]+)<`))
	name := javaStrings(t, "infra/image/pom.xml", regexp.MustCompile(`<image.name>([^<]+)</image.name>`))
	built := strings.ReplaceAll(name[0], "${project.version}", version[0])
	for _, m := range []*Manifests{minimal(t), pool(t)} {
		for _, d := range Of[*appsv1.Deployment](m) {
			c := container(t, d)
			if c.Image != built || len(c.Command) != 0 || !slices.Contains([]string{"server", "worker"}, c.Args[0]) {
				t.Errorf("%s: image %q command %v args %v, want %s's entrypoint with server or worker arguments",
					d.Name, c.Image, c.Command, c.Args, built)
			}
		}
	}
}
