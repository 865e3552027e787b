package chart

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The Terraform in infra/terraform/aws cannot be validated here (tofu validate needs the AWS
// provider, which cannot be downloaded), so these tests read its HCL and check what must agree with
// the code: the table's key schema with DynamoItems, the IAM actions with the SDK calls of the
// stores, the service account names with the chart's AWS example.

const terraformDir = "../../terraform/aws"

type module struct {
	blocks []*hclsyntax.Block
}

func loadModule(t *testing.T) *module {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(terraformDir, "*.tf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .tf files in %s (%v)", terraformDir, err)
	}
	p := hclparse.NewParser()
	m := &module{}
	for _, f := range files {
		file, diags := p.ParseHCLFile(f)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", f, diags.Error())
		}
		m.blocks = append(m.blocks, file.Body.(*hclsyntax.Body).Blocks...)
	}
	return m
}

// block returns the top-level block of this type and labels.
func (m *module) block(t *testing.T, typ string, labels ...string) *hclsyntax.Block {
	t.Helper()
	for _, b := range m.blocks {
		if b.Type == typ && slices.Equal(b.Labels, labels) {
			return b
		}
	}
	t.Fatalf("no %s %v in %s", typ, labels, terraformDir)
	return nil
}

func (m *module) all(typ string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, b := range m.blocks {
		if b.Type == typ {
			out = append(out, b)
		}
	}
	return out
}

// literal evaluates an attribute that holds a constant (no references).
func literal(t *testing.T, b *hclsyntax.Block, name string) cty.Value {
	t.Helper()
	a, ok := b.Body.Attributes[name]
	if !ok {
		t.Fatalf("%s %v has no %s", b.Type, b.Labels, name)
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		t.Fatalf("%s %v: %s is not a constant: %s", b.Type, b.Labels, name, diags.Error())
	}
	return v
}

func hclSource(t *testing.T, b *hclsyntax.Block, name string) string {
	t.Helper()
	a, ok := b.Body.Attributes[name]
	if !ok {
		t.Fatalf("%s %v has no %s", b.Type, b.Labels, name)
	}
	r := a.Expr.Range()
	data, err := os.ReadFile(r.Filename)
	if err != nil {
		t.Fatal(err)
	}
	return string(r.SliceBytes(data))
}

func children(b *hclsyntax.Block, typ string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, c := range b.Body.Blocks {
		if c.Type == typ {
			out = append(out, c)
		}
		// dynamic "x" { content { ... } } counts as x
		if c.Type == "dynamic" && len(c.Labels) == 1 && c.Labels[0] == typ {
			for _, content := range c.Body.Blocks {
				if content.Type == "content" {
					out = append(out, content)
				}
			}
		}
	}
	return out
}

func strs(v cty.Value) []string {
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e.AsString())
	}
	return out
}

// granted returns the sorted actions of a policy document's Allow statements.
func granted(t *testing.T, doc *hclsyntax.Block) []string {
	var actions []string
	for _, s := range children(doc, "statement") {
		if e, ok := s.Body.Attributes["effect"]; ok {
			if v, _ := e.Expr.Value(nil); v.AsString() != "Allow" {
				continue
			}
		}
		actions = append(actions, strs(literal(t, s, "actions"))...)
	}
	sort.Strings(actions)
	return slices.Compact(actions)
}

// calls returns the SDK client methods a Java file calls (client.<method>(...)).
func calls(t *testing.T, file string) []string {
	t.Helper()
	names := javaStrings(t, file, regexp.MustCompile(`client\.([a-zA-Z0-9]+)\(`))
	sort.Strings(names)
	return slices.Compact(names)
}

func TestTerraformTableHasTheMetadataStoresLayout(t *testing.T) {
	m := loadModule(t)
	table := m.block(t, "resource", "aws_dynamodb_table", "metadata")
	items := "scheduler/src/main/java/io/tributary/scheduler/metadata/dynamo/DynamoItems.java"
	group := javaStrings(t, items, regexp.MustCompile(`static final String GROUP = "([^"]+)"`))[0]
	key := javaStrings(t, items, regexp.MustCompile(`static final String KEY = "([^"]+)"`))[0]
	if got := literal(t, table, "hash_key").AsString(); got != group {
		t.Errorf("hash_key %q, DynamoItems.GROUP is %q", got, group)
	}
	if got := literal(t, table, "range_key").AsString(); got != key {
		t.Errorf("range_key %q, DynamoItems.KEY is %q", got, key)
	}
	attrs := map[string]string{}
	for _, a := range children(table, "attribute") {
		attrs[literal(t, a, "name").AsString()] = literal(t, a, "type").AsString()
	}
	if len(attrs) != 2 || attrs[group] != "S" || attrs[key] != "S" {
		t.Errorf("attributes %v, want %s and %s as strings only", attrs, group, key)
	}
	if got := literal(t, table, "billing_mode").AsString(); got != "PAY_PER_REQUEST" {
		t.Errorf("billing_mode %s", got)
	}
	pitr := children(table, "point_in_time_recovery")
	if len(pitr) != 1 || hclSource(t, pitr[0], "enabled") != "var.point_in_time_recovery" ||
		literal(t, m.block(t, "variable", "point_in_time_recovery"), "default").True() != true {
		t.Error("point-in-time recovery is not on by default")
	}
	if len(children(table, "ttl"))+len(children(table, "global_secondary_index")) != 0 {
		t.Error("the store uses neither TTL nor indexes")
	}
}

func TestTerraformIAMGrantsWhatTheCodeCalls(t *testing.T) {
	m := loadModule(t)
	// DynamoDB: each call of DynamoMetadataStore is the action of its name
	var dynamo []string
	for _, c := range calls(t, "scheduler/src/main/java/io/tributary/scheduler/metadata/dynamo/DynamoMetadataStore.java") {
		if c == "close" {
			continue
		}
		dynamo = append(dynamo, "dynamodb:"+strings.ToUpper(c[:1])+c[1:])
	}
	sort.Strings(dynamo)
	metadata := m.block(t, "data", "aws_iam_policy_document", "metadata")
	statements := children(metadata, "statement")
	if got := strs(literal(t, statements[0], "actions")); !slices.Equal(sorted(got), dynamo) {
		t.Errorf("metadata actions %v, the store calls %v", got, dynamo)
	}
	// S3: the calls of S3ObjectStore and the action each needs
	need := map[string][]string{
		"putObject": {"s3:PutObject"}, "getObject": {"s3:GetObject"}, "getObjectAsBytes": {"s3:GetObject"},
		"headObject": {"s3:GetObject"}, "copyObject": {"s3:GetObject", "s3:PutObject"},
		"deleteObject": {"s3:DeleteObject"}, "listObjectsV2Paginator": {"s3:ListBucket"}, "listObjectsV2": {"s3:ListBucket"},
		"close": nil,
	}
	var s3 []string
	for _, c := range calls(t, "state-forst/forst/src/main/java/io/tributary/state/forst/store/S3ObjectStore.java") {
		actions, ok := need[c]
		if !ok {
			t.Errorf("S3ObjectStore calls %s: add the IAM action it needs to iam.tf and to this test", c)
		}
		s3 = append(s3, actions...)
	}
	sort.Strings(s3)
	s3 = slices.Compact(s3)
	objects := m.block(t, "data", "aws_iam_policy_document", "objects")
	var got []string
	for _, a := range granted(t, objects) {
		if !strings.HasPrefix(a, "kms:") {
			got = append(got, a)
		}
	}
	if !slices.Equal(got, s3) {
		t.Errorf("object actions %v, the store needs %v", got, s3)
	}
	for _, doc := range []*hclsyntax.Block{objects, metadata} {
		for _, a := range granted(t, doc) {
			if strings.Contains(a, "*") {
				t.Errorf("%v grants the wildcard %s", doc.Labels, a)
			}
		}
	}
	// object access under the prefix only
	for _, s := range children(objects, "statement") {
		if slices.Contains(strs(literal(t, s, "actions")), "s3:GetObject") && hclSource(t, s, "resources") != "[local.s3_objects]" {
			t.Errorf("object actions on %s, want [local.s3_objects] (the prefix)", hclSource(t, s, "resources"))
		}
	}
	// workers: the objects policy only
	for _, p := range m.all("resource") {
		if p.Labels[0] != "aws_iam_role_policy" && p.Labels[0] != "aws_iam_role_policy_attachment" {
			continue
		}
		if hclSource(t, p, "role") == "aws_iam_role.worker.id" && hclSource(t, p, "policy") != "data.aws_iam_policy_document.objects.json" {
			t.Errorf("the worker role gets %s; workers need the bucket only", hclSource(t, p, "policy"))
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

func TestTerraformTrustsTheChartsServiceAccounts(t *testing.T) {
	m := loadModule(t)
	var values map[string]any
	b, err := os.ReadFile(chartDir + "/values-aws.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &values); err != nil {
		t.Fatal(err)
	}
	name := func(component string) string {
		return values[component].(map[string]any)["serviceAccount"].(map[string]any)["name"].(string)
	}
	for variable, want := range map[string]string{"server_service_account": name("server"),
		"worker_service_account": name("workers")} {
		if got := literal(t, m.block(t, "variable", variable), "default").AsString(); got != want {
			t.Errorf("variable %s defaults to %q, values-aws.yaml names %q", variable, got, want)
		}
	}
	// installed as release "tributary" (infra/README.md), the chart's own names are the same
	out, err := helm(t, "template", "tributary", chartDir, "--kube-version", "1.30.0", "-f", "values-minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, sa := range []string{name("server"), name("workers")} {
		if Named[*corev1.ServiceAccount](rendered, sa) == nil {
			t.Errorf("release tributary renders no ServiceAccount %s", sa)
		}
	}
	assume := m.block(t, "data", "aws_iam_policy_document", "assume")
	s := children(assume, "statement")
	if len(s) != 1 || !slices.Equal(strs(literal(t, s[0], "actions")), []string{"sts:AssumeRoleWithWebIdentity"}) {
		t.Fatalf("trust policy statements %d", len(s))
	}
	var subs []string
	for _, c := range children(s[0], "condition") {
		subs = append(subs, hclSource(t, c, "variable")+" "+hclSource(t, c, "values"))
	}
	want := []string{`"${local.oidc_issuer}:sub" ["system:serviceaccount:${var.namespace}:${each.value}"]`,
		`"${local.oidc_issuer}:aud" ["sts.amazonaws.com"]`}
	if !slices.Equal(subs, want) {
		t.Errorf("trust conditions %q, want %q", subs, want)
	}
}

func TestTerraformBucketAndDocs(t *testing.T) {
	m := loadModule(t)
	pab := m.block(t, "resource", "aws_s3_bucket_public_access_block", "state")
	for _, a := range []string{"block_public_acls", "block_public_policy", "ignore_public_acls", "restrict_public_buckets"} {
		if !literal(t, pab, a).True() {
			t.Errorf("public access block %s is not true", a)
		}
	}
	m.block(t, "resource", "aws_s3_bucket_server_side_encryption_configuration", "state")
	lc := m.block(t, "resource", "aws_s3_bucket_lifecycle_configuration", "state")
	aborts := false
	for _, r := range children(lc, "rule") {
		if len(children(r, "abort_incomplete_multipart_upload")) == 1 {
			aborts = true
		}
		// no rule may expire current objects: no prefix holds only garbage (main.tf says why)
		if len(children(r, "expiration")) != 0 {
			t.Errorf("lifecycle rule %s expires current objects", hclSource(t, r, "id"))
		}
	}
	if !aborts {
		t.Error("no rule aborts incomplete multipart uploads")
	}
	for _, typ := range []string{"variable", "output"} {
		for _, b := range m.all(typ) {
			if _, ok := b.Body.Attributes["description"]; !ok || len(hclSource(t, b, "description")) < 12 {
				t.Errorf("%s %s has no description", typ, b.Labels[0])
			}
		}
	}
	for _, o := range []string{"bucket", "object_store_url", "table_name", "server_role_arn", "worker_role_arn", "region", "helm_values"} {
		m.block(t, "output", o)
	}
}
