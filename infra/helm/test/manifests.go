// Package chart checks the manifests the Tributary Helm chart renders against the Kubernetes API's
// own types (k8s.io/api, decoded strictly by k8s.io/apimachinery: an unknown field, a wrong type or
// an unregistered kind is an error), then checks what the API server would refuse or what would
// not work once applied: names and labels, selectors that select nothing (the pods of the chart's
// Deployments, and those the server's Kubernetes worker pool creates), ports, volumes, Secrets,
// ConfigMaps and ServiceAccounts referred to but not there.
package chart

import (
	"fmt"
	"regexp"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes/scheme"
)

// Manifests are the decoded documents of one rendering, in order.
type Manifests struct {
	Objects []runtime.Object
}

var separator = regexp.MustCompile(`(?m)^---[ \t]*$`)

var envReference = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// Decode decodes every document of a multi-document YAML stream strictly into its typed object.
func Decode(stream string) (*Manifests, error) {
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	m := &Manifests{}
	for i, doc := range separator.Split(stream, -1) {
		if onlyComments(doc) {
			continue
		}
		obj, _, err := strict.Decode([]byte(doc), nil, nil)
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, source(doc), err)
		}
		m.Objects = append(m.Objects, obj)
	}
	return m, nil
}

func onlyComments(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

func source(doc string) string {
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "# Source: ") {
			return strings.TrimPrefix(line, "# Source: ")
		}
	}
	return "no source line"
}

// Of returns the objects of type T.
func Of[T runtime.Object](m *Manifests) []T {
	var out []T
	for _, o := range m.Objects {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// Named returns the object of type T called name, or nil.
func Named[T interface {
	runtime.Object
	GetName() string
}](m *Manifests, name string) T {
	var zero T
	for _, o := range Of[T](m) {
		if o.GetName() == name {
			return o
		}
	}
	return zero
}

// Check returns every problem found in m; externalSecrets are Secrets that exist outside the chart.
func (m *Manifests) Check(externalSecrets ...string) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	names := map[string]bool{}
	secrets := map[string]bool{}
	for _, s := range externalSecrets {
		secrets[s] = true
	}
	configMaps := map[string]bool{}
	accounts := map[string]bool{}
	roles := map[string]bool{}
	for _, o := range m.Objects {
		meta, err := metaOf(o)
		if err != nil {
			add("%T: %v", o, err)
			continue
		}
		kind := fmt.Sprintf("%T", o)
		id := kind + "/" + meta.Name
		if names[id] {
			add("%s rendered twice", id)
		}
		names[id] = true
		for _, e := range validation.IsDNS1123Subdomain(meta.Name) {
			add("%s: name: %s", id, e)
		}
		if meta.Namespace != "" {
			add("%s: sets its namespace; helm install -n decides it", id)
		}
		problems = append(problems, checkLabels(id, meta.Labels, meta.Annotations)...)
		switch t := o.(type) {
		case *corev1.Secret:
			secrets[t.Name] = true
		case *corev1.ConfigMap:
			configMaps[t.Name] = true
		case *corev1.ServiceAccount:
			accounts[t.Name] = true
		case *rbacv1.Role:
			roles[t.Name] = true
		case *corev1.Service:
			for _, e := range validation.IsDNS1035Label(t.Name) {
				add("%s: a Service's name must be a DNS-1035 label: %s", id, e)
			}
		}
	}
	deployments := Of[*appsv1.Deployment](m)
	for _, d := range deployments {
		id := "Deployment/" + d.Name
		if d.Spec.Replicas == nil {
			add("%s: no replicas", id)
		}
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil || d.Spec.Selector == nil || sel.Empty() {
			add("%s: no usable selector (%v)", id, err)
		} else if !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
			add("%s: the selector %s does not select its own pods %v", id, sel, d.Spec.Template.Labels)
		}
		problems = append(problems, checkLabels(id+" pod template", d.Spec.Template.Labels, d.Spec.Template.Annotations)...)
		problems = append(problems, checkPod(id, &d.Spec.Template.Spec, secrets, configMaps, accounts)...)
	}
	for _, s := range Of[*corev1.Service](m) {
		id := "Service/" + s.Name
		pods := selected(deployments, labels.SelectorFromSet(s.Spec.Selector), len(s.Spec.Selector) == 0)
		if len(pods) == 0 {
			add("%s: the selector %v selects no pods of the chart", id, s.Spec.Selector)
		}
		for _, p := range s.Spec.Ports {
			if p.Port < 1 || p.Port > 65535 {
				add("%s: port %d", id, p.Port)
			}
			for _, d := range pods {
				if !hasPort(&d.Spec.Template.Spec, p.TargetPort) {
					add("%s: target port %s is no container port of Deployment/%s", id, p.TargetPort.String(), d.Name)
				}
			}
		}
	}
	pool := m.PoolPods()
	for _, n := range Of[*networkingv1.NetworkPolicy](m) {
		id := "NetworkPolicy/" + n.Name
		sel, err := metav1.LabelSelectorAsSelector(&n.Spec.PodSelector)
		if err != nil || sel.Empty() || !selectsPods(deployments, pool, sel) {
			add("%s: the pod selector selects no pods of the chart (%v)", id, err)
		}
		for _, rule := range n.Spec.Ingress {
			for _, from := range rule.From {
				if from.PodSelector != nil && from.NamespaceSelector == nil {
					s, err := metav1.LabelSelectorAsSelector(from.PodSelector)
					if err != nil || !selectsPods(deployments, pool, s) {
						add("%s: an ingress rule admits pods %v the chart does not run", id, from.PodSelector.MatchLabels)
					}
				}
				if from.IPBlock != nil && !regexp.MustCompile(`^[0-9a-fA-F.:]+/[0-9]+$`).MatchString(from.IPBlock.CIDR) {
					add("%s: %q is not a CIDR", id, from.IPBlock.CIDR)
				}
			}
		}
	}
	for _, b := range Of[*policyv1.PodDisruptionBudget](m) {
		sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
		if err != nil || sel.Empty() || len(selected(deployments, sel, false)) == 0 {
			add("PodDisruptionBudget/%s: selects no pods of the chart", b.Name)
		}
	}
	for _, b := range Of[*rbacv1.RoleBinding](m) {
		if b.RoleRef.Kind != "Role" || !roles[b.RoleRef.Name] {
			add("RoleBinding/%s: binds %s %q, which the chart does not render", b.Name, b.RoleRef.Kind, b.RoleRef.Name)
		}
		for _, s := range b.Subjects {
			if s.Kind != "ServiceAccount" || !accounts[s.Name] {
				add("RoleBinding/%s: subject %s %q is not a ServiceAccount of the chart", b.Name, s.Kind, s.Name)
			}
		}
	}
	return problems
}

func metaOf(o runtime.Object) (*metav1.ObjectMeta, error) {
	if a, ok := o.(interface{ GetObjectMeta() metav1.Object }); ok {
		if om, ok := a.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return om, nil
		}
	}
	return nil, fmt.Errorf("no object metadata")
}

func checkLabels(id string, l, annotations map[string]string) []string {
	var problems []string
	for k, v := range l {
		for _, e := range validation.IsQualifiedName(k) {
			problems = append(problems, fmt.Sprintf("%s: label key %q: %s", id, k, e))
		}
		for _, e := range validation.IsValidLabelValue(v) {
			problems = append(problems, fmt.Sprintf("%s: label %s value %q: %s", id, k, v, e))
		}
	}
	for k := range annotations {
		for _, e := range validation.IsQualifiedName(strings.ToLower(k)) {
			problems = append(problems, fmt.Sprintf("%s: annotation key %q: %s", id, k, e))
		}
	}
	return problems
}

func checkPod(id string, p *corev1.PodSpec, secrets, configMaps, accounts map[string]bool) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if p.ServiceAccountName != "" && p.ServiceAccountName != "default" && !accounts[p.ServiceAccountName] {
		add("%s: ServiceAccount %q is not rendered", id, p.ServiceAccountName)
	}
	volumes := map[string]bool{}
	for _, v := range p.Volumes {
		for _, e := range validation.IsDNS1123Label(v.Name) {
			add("%s: volume %q: %s", id, v.Name, e)
		}
		volumes[v.Name] = true
		if v.ConfigMap != nil && !configMaps[v.ConfigMap.Name] {
			add("%s: volume %s mounts ConfigMap %q, which is not rendered", id, v.Name, v.ConfigMap.Name)
		}
		if v.Secret != nil && !secrets[v.Secret.SecretName] {
			add("%s: volume %s mounts Secret %q, which does not exist", id, v.Name, v.Secret.SecretName)
		}
	}
	if len(p.Containers) == 0 {
		add("%s: no containers", id)
	}
	for _, c := range p.Containers {
		cid := id + " container " + c.Name
		for _, e := range validation.IsDNS1123Label(c.Name) {
			add("%s: name: %s", cid, e)
		}
		if strings.TrimSpace(c.Image) == "" || strings.HasSuffix(c.Image, ":") {
			add("%s: image %q", cid, c.Image)
		}
		seen := map[string]bool{}
		for _, port := range c.Ports {
			if port.ContainerPort < 1 || port.ContainerPort > 65535 {
				add("%s: port %d", cid, port.ContainerPort)
			}
			if port.Name != "" {
				for _, e := range validation.IsValidPortName(port.Name) {
					add("%s: port name %q: %s", cid, port.Name, e)
				}
				if seen[port.Name] {
					add("%s: port name %q twice", cid, port.Name)
				}
				seen[port.Name] = true
			}
		}
		envs := map[string]bool{}
		for _, e := range c.Env {
			for _, msg := range validation.IsEnvVarName(e.Name) {
				add("%s: env %q: %s", cid, e.Name, msg)
			}
			if envs[e.Name] {
				add("%s: env %s set twice", cid, e.Name)
			}
			// Kubernetes expands $(NAME) only for a variable defined before; else it stays as it is
			for _, ref := range envReference.FindAllStringSubmatch(e.Value, -1) {
				if !envs[ref[1]] {
					add("%s: env %s refers to $(%s), which is not defined before it", cid, e.Name, ref[1])
				}
			}
			envs[e.Name] = true
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				ref := e.ValueFrom.SecretKeyRef
				if !secrets[ref.Name] {
					add("%s: env %s refers to Secret %q, which does not exist", cid, e.Name, ref.Name)
				}
				if ref.Key == "" {
					add("%s: env %s: no Secret key", cid, e.Name)
				}
			}
		}
		for _, vm := range c.VolumeMounts {
			if !volumes[vm.Name] {
				add("%s: mounts volume %q, which the pod does not have", cid, vm.Name)
			}
		}
		for what, probe := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe,
			"startup": c.StartupProbe} {
			if probe == nil {
				continue
			}
			var port *intstr.IntOrString
			if probe.HTTPGet != nil {
				port = &probe.HTTPGet.Port
			} else if probe.TCPSocket != nil {
				port = &probe.TCPSocket.Port
			}
			if port != nil && !containerHasPort(&c, *port) {
				add("%s: %s probe port %s is no port of the container", cid, what, port.String())
			}
		}
	}
	return problems
}

func selected(ds []*appsv1.Deployment, sel labels.Selector, empty bool) []*appsv1.Deployment {
	if empty {
		return nil
	}
	var out []*appsv1.Deployment
	for _, d := range ds {
		if sel.Matches(labels.Set(d.Spec.Template.Labels)) {
			out = append(out, d)
		}
	}
	return out
}

func hasPort(p *corev1.PodSpec, port intstr.IntOrString) bool {
	for i := range p.Containers {
		if containerHasPort(&p.Containers[i], port) {
			return true
		}
	}
	return false
}

func containerHasPort(c *corev1.Container, port intstr.IntOrString) bool {
	for _, cp := range c.Ports {
		if (port.Type == intstr.String && cp.Name == port.StrVal) || (port.Type == intstr.Int && cp.ContainerPort == port.IntVal) {
			return true
		}
	}
	return false
}
