package chart

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

const (
	chartDir  = "../tributary"
	repoRoot  = "../../.."
	release   = "trib"
	namespace = "streams"
	// the chart's resources are called <release>-<chart>-...
	prefix = release + "-tributary"
)

// helm runs the Helm binary $TRIBUTARY_HELM (scripts/test.sh builds and names it).
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	bin := os.Getenv("TRIBUTARY_HELM")
	if bin == "" {
		t.Fatal("TRIBUTARY_HELM is not set: run scripts/test.sh, which builds Helm and sets it")
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		return out.String() + errOut.String(), err
	}
	return out.String(), nil
}

func template(t *testing.T, args ...string) (string, error) {
	return helm(t, append([]string{"template", release, chartDir, "--namespace", namespace,
		"--kube-version", "1.30.0"}, args...)...)
}

// render renders the chart, decodes every manifest strictly and fails on any problem Check finds.
func render(t *testing.T, externalSecrets []string, args ...string) *Manifests {
	t.Helper()
	out, err := template(t, args...)
	if err != nil {
		t.Fatalf("helm template %v: %v\n%s", args, err, out)
	}
	m, err := Decode(out)
	if err != nil {
		t.Fatalf("rendered manifests do not decode as Kubernetes objects: %v", err)
	}
	if problems := m.Check(externalSecrets...); len(problems) > 0 {
		t.Fatalf("rendered manifests have problems:\n  %s", strings.Join(problems, "\n  "))
	}
	return m
}

func minimal(t *testing.T, args ...string) *Manifests {
	return render(t, []string{"tributary-secrets"}, append([]string{"-f", "values-minimal.yaml"}, args...)...)
}

func aws(t *testing.T, args ...string) *Manifests {
	return render(t, []string{"tributary-secrets"}, append([]string{"-f", chartDir + "/values-aws.yaml"}, args...)...)
}

func container(t *testing.T, d *appsv1.Deployment) corev1.Container {
	t.Helper()
	if d == nil {
		t.Fatal("Deployment not rendered")
	}
	if n := len(d.Spec.Template.Spec.Containers); n != 1 {
		t.Fatalf("Deployment/%s: %d containers, want 1", d.Name, n)
	}
	return d.Spec.Template.Spec.Containers[0]
}

// flag returns the value after --name in args.
func flag(t *testing.T, args []string, name string) string {
	t.Helper()
	i := slices.Index(args, name)
	if i < 0 || i+1 >= len(args) {
		t.Fatalf("%s missing from %v", name, args)
	}
	return args[i+1]
}

func env(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// serverConfig parses the rendered --config file.
func serverConfig(t *testing.T, m *Manifests) map[string]any {
	t.Helper()
	cm := Named[*corev1.ConfigMap](m, prefix+"-config")
	if cm == nil {
		t.Fatal("the server's ConfigMap is not rendered")
	}
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(cm.Data["tributary.yaml"]), &doc); err != nil {
		t.Fatalf("tributary.yaml does not parse: %v\n%s", err, cm.Data["tributary.yaml"])
	}
	return doc
}

// flatten turns the nested file into the server's dotted keys, as ServerConfiguration reads it.
func flatten(p string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			key := k
			if p != "" {
				key = p + "." + k
			}
			flatten(key, x, out)
		}
		return
	}
	out[p] = strings.TrimSpace(strings.Trim(strings.ReplaceAll(yamlScalar(v), "\n", ""), "\""))
}

func yamlScalar(v any) string {
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}

// javaStrings returns the string literals matched by re's first group in a file of the Java sources.
func javaStrings(t *testing.T, file string, re *regexp.Regexp) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatalf("reading %s: %v", file, err)
	}
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%s: nothing matches %s", file, re)
	}
	return out
}

// The server's configuration keys, from ServerConfiguration.KEYS.
func configKeys(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(repoRoot, "api/src/main/java/io/tributary/boot/ServerConfiguration.java"))
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)KEYS = List\.of\((.*?)\);`).FindStringSubmatch(string(b))
	if list == nil {
		t.Fatal("ServerConfiguration.KEYS not found")
	}
	var keys []string
	for _, m := range regexp.MustCompile(`"(tributary\.[a-z.-]+)"`).FindAllStringSubmatch(list[1], -1) {
		keys = append(keys, m[1])
	}
	return keys
}

var optionName = regexp.MustCompile(`@Option\(names = "(--[a-z-]+)"`)

// checkFlags fails unless every --flag in args is an option of the picocli command in file.
func checkFlags(t *testing.T, args []string, file string) {
	t.Helper()
	known := javaStrings(t, file, optionName)
	for _, a := range args {
		if strings.HasPrefix(a, "--") && !slices.Contains(known, a) {
			t.Errorf("%s is not an option of %s (it has %v)", a, file, known)
		}
	}
}

func TestDefaultsAloneNameNoObjectStore(t *testing.T) {
	out, err := template(t)
	if err == nil {
		t.Fatal("the chart rendered without an object store; worker pods would have no state")
	}
	if !strings.Contains(out, "config.objectStore must be an s3://bucket/prefix URL") {
		t.Fatalf("unexpected failure: %s", out)
	}
}

func TestMinimalValuesRenderTheDefaults(t *testing.T) {
	m := minimal(t)
	server := Named[*appsv1.Deployment](m, prefix+"-server")
	workers := Named[*appsv1.Deployment](m, prefix+"-worker")
	sc, wc := container(t, server), container(t, workers)
	if *server.Spec.Replicas != 2 {
		t.Errorf("server replicas %d, want 2", *server.Spec.Replicas)
	}
	if *workers.Spec.Replicas != 2 {
		t.Errorf("worker replicas %d, want 2", *workers.Spec.Replicas)
	}

	// the server: the command line, checked against the picocli options of ServerCommand
	checkFlags(t, sc.Args, "api/src/main/java/io/tributary/cli/ServerCommand.java")
	if sc.Args[0] != "server" {
		t.Errorf("server args start %q", sc.Args[0])
	}
	for f, want := range map[string]string{"--config": "/etc/tributary/tributary.yaml", "--host": "0.0.0.0",
		"--port": "8080", "--workers": "external", "--worker-bind": "0.0.0.0", "--worker-port": "7077",
		"--data-dir": "/var/lib/tributary"} {
		if got := flag(t, sc.Args, f); got != want {
			t.Errorf("server %s %q, want %q", f, got, want)
		}
	}
	mounted := false
	for _, vm := range sc.VolumeMounts {
		if vm.MountPath == "/etc/tributary" && vm.Name == "config" {
			mounted = true
		}
	}
	if !mounted {
		t.Error("the config file's directory is not mounted")
	}
	for _, p := range []*corev1.Probe{sc.LivenessProbe, sc.ReadinessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/health" || p.HTTPGet.Port.StrVal != "http" {
			t.Errorf("server probe %+v, want GET /health on http", p)
		}
	}
	if a := server.Spec.Template.Annotations; a["prometheus.io/scrape"] != "true" || a["prometheus.io/path"] != "/metrics" ||
		a["prometheus.io/port"] != "8080" {
		t.Errorf("scrape annotations %v", a)
	}
	if e := env(sc, "TRIBUTARY_SERVER_ADVERTISED_URL"); e == nil || e.Value != "http://$(POD_IP):8080" ||
		slices.IndexFunc(sc.Env, func(v corev1.EnvVar) bool { return v.Name == "POD_IP" }) >
			slices.IndexFunc(sc.Env, func(v corev1.EnvVar) bool { return v.Name == "TRIBUTARY_SERVER_ADVERTISED_URL" }) {
		t.Errorf("advertised URL %+v must be the pod IP, defined after POD_IP", e)
	}

	// secrets: every reference names the existing Secret and a key the README documents
	wantKeys := map[string]string{"TRIBUTARY_ADMIN_TOKEN": "admin-token", "TRIBUTARY_CLUSTER_SECRET": "cluster-secret",
		"TRIBUTARY_TOKEN_KEY": "token-key", "TRIBUTARY_METRICS_TOKEN": "metrics-token"}
	for name, key := range wantKeys {
		e := env(sc, name)
		if e == nil || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			t.Errorf("server env %s is not from a Secret", name)
			continue
		}
		if r := e.ValueFrom.SecretKeyRef; r.Name != "tributary-secrets" || r.Key != key {
			t.Errorf("server env %s from %s/%s, want tributary-secrets/%s", name, r.Name, r.Key, key)
		}
	}
	if e := env(wc, "TRIBUTARY_CLUSTER_SECRET"); e == nil || e.ValueFrom.SecretKeyRef.Name != "tributary-secrets" ||
		e.ValueFrom.SecretKeyRef.Key != "cluster-secret" {
		t.Errorf("worker cluster secret %+v", e)
	}
	if env(wc, "TRIBUTARY_ADMIN_TOKEN") != nil || env(wc, "TRIBUTARY_TOKEN_KEY") != nil {
		t.Error("workers get the administrator token or the token key; they need only the cluster secret")
	}
	if len(Of[*corev1.Secret](m)) != 0 {
		t.Error("a Secret is rendered although secrets.existingSecret names one")
	}

	// workers register at the control Service's worker port
	checkFlags(t, wc.Args, "api/src/main/java/io/tributary/cli/WorkerCommand.java")
	if wc.Args[0] != "worker" {
		t.Errorf("worker args start %q", wc.Args[0])
	}
	control := Named[*corev1.Service](m, prefix+"-control")
	if control == nil || len(control.Spec.Ports) != 1 || control.Spec.Ports[0].Port != 7077 {
		t.Fatalf("control Service %+v, want port 7077", control)
	}
	if got, want := flag(t, wc.Args, "--control-plane"), prefix+"-control."+namespace+".svc:7077"; got != want {
		t.Errorf("--control-plane %q, want %q", got, want)
	}
	if flag(t, wc.Args, "--slots") != "4" || flag(t, wc.Args, "--data-port") != "7078" ||
		flag(t, wc.Args, "--bind") != "0.0.0.0" || flag(t, wc.Args, "--advertise") != "$(POD_IP)" {
		t.Errorf("worker args %v", wc.Args)
	}
	api := Named[*corev1.Service](m, prefix+"-api")
	if api == nil || api.Spec.Ports[0].Port != 8080 || api.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("API Service %+v", api)
	}

	// service accounts, RBAC off, a disruption budget for two replicas
	if server.Spec.Template.Spec.ServiceAccountName != prefix+"-server" ||
		workers.Spec.Template.Spec.ServiceAccountName != prefix+"-worker" {
		t.Error("pods do not run as the chart's ServiceAccounts")
	}
	if len(Of[*rbacv1.Role](m))+len(Of[*rbacv1.RoleBinding](m)) != 0 {
		t.Error("RBAC rendered although workerPool.kubernetes.enabled is false")
	}
	if len(Of[*policyv1.PodDisruptionBudget](m)) != 1 {
		t.Error("no PodDisruptionBudget for two server replicas")
	}
}

func TestNetworkPolicyAdmitsOnlyTheChartsTraffic(t *testing.T) {
	m := minimal(t)
	server := Named[*networkingv1.NetworkPolicy](m, prefix+"-server")
	worker := Named[*networkingv1.NetworkPolicy](m, prefix+"-worker")
	if server == nil || worker == nil {
		t.Fatal("NetworkPolicies not rendered by default")
	}
	component := func(p networkingv1.NetworkPolicyPeer) string {
		if p.PodSelector == nil || p.NamespaceSelector != nil {
			return ""
		}
		return p.PodSelector.MatchLabels["app.kubernetes.io/component"]
	}
	// workers: the data port, from workers only
	if r := worker.Spec.Ingress; len(r) != 1 || len(r[0].From) != 1 || component(r[0].From[0]) != "worker" ||
		len(r[0].Ports) != 1 || r[0].Ports[0].Port.IntVal != 7078 {
		t.Errorf("worker ingress %+v", r)
	}
	// servers: the worker port from workers; the API port from servers and networkPolicy.api.from
	r := server.Spec.Ingress
	if len(r) != 2 {
		t.Fatalf("server ingress %+v", r)
	}
	if len(r[0].From) != 1 || component(r[0].From[0]) != "worker" || r[0].Ports[0].Port.IntVal != 7077 {
		t.Errorf("control rule %+v", r[0])
	}
	if component(r[1].From[0]) != "server" || r[1].Ports[0].Port.IntVal != 8080 || len(r[1].From) != 2 ||
		r[1].From[1].NamespaceSelector == nil {
		t.Errorf("API rule %+v", r[1])
	}
	for _, p := range []*networkingv1.NetworkPolicy{server, worker} {
		if !slices.Equal(p.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) {
			t.Errorf("%s policy types %v", p.Name, p.Spec.PolicyTypes)
		}
	}

	m = minimal(t, "--set", "networkPolicy.api.from[0].ipBlock.cidr=10.20.0.0/16")
	from := Named[*networkingv1.NetworkPolicy](m, prefix+"-server").Spec.Ingress[1].From
	if len(from) != 2 || from[1].IPBlock == nil || from[1].IPBlock.CIDR != "10.20.0.0/16" {
		t.Errorf("API peers %+v, want the servers and 10.20.0.0/16", from)
	}

	m = minimal(t, "--set", "networkPolicy.enabled=false")
	if len(Of[*networkingv1.NetworkPolicy](m)) != 0 {
		t.Error("networkPolicy.enabled=false still renders NetworkPolicies")
	}
}

func TestAWSValuesPutS3AndDynamoDBIntoTheConfig(t *testing.T) {
	m := aws(t)
	flat := map[string]string{}
	flatten("", serverConfig(t, m), flat)
	want := map[string]string{
		"tributary.object-store":            "s3://tributary-state-123456789012/tributary",
		"tributary.metadata.store":          "dynamodb",
		"tributary.metadata.dynamodb.table": "tributary",
		"tributary.leader.lease-time":       "10s",
	}
	for k, v := range want {
		if flat[k] != v {
			t.Errorf("%s = %q, want %q", k, flat[k], v)
		}
	}
	keys := configKeys(t)
	for k := range flat {
		if !slices.Contains(keys, k) {
			t.Errorf("the config file sets %s, which the server refuses (known: %v)", k, keys)
		}
	}
	if _, ok := flat["tributary.token-key"]; ok {
		t.Error("the token key is in the ConfigMap; it belongs in the Secret")
	}
	server := Named[*appsv1.Deployment](m, prefix+"-server")
	workers := Named[*appsv1.Deployment](m, prefix+"-worker")
	if *workers.Spec.Replicas != 3 || flag(t, container(t, server).Args, "--allow-endpoints") == "" {
		t.Error("values-aws.yaml's workers.replicas or server.allowEndpoints are not applied")
	}
	for _, d := range []*appsv1.Deployment{server, workers} {
		c := container(t, d)
		if e := env(c, "AWS_REGION"); e == nil || e.Value != "eu-west-1" {
			t.Errorf("%s: AWS_REGION %+v", d.Name, e)
		}
		if !strings.HasPrefix(c.Image, "123456789012.dkr.ecr.eu-west-1.amazonaws.com/tributary:") {
			t.Errorf("%s: image %s", d.Name, c.Image)
		}
	}
	for name, role := range map[string]string{"tributary-server": "arn:aws:iam::123456789012:role/tributary-server",
		"tributary-worker": "arn:aws:iam::123456789012:role/tributary-worker"} {
		sa := Named[*corev1.ServiceAccount](m, name)
		if sa == nil || sa.Annotations["eks.amazonaws.com/role-arn"] != role {
			t.Errorf("ServiceAccount %s: %+v, want role %s", name, sa, role)
		}
	}
	if server.Spec.Template.Spec.ServiceAccountName != "tributary-server" ||
		workers.Spec.Template.Spec.ServiceAccountName != "tributary-worker" {
		t.Error("pods do not run as the named ServiceAccounts")
	}
}

func TestS3CompatibleSettingsReachServerAndWorkers(t *testing.T) {
	m := minimal(t, "--set", "config.s3.endpoint=http://minio.storage:9000", "--set", "config.s3.pathStyle=true",
		"--set", "config.s3.region=us-east-2", "--set", "region=eu-central-1",
		"--set", "config.metadata.dynamodb.endpoint=http://dynamodb-local:8000")
	flat := map[string]string{}
	flatten("", serverConfig(t, m), flat)
	for k, v := range map[string]string{"tributary.s3.endpoint": "http://minio.storage:9000", "tributary.s3.path-style": "true",
		"tributary.s3.region": "us-east-2", "tributary.metadata.dynamodb.endpoint": "http://dynamodb-local:8000"} {
		if flat[k] != v {
			t.Errorf("%s = %q, want %q", k, flat[k], v)
		}
	}
	// workers learn only the store's URL from the server: the S3 settings come from their environment
	wc := container(t, Named[*appsv1.Deployment](m, prefix+"-worker"))
	for k, v := range map[string]string{"TRIBUTARY_S3_ENDPOINT": "http://minio.storage:9000", "TRIBUTARY_S3_PATH_STYLE": "true",
		"AWS_REGION": "us-east-2"} {
		if e := env(wc, k); e == nil || e.Value != v {
			t.Errorf("worker %s = %+v, want %q", k, e, v)
		}
	}
	sc := container(t, Named[*appsv1.Deployment](m, prefix+"-server"))
	if e := env(sc, "AWS_REGION"); e == nil || e.Value != "eu-central-1" {
		t.Errorf("server AWS_REGION %+v, want the region value (DynamoDB's default)", e)
	}
}

func TestSecretCreatedFromValues(t *testing.T) {
	admin := strings.Repeat("abcdefghijklmnop", 3)
	m := render(t, nil, "--set", "config.objectStore=s3://b/p", "--set", "secrets.adminToken="+admin,
		"--set", "secrets.clusterSecret=trc_0123456789abcdef", "--set", "secrets.tokenKey=a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=")
	s := Named[*corev1.Secret](m, prefix+"-secrets")
	if s == nil {
		t.Fatal("no Secret rendered from the values")
	}
	if string(s.Data["admin-token"]) != admin || string(s.Data["cluster-secret"]) != "trc_0123456789abcdef" ||
		len(s.Data["token-key"]) == 0 {
		t.Errorf("Secret data %v", s.Data)
	}
	if _, ok := s.Data["metrics-token"]; ok {
		t.Error("metrics-token rendered although none was given")
	}
	// Check already verified every secretKeyRef names a rendered Secret; and the pods roll when it changes
	if Named[*appsv1.Deployment](m, prefix+"-server").Spec.Template.Annotations["checksum/secret"] == "" {
		t.Error("no checksum/secret annotation")
	}

	out, err := template(t, "--set", "config.objectStore=s3://b/p", "--set", "secrets.adminToken=short")
	if err == nil || !strings.Contains(out, "secrets.clusterSecret and secrets.tokenKey are all required") {
		t.Errorf("incomplete secrets rendered: %v %s", err, out)
	}
	out, err = template(t, "--set", "config.objectStore=s3://b/p", "--set", "secrets.adminToken=weak-token",
		"--set", "secrets.clusterSecret=trc_0123456789abcdef", "--set", "secrets.tokenKey=k")
	if err == nil || !strings.Contains(out, "32 characters or more") {
		t.Errorf("a weak administrator token rendered: %v %s", err, out)
	}
}

func TestKubernetesPoolRBAC(t *testing.T) {
	m := minimal(t, "--set", "workerPool.kubernetes.enabled=true")
	roles := Of[*rbacv1.Role](m)
	if len(roles) != 1 || len(roles[0].Rules) != 2 {
		t.Fatalf("roles %+v", roles)
	}
	r := roles[0].Rules[0]
	if !slices.Equal(r.APIGroups, []string{""}) || !slices.Equal(r.Resources, []string{"pods"}) ||
		!slices.Equal(r.Verbs, []string{"get", "list", "watch", "create", "delete"}) || len(r.ResourceNames) != 0 {
		t.Errorf("rule %+v, want pods: get list watch create delete", r)
	}
	// the owner of the pods (TRIBUTARY_WORKERS_KUBERNETES_OWNER_DEPLOYMENT), and nothing else
	d := roles[0].Rules[1]
	if !slices.Equal(d.APIGroups, []string{"apps"}) || !slices.Equal(d.Resources, []string{"deployments"}) ||
		!slices.Equal(d.Verbs, []string{"get"}) || !slices.Equal(d.ResourceNames, []string{prefix + "-server"}) ||
		Named[*appsv1.Deployment](m, prefix+"-server") == nil {
		t.Errorf("rule %+v, want get of the server Deployment %s-server", d, prefix)
	}
	b := Of[*rbacv1.RoleBinding](m)
	if len(b) != 1 || b[0].Subjects[0].Name != prefix+"-server" || b[0].Subjects[0].Namespace != namespace {
		t.Errorf("binding %+v, want the server's ServiceAccount in %s", b, namespace)
	}
}

func TestBrokenValuesFail(t *testing.T) {
	for _, c := range []struct{ flag, set, want string }{
		{"--set-string", "server.replicas=two", "at '/server/replicas': got string, want integer"},
		{"--set", "workers.slots=0", "at '/workers/slots': minimum"},
		{"--set", "server.apiPort=70000", "at '/server/apiPort': maximum"},
		{"--set", "image.pullPolicy=Sometimes", "at '/image/pullPolicy'"},
		{"--set", "server.serviceAccount.roleArn=tributary-server", "at '/server/serviceAccount/roleArn'"},
		{"--set-string", "config.leader.leaseTime=ten", "at '/config/leader/leaseTime'"},
		{"--set", "config.objectStore=file:///shared", "config.objectStore must be an s3://bucket/prefix URL"},
		{"--set", "config.metadata.store=embedded", "at '/config/metadata/store'"},
		{"--set-string", "config.metadata.dynamodb.table=", "config.metadata.dynamodb.table is required"},
		{"--set", "server.replica=3", "additional properties 'replica' not allowed"},
		{"--set", "workerPool.kubernetes.maxPods=5000", "at '/workerPool/kubernetes/maxPods': maximum"},
		{"--set", "workerPool.kubernetes.pods=2", "additional properties 'pods' not allowed"},
		{"--set", "workerPool.kubernetes.memoryPerSlot=1gig", "at '/workerPool/kubernetes/memoryPerSlot'"},
		{"--set", "workerPool.kubernetes.cpuPerSlot=half", "at '/workerPool/kubernetes/cpuPerSlot'"},
	} {
		out, err := template(t, "-f", "values-minimal.yaml", c.flag, c.set)
		if err == nil {
			t.Errorf("%s rendered:\n%.400s", c.set, out)
		} else if !strings.Contains(out, c.want) {
			t.Errorf("%s failed, but not saying %q:\n%s", c.set, c.want, out)
		}
	}
}

// The validator itself must catch what the API server would refuse: it is no rubber stamp.
func TestDecodeRefusesWhatTheAPIServerWould(t *testing.T) {
	out, err := template(t, "-f", "values-minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(string) string{
		"replicas as a string": func(s string) string { return strings.Replace(s, "replicas: 2", `replicas: "two"`, 1) },
		"an unknown field":     func(s string) string { return strings.Replace(s, "  replicas: 2", "  replica: 2", 1) },
		"a misspelt kind":      func(s string) string { return strings.Replace(s, "kind: NetworkPolicy", "kind: NetworkPolicies", 1) },
		"a bad quantity":       func(s string) string { return strings.Replace(s, "memory: 3Gi", "memory: 3 gigs", 1) },
	} {
		if _, err := Decode(edit(out)); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
	for name, edit := range map[string]func(string) string{
		"a Service selecting nothing": func(s string) string {
			return strings.Replace(s, "    app.kubernetes.io/component: server\n  ports:", "    app.kubernetes.io/component: nobody\n  ports:", 1)
		},
		"a missing Secret":    func(s string) string { return strings.ReplaceAll(s, "name: tributary-secrets", "name: other") },
		"a missing port name": func(s string) string { return strings.Replace(s, "port: http", "port: https", 1) },
		"a bad name":          func(s string) string { return strings.Replace(s, "name: "+prefix+"-api", "name: API_"+prefix, 1) },
		"an undefined $(VAR)": func(s string) string { return strings.Replace(s, "http://$(POD_IP):", "http://$(POD_ADDR):", 1) },
	} {
		m, err := Decode(edit(out))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if problems := m.Check("tributary-secrets"); len(problems) == 0 {
			t.Errorf("%s passed the checks", name)
		}
	}
}
