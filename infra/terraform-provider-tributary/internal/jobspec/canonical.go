package jobspec

import "strconv"

// canonical builds what the server fingerprints: the job spec its parser makes of a document,
// written field by field in the order of the server's spec records (JobSpec, SourceSpec, ...),
// with its defaults filled in and durations in milliseconds. Maps (sources, sinks, select,
// aggregate, Kafka properties) keep document order, as the server does; the fields of every other
// object are written in record order, so their order in the document does not matter. Connector
// properties are kept as written (a datagen interval of 10s differs from 10000ms), in the order of
// the server's connector rules.
func canonical(root any) (*Object, error) {
	failed := &problem{}
	r := objectReader(root, "", failed)
	if r == nil {
		return nil, failed.err
	}
	out := NewObject()
	out.Set("name", r.requiredString("name"))
	out.Set("parallelism", parallelism(r))
	out.Set("maxParallelism", r.integer("maxParallelism"))
	out.Set("checkpoints", checkpoints(r.object("checkpoints")))
	out.Set("state", state(r.object("state")))
	out.Set("sources", keyed(r, "sources", source))
	out.Set("operators", operators(r))
	out.Set("sinks", keyed(r, "sinks", sink))
	// absent from the server's canonical form (not null) when the spec has no autoscaler block
	if a := autoscaler(r.object("autoscaler")); a != nil {
		out.Set("autoscaler", a)
	}
	// idleAfterMillis, absent when the spec does not say (the server's default then applies)
	if v := r.field("idleAfter"); v != nil {
		if text, ok := v.(string); ok && text == "off" {
			out.Set("idleAfterMillis", int64(0))
		} else if b, ok := v.(bool); ok {
			// YAML 1.1, as the server reads it, makes a bare off false
			if b {
				r.fail("idleAfter", "must be a duration such as 10m, or off")
			}
			out.Set("idleAfterMillis", int64(0))
		} else if ms, ok := r.duration("idleAfter", true, nil).(int64); ok {
			if ms < 1000 {
				r.fail("idleAfter", "must be at least 1s (or off)")
			}
			out.Set("idleAfterMillis", ms)
		}
	}
	r.rejectUnknown()
	if failed.err != nil {
		return nil, failed.err
	}
	return out, nil
}

func parallelismOf(initial, min, max int64) *Object {
	o := NewObject()
	o.Set("initial", initial)
	o.Set("min", min)
	o.Set("max", max)
	return o
}

func parallelism(r *reader) any {
	v := r.field("parallelism")
	if v == nil {
		return parallelismOf(1, 1, 1)
	}
	if _, isObject := v.(*Object); !isObject && isNumber(v) {
		p, ok := r.integer("parallelism").(int64)
		if !ok {
			p = 1
		}
		return parallelismOf(p, p, p)
	}
	o := objectReader(v, r.ptr("parallelism"), r.failed)
	if o == nil {
		return parallelismOf(1, 1, 1)
	}
	initial, hasInitial := o.integer("initial").(int64)
	min, hasMin := o.integer("min").(int64)
	max, hasMax := o.integer("max").(int64)
	o.rejectUnknown()
	i := int64(1)
	if hasInitial {
		i = initial
	} else if hasMin {
		i = min
	}
	if !hasMin {
		min = i
	}
	if !hasMax {
		max = i
	}
	return parallelismOf(i, min, max)
}

func checkpoints(o *reader) any {
	if o == nil {
		return nil
	}
	if !o.has("interval") {
		o.fail("interval", "is required")
	}
	interval := o.duration("interval", true, nil)
	mode := o.enum("mode", []string{"exactly-once", "at-least-once"}, "exactly-once")
	retain := o.integer("retain")
	if n, ok := retain.(int64); ok && (n < 1 || n > 100) {
		o.fail("retain", "must be between 1 and 100")
	}
	unaligned := false
	if v := o.field("unaligned"); v != nil {
		b, ok := v.(bool)
		if !ok {
			o.fail("unaligned", "must be true or false")
		} else if b && mode != "exactly-once" {
			o.fail("unaligned", "applies to exactly-once checkpoints only")
		}
		unaligned = ok && b
	}
	timeout := o.duration("alignmentTimeout", true, nil)
	if timeout != nil && !unaligned {
		o.fail("alignmentTimeout", "applies to unaligned checkpoints only")
	}
	o.rejectUnknown()
	out := NewObject()
	out.Set("intervalMillis", orDefault(interval, int64(0)))
	out.Set("mode", mode)
	out.Set("retain", orDefault(retain, int64(3)))
	// left out at their defaults, as the server's canonical form does
	if unaligned {
		out.Set("unaligned", true)
	}
	if n, ok := timeout.(int64); ok && n != 0 {
		out.Set("alignmentTimeoutMillis", n)
	}
	return out
}

// autoscaler is the server's AutoscalerSpec: the block with its defaults, nil when absent. Whether
// the parallelism is pinned is the server's to say (it refuses the spec then).
func autoscaler(o *reader) any {
	if o == nil {
		return nil
	}
	enabled := true
	if v := o.field("enabled"); v != nil {
		b, ok := v.(bool)
		if !ok {
			o.fail("enabled", "must be true or false")
		}
		enabled = b
	}
	target := 0.7
	if v := o.positiveNumber("targetUtilization"); v != nil {
		if f := v.(float64); f > 1 {
			o.fail("targetUtilization", "must be at most 1")
		} else {
			target = f
		}
	}
	band := 0.1
	if v := o.field("utilizationBand"); v != nil {
		f, ok := doubleValue(v)
		if !ok || f < 0 || f >= target {
			o.fail("utilizationBand", "must be a number from 0 up to, not including, the target utilization")
		} else {
			band = f
		}
	} else if band >= target {
		band = target / 2
	}
	window := o.duration("metricsWindow", true, int64(120_000))
	stabilization := o.duration("stabilization", false, int64(60_000))
	scaleDownDelay := o.duration("scaleDownDelay", false, int64(300_000))
	catchUp := o.duration("catchUpDuration", true, int64(300_000))
	limit := o.integer("maxDecisionsPerHour")
	if n, ok := limit.(int64); ok && (n < 1 || n > 60) {
		o.fail("maxDecisionsPerHour", "must be between 1 and 60")
	}
	o.rejectUnknown()
	out := NewObject()
	out.Set("enabled", enabled)
	out.Set("targetUtilization", target)
	out.Set("utilizationBand", band)
	out.Set("metricsWindowMillis", orDefault(window, int64(120_000)))
	out.Set("stabilizationMillis", orDefault(stabilization, int64(60_000)))
	out.Set("scaleDownDelayMillis", orDefault(scaleDownDelay, int64(300_000)))
	out.Set("catchUpDurationMillis", orDefault(catchUp, int64(300_000)))
	out.Set("maxDecisionsPerHour", orDefault(limit, int64(6)))
	return out
}

func state(o *reader) any {
	out := NewObject()
	if o == nil {
		out.Set("backend", "forst")
		return out
	}
	out.Set("backend", o.enum("backend", []string{"heap", "forst"}, "forst"))
	o.rejectUnknown()
	return out
}

// keyed reads sources or sinks: an object of id to entry, in document order.
func keyed(r *reader, field string, entry func(id string, e *reader) *Object) any {
	out := NewObject()
	if !r.has(field) {
		r.fail(field, "is required: declare at least one")
		return out
	}
	all := r.object(field)
	if all == nil {
		return out
	}
	for _, id := range all.obj.Keys() {
		e := objectReader(all.field(id), all.ptr(id), r.failed)
		if e != nil {
			out.Set(id, entry(id, e))
		}
	}
	return out
}

func source(id string, r *reader) *Object {
	typ := connectorType(r, sourceRules)
	format := r.enum("format", []string{"json"}, "json")
	eventTime := eventTimeOf(r.object("eventTime"))
	maxRate := r.positiveNumber("maxRecordsPerSecond")
	deadLetters := r.str("deadLetterOutput", nil)
	props := properties(r, typ, sourceRules)
	out := NewObject()
	out.Set("id", id)
	out.Set("type", typ)
	out.Set("format", format)
	out.Set("eventTime", eventTime)
	out.Set("maxRecordsPerSecond", maxRate)
	out.Set("deadLetterOutput", deadLetters)
	out.Set("properties", props)
	return out
}

func eventTimeOf(o *reader) any {
	if o == nil {
		return nil
	}
	field := o.requiredString("field")
	outOfOrderness := o.duration("maxOutOfOrderness", false, int64(0))
	idle := o.duration("idleTimeout", true, int64(0))
	o.rejectUnknown()
	out := NewObject()
	out.Set("field", field)
	out.Set("maxOutOfOrdernessMillis", orDefault(outOfOrderness, int64(0)))
	out.Set("idleTimeoutMillis", orDefault(idle, int64(0)))
	return out
}

func sink(id string, r *reader) *Object {
	input := r.requiredString("input")
	typ := connectorType(r, sinkRules)
	format := r.enum("format", []string{"json"}, "json")
	props := properties(r, typ, sinkRules)
	out := NewObject()
	out.Set("id", id)
	out.Set("input", input)
	out.Set("type", typ)
	out.Set("format", format)
	out.Set("properties", props)
	return out
}

func operators(r *reader) any {
	out := []any{}
	v := r.field("operators")
	if v == nil {
		return out
	}
	list, ok := v.([]any)
	if !ok {
		r.fail("operators", "must be a list of operators")
		return out
	}
	for i, e := range list {
		op := objectReader(e, childPointer(r.ptr("operators"), strconv.Itoa(i)), r.failed)
		if op != nil {
			out = append(out, operator(op))
		}
	}
	return out
}

func operator(r *reader) *Object {
	id := r.requiredString("id")
	join := joinOf(r.object("join"))
	union := r.stringList("union")
	input := inputOf(r, join != nil || r.has("join"), union)
	filter := r.str("filter", nil)
	sel := r.stringMap("select", false)
	keyBy := r.stringList("keyBy")
	window := windowOf(r.object("window"))
	aggregate := r.stringMap("aggregate", false)
	topN := topNOf(r.object("topN"))
	r.rejectUnknown()
	keys, _ := keyBy.([]any)
	out := NewObject()
	out.Set("id", id)
	out.Set("input", input)
	out.Set("filter", filter)
	out.Set("select", sel)
	out.Set("keyBy", keyBy)
	out.Set("window", window)
	out.Set("aggregate", aggregate)
	// union, join and topN: absent from the server's canonical form (not null) when not given
	if union != nil {
		out.Set("union", union)
	}
	if join != nil {
		out.Set("join", join)
	}
	if topN != nil {
		out.Set("topN", topN)
	}
	// OperatorSpec.isGlobalWindow(), which Jackson writes as a property too
	out.Set("globalWindow", window != nil && len(keys) == 0)
	return out
}

// inputOf is the operator's input: required unless a union or a join names its inputs, never with them.
func inputOf(r *reader, joins bool, union any) any {
	if joins {
		for _, f := range []string{"input", "union"} {
			if r.has(f) {
				r.fail(f, "a join reads its own inputs, join.left and join.right: remove %s", f)
			}
		}
		return nil
	}
	if union == nil && !r.has("union") {
		return r.requiredString("input")
	}
	if r.has("input") {
		r.fail("input", "an operator reads one input or a union of several, not both")
		return nil
	}
	if list, ok := union.([]any); ok && len(list) < 2 {
		r.fail("union", "must name at least two inputs")
	}
	return nil
}

var windowTypes = []string{"tumbling", "sliding", "session", "cumulate"}

func windowOf(o *reader) any {
	if o == nil {
		return nil
	}
	var typ any
	if o.has("type") {
		typ = o.enum("type", windowTypes, nil)
	} else {
		o.fail("type", "is required")
	}
	size := windowDuration(o, typ, "size", "tumbling", "sliding", "cumulate")
	slide := windowDuration(o, typ, "slide", "sliding")
	gap := windowDuration(o, typ, "gap", "session")
	step := windowDuration(o, typ, "step", "cumulate")
	lateness := o.duration("allowedLateness", false, int64(0))
	lateOutput := o.str("lateOutput", nil)
	o.rejectUnknown()
	if slide > size && size > 0 {
		o.fail("slide", "must not be longer than size")
	}
	if step > 0 && size > 0 && size%step != 0 {
		o.fail("step", "must divide size into equal steps")
	}
	out := NewObject()
	out.Set("type", typ)
	out.Set("sizeMillis", size)
	out.Set("slideMillis", slide)
	out.Set("gapMillis", gap)
	out.Set("allowedLatenessMillis", orDefault(lateness, int64(0)))
	out.Set("lateOutput", lateOutput)
	// WindowSpec.stepMillis: a cumulate window's only, absent for the others
	if typ == "cumulate" {
		out.Set("stepMillis", step)
	}
	return out
}

// windowDuration is a positive duration that windows of types require and others refuse; 0 if
// absent or wrong.
func windowDuration(o *reader, typ any, field string, types ...string) int64 {
	applies := typ == nil
	for _, t := range types {
		applies = applies || typ == t
	}
	if !applies {
		if o.has(field) {
			o.fail(field, "does not apply to a %v window", typ)
		}
		return 0
	}
	if typ != nil && !o.has(field) {
		o.fail(field, "is required for a %v window", typ)
		return 0
	}
	millis, _ := o.duration(field, true, int64(0)).(int64)
	return millis
}

func orDefault(v, def any) any {
	if v == nil {
		return def
	}
	return v
}

func isNumber(v any) bool {
	_, ok := doubleValue(v)
	return ok
}
