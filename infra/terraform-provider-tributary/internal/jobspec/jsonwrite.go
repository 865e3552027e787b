package jobspec

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// writeJSON writes a tree as compact JSON the way the server's Jackson ObjectMapper does, so that
// the canonical form hashes to the server's fingerprint byte for byte: no whitespace, strings
// with Jackson's escapes, doubles as Java's Double.toString writes them (1000.0, 1.0E7).
func writeJSON(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		sb.WriteString("null")
	case bool:
		sb.WriteString(strconv.FormatBool(x))
	case string:
		writeString(sb, x)
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case int:
		sb.WriteString(strconv.Itoa(x))
	case *big.Int:
		sb.WriteString(x.String())
	case float64:
		sb.WriteString(javaDouble(x))
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeJSON(sb, e)
		}
		sb.WriteByte(']')
	case *Object:
		sb.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeString(sb, k)
			sb.WriteByte(':')
			writeJSON(sb, x.values[k])
		}
		sb.WriteByte('}')
	default:
		panic("jobspec: unexpected value in tree")
	}
}

const upperHex = "0123456789ABCDEF"

// writeString escapes as Jackson does by default: '"' and '\\', the control characters with a
// short form (\b \t \n \f \r), the other ones below U+0020 as \u00XX (upper-case hex); everything
// else, non-ASCII included, as is.
func writeString(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\t':
			sb.WriteString(`\t`)
		case '\n':
			sb.WriteString(`\n`)
		case '\f':
			sb.WriteString(`\f`)
		case '\r':
			sb.WriteString(`\r`)
		default:
			if r < 0x20 {
				sb.WriteString(`\u00`)
				sb.WriteByte(upperHex[r>>4])
				sb.WriteByte(upperHex[r&0xF])
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
}

// javaDouble formats f as Java's Double.toString: plain notation with at least one fractional
// digit for 1e-3 <= |f| < 1e7, else scientific notation with an upper-case E and no '+'. The
// digits are the shortest that read back as f (Java 19 and later; Java 17 differs for a few rare
// values, which affects only the fingerprint's bytes, never which specs are equal).
func javaDouble(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mantissa, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mantissa, ".") {
		mantissa += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mantissa + "E" + strconv.Itoa(e)
}

// javaText is Jackson's asText() of a scalar: what a string map keeps of a number or boolean.
func javaText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case *big.Int:
		return x.String()
	case float64:
		return javaDouble(x)
	}
	return ""
}
