package jobspec

import (
	"bytes"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Render writes the spec the server holds (JSON) in the style of like, the text it replaces in
// Terraform's state: indented JSON if like is JSON, else YAML. Either way the document's order is
// kept, so a plan shows the difference line by line.
func Render(serverSpec string, like string) (string, error) {
	tree, err := ParseDocument(serverSpec)
	if err != nil {
		return "", err
	}
	if looksLikeJSON(like) {
		var sb strings.Builder
		writeIndented(&sb, tree, "")
		sb.WriteByte('\n')
		return sb.String(), nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	root := toYAML(tree)
	root.Style = 0 // the document itself in block style
	if err := enc.Encode(root); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func looksLikeJSON(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "{")
}

func writeIndented(sb *strings.Builder, v any, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			sb.WriteString("[]")
			return
		}
		sb.WriteString("[\n")
		for i, e := range x {
			sb.WriteString(inner)
			writeIndented(sb, e, inner)
			if i < len(x)-1 {
				sb.WriteByte(',')
			}
			sb.WriteByte('\n')
		}
		sb.WriteString(indent + "]")
	case *Object:
		if x.Len() == 0 {
			sb.WriteString("{}")
			return
		}
		sb.WriteString("{\n")
		for i, k := range x.Keys() {
			sb.WriteString(inner)
			writeString(sb, k)
			sb.WriteString(": ")
			e, _ := x.Get(k)
			writeIndented(sb, e, inner)
			if i < x.Len()-1 {
				sb.WriteByte(',')
			}
			sb.WriteByte('\n')
		}
		sb.WriteString(indent + "}")
	default:
		writeJSON(sb, v)
	}
}

func toYAML(v any) *yaml.Node {
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
	case *big.Int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: x.String()}
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: javaDouble(x)}
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, toYAML(e))
		}
		return flowIfSmall(n)
	case *Object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range x.Keys() {
			e, _ := x.Get(k)
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, toYAML(e))
		}
		return flowIfSmall(n)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// flowIfSmall writes a list or map of a few scalars on one line ({type: tumbling, size: 5s}), as
// specs are usually written, so that a plan's diff of a spec stays close to the user's text.
func flowIfSmall(n *yaml.Node) *yaml.Node {
	size := 0
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || strings.ContainsAny(c.Value, "\n") {
			return n
		}
		size += len(c.Value) + 2
	}
	if len(n.Content) > 0 && size <= 60 {
		n.Style = yaml.FlowStyle
	}
	return n
}
