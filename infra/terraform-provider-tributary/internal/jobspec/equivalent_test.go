package jobspec

import (
	"strings"
	"testing"
)

const base = `
name: job
parallelism: 2
checkpoints: {interval: 10s}
sources:
  a: {type: datagen, interval: 1s, eventTime: {field: ts, maxOutOfOrderness: 2s}}
  b: {type: nexmark, eventRate: 5}
operators:
  - {id: w, input: a, keyBy: key, window: {type: tumbling, size: 10s}, aggregate: {n: "count(*)", s: "sum(value)"}}
  - {id: f, input: b, filter: "price > 10", select: {auction: auction, price: price}}
sinks:
  x: {input: w, type: blackhole}
  y: {input: f, type: kafka, bootstrapServers: "k:9092", topic: t, properties: {acks: 1, linger.ms: "5"}}
`

func TestEquivalentIgnoresWhatTheServersFingerprintIgnores(t *testing.T) {
	cases := map[string]string{
		"reindented block style, comments, quoting": `
# the same job
name: "job"
parallelism: 2
checkpoints:
  interval: '10s'
sources:
  a:
    type: datagen
    interval: 1s
    eventTime:
      maxOutOfOrderness: 2000ms   # the same duration
      field: ts
  b: {type: nexmark, eventRate: 5}
operators:
  - id: w
    input: a
    keyBy: [key]
    window: {size: 10000, type: tumbling}
    aggregate:
      n: count(*)
      s: sum(value)
  - {filter: "price > 10", id: f, input: b, select: {auction: auction, price: price}}
sinks:
  x: {type: blackhole, input: w}
  y: {topic: t, type: kafka, bootstrapServers: "k:9092", input: f, properties: {acks: "1", linger.ms: 5}}
`,
		"JSON with top-level fields in another order and defaults written out": `{
  "sinks": {"x": {"input": "w", "type": "blackhole", "format": "json"},
            "y": {"input": "f", "type": "kafka", "topic": "t", "bootstrapServers": "k:9092", "properties": {"acks": 1, "linger.ms": 5}}},
  "operators": [
    {"id": "w", "input": "a", "keyBy": ["key"], "window": {"type": "tumbling", "size": "10s", "allowedLateness": 0}, "aggregate": {"n": "count(*)", "s": "sum(value)"}},
    {"id": "f", "input": "b", "filter": "price > 10", "select": {"auction": "auction", "price": "price"}}],
  "sources": {"a": {"type": "datagen", "interval": "1s", "eventTime": {"field": "ts", "maxOutOfOrderness": "2s", "idleTimeout": null}},
              "b": {"type": "nexmark", "eventRate": 5}},
  "state": {"backend": "forst"},
  "checkpoints": {"interval": "10s", "mode": "exactly-once", "retain": 3},
  "parallelism": {"initial": 2, "max": 2},
  "name": "job"
}`,
		"name left to the resource": `
parallelism: {initial: 2, min: 2, max: 2}
checkpoints: {interval: 10s}
sources:
  a: {type: datagen, interval: 1s, eventTime: {field: ts, maxOutOfOrderness: 2s}}
  b: {type: nexmark, eventRate: 5}
operators:
  - {id: w, input: a, keyBy: key, window: {type: tumbling, size: 10s}, aggregate: {n: "count(*)", s: "sum(value)"}}
  - {id: f, input: b, filter: "price > 10", select: {auction: auction, price: price}}
sinks:
  x: {input: w, type: blackhole}
  y: {input: f, type: kafka, bootstrapServers: "k:9092", topic: t, properties: {acks: 1, linger.ms: "5"}}
`,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			if !Equivalent(base, text, "job") {
				t.Errorf("not equivalent to the base spec:%s", text)
			}
		})
	}
}

func TestEquivalentSeesWhatTheServersFingerprintSees(t *testing.T) {
	cases := map[string][2]string{
		"sources reordered": {"  a: {type: datagen, interval: 1s, eventTime: {field: ts, maxOutOfOrderness: 2s}}\n  b: {type: nexmark, eventRate: 5}",
			"  b: {type: nexmark, eventRate: 5}\n  a: {type: datagen, interval: 1s, eventTime: {field: ts, maxOutOfOrderness: 2s}}"},
		"select fields reordered":                {"select: {auction: auction, price: price}", "select: {price: price, auction: auction}"},
		"aggregates reordered":                   {`aggregate: {n: "count(*)", s: "sum(value)"}`, `aggregate: {s: "sum(value)", n: "count(*)"}`},
		"connector duration written another way": {"interval: 1s", "interval: 1000ms"},
		"integer rate written as a float":        {"eventRate: 5}", "eventRate: 5.0}"},
		"window size changed":                    {"size: 10s", "size: 20s"},
		"parallelism changed":                    {"parallelism: 2", "parallelism: {initial: 2, max: 4}"},
		"default made explicit to another value": {"checkpoints: {interval: 10s}", "checkpoints: {interval: 10s, mode: at-least-once}"},
		"kafka property order":                   {`properties: {acks: 1, linger.ms: "5"}`, `properties: {linger.ms: "5", acks: 1}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			changed := replaceOnce(t, base, c[0], c[1])
			if Equivalent(base, changed, "job") {
				t.Errorf("equivalent, but the server would see a change:%s", changed)
			}
		})
	}
}

func TestTextsTheServerWouldRefuseAreEquivalentOnlyWhenIdentical(t *testing.T) {
	unknownField := replaceOnce(t, base, "parallelism: 2", "parallelism: 2\nretries: 3")
	if Equivalent(base, unknownField, "job") {
		t.Error("a spec with an unknown field must not be equivalent to one without")
	}
	if !Equivalent(unknownField, unknownField, "job") {
		t.Error("identical texts are equivalent")
	}
	wrongType := replaceOnce(t, base, `filter: "price > 10"`, "filter: 10")
	if Equivalent(base, wrongType, "job") {
		t.Error("a filter that is a number is refused by the server: not equivalent")
	}
	if Equivalent(base, "name: [", "job") {
		t.Error("malformed YAML is equivalent to nothing else")
	}
}

func TestParseInsertsTheJobNameAndRefusesAnotherOne(t *testing.T) {
	doc, err := Parse("sources: {s: {type: datagen}}\nsinks: {o: {input: s, type: blackhole}}", "trickle")
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.JSON(); got != `{"name":"trickle","sources":{"s":{"type":"datagen"}},"sinks":{"o":{"input":"s","type":"blackhole"}}}` {
		t.Errorf("JSON() = %s", got)
	}
	_, err = Parse("name: other\nsources: {}", "trickle")
	se, ok := err.(*ShapeError)
	if !ok || se.Pointer != "/name" {
		t.Fatalf("want a ShapeError at /name, got %v", err)
	}
}

func TestJSONKeepsFloatsFloatsAndOrder(t *testing.T) {
	doc, err := Parse("name: n\nz: 5.0\na: 5\nbig: 1.5e7\ns: \"5\"\nnull: ~\nlist: [true, x]", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"n","z":5.0,"a":5,"big":1.5E7,"s":"5","null":null,"list":[true,"x"]}`
	if got := doc.JSON(); got != want {
		t.Errorf("JSON() = %s, want %s", got, want)
	}
}

func TestJavaDouble(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 1: "1.0", 1000: "1000.0", 0.001: "0.001", 0.0001: "1.0E-4", 1e7: "1.0E7",
		2.5e7: "2.5E7", 123.456: "123.456", -0.5: "-0.5", 9999999: "9999999.0", 1.5e300: "1.5E300",
	} {
		if got := javaDouble(f); got != want {
			t.Errorf("javaDouble(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestRenderKeepsTheStyleOfThePriorTextAndTheMeaning(t *testing.T) {
	doc, err := Parse(base, "")
	if err != nil {
		t.Fatal(err)
	}
	serverJSON := doc.JSON()
	asYAML, err := Render(serverJSON, "name: job\n")
	if err != nil {
		t.Fatal(err)
	}
	if asYAML[0] == '{' || !Equivalent(base, asYAML, "job") {
		t.Errorf("YAML rendering lost the meaning or the style:\n%s", asYAML)
	}
	asJSON, err := Render(serverJSON, `{"name": "job"}`)
	if err != nil {
		t.Fatal(err)
	}
	if asJSON[0] != '{' || !Equivalent(base, asJSON, "job") {
		t.Errorf("JSON rendering lost the meaning or the style:\n%s", asJSON)
	}
	// a string that looks like a number stays a string
	quoted, err := Render(`{"name":"n","v":"5","w":5}`, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "name: n\nv: \"5\"\nw: 5\n"; quoted != want {
		t.Errorf("Render = %q, want %q", quoted, want)
	}
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	i := strings.Index(s, old)
	if i < 0 {
		t.Fatalf("%q not in the base spec", old)
	}
	return s[:i] + new + s[i+len(old):]
}
