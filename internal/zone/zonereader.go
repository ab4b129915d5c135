package zone

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/miekg/dns"
)

// zoneReader reads the records of a zone file with the line each starts on,
// and goes on past a record it cannot read: miekg/dns's parser stops at its
// first error, so the reader starts a new one after the record that failed,
// carrying what the file had set by then ($ORIGIN, $TTL and the owner a
// line without one inherits). Real files hold types and syntax the parser
// does not take (a GPOS, a WKS); one such line must not refuse the file.
type zoneReader struct {
	text string
	apex string // the origin of the file's first line
	// each receives every record read, with its first line, and says
	// whether to read on.
	each func(rr dns.RR, line int) bool
	// bad receives every record that cannot be read: its line and the
	// parser's error, reworded (see parseError).
	bad func(line int, err error)
}

// maxUnreadable bounds the records a file may hold that cannot be read:
// past it, read stops, and the file is not worth importing in part.
const maxUnreadable = MaxRecordsPerDomain

// read reads the whole file, or up to where each says to stop. It reports
// whether it read to the end (false past maxUnreadable records it could
// not read). Each part of the text is scanned a bounded number of times.
func (r zoneReader) read() bool {
	start, startLine0, prefix := 0, 1, ""
	st := directives{origin: r.apex}
	unreadable, lines := 0, strings.Count(r.text, "\n")+1
	for start < len(r.text) {
		src := &byteCounter{prefix: prefix, text: r.text, off: start}
		zp := dns.NewZoneParser(src, r.apex, "")
		zp.SetDefaultTTL(DefaultTTL)
		// $INCLUDE stays disallowed (the default): it would read server files.
		prevEnd, prevLine, owner := start, startLine0, st.owner
		for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
			if !r.each(rr, startLine(r.text, prevEnd, src.off, prevLine)) {
				return true
			}
			prevLine += strings.Count(r.text[prevEnd:src.off], "\n")
			prevEnd, owner = src.off, rr.Header().Name
		}
		err := zp.Err()
		if err == nil {
			return true
		}
		// The record that failed starts on the first line after the last
		// one read that holds a record, or on the directive the parser
		// names (a directive is no record). The parser counts lines from
		// the start of what it read: the prefix, then the file from start.
		failed := startLine(r.text, prevEnd, len(r.text), prevLine)
		line, msg := parseError(err)
		if line > 0 {
			line += startLine0 - 1 - strings.Count(prefix, "\n")
		}
		if line < prevLine || line > lines {
			line = failed
		}
		if unreadable++; unreadable > maxUnreadable {
			return false
		}
		r.bad(line, msg)
		first := min(failed, line)
		recordStart := lineOffset(r.text, prevEnd, prevLine, first)
		next, nextLine := endOfRecord(r.text, recordStart, first, line)
		if next >= len(r.text) {
			return true
		}
		st.scan(r.text[start:next])
		st.owner = owner
		if l := r.text[recordStart:next]; l[0] != ' ' && l[0] != '\t' && l[0] != '$' {
			if f := strings.Fields(l); len(f) > 0 {
				st.owner = absolute(f[0], st.origin) // the owner of the record that failed
			}
		}
		prefix = st.prefix(r.text[next:])
		start, startLine0 = next, nextLine
	}
	return true
}

// directives is what a zone file has set at a point: its $ORIGIN, its
// $TTL and the owner a record line without one inherits.
type directives struct {
	origin, ttl, owner string
}

// scan follows the $ORIGIN and $TTL lines of text.
func (d *directives) scan(text string) {
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "$") {
			continue
		}
		f := strings.Fields(stripComment(l))
		switch {
		case len(f) >= 2 && strings.EqualFold(f[0], "$ORIGIN"):
			d.origin = absolute(f[1], d.origin)
		case len(f) >= 2 && strings.EqualFold(f[0], "$TTL"):
			d.ttl = f[1]
		}
	}
}

// prefix returns the text that makes a parser starting on rest read it as
// one reading the file whole would.
func (d directives) prefix(rest string) string {
	prefix := "$ORIGIN " + d.origin + "\n"
	if d.ttl != "" {
		prefix += "$TTL " + d.ttl + "\n"
	}
	if rest != "" && (rest[0] == ' ' || rest[0] == '\t') && d.owner != "" {
		prefix += d.owner // the line's own blanks follow
	}
	return prefix
}

// startLine returns the number of the first line in text[from:to] that holds
// a record (not blank, not only a comment, not a $ directive); fromLine is
// the number of the line at from.
func startLine(text string, from, to, fromLine int) int {
	line := fromLine
	for from < to {
		end := strings.IndexByte(text[from:to], '\n')
		if end < 0 {
			end = to - from
		}
		l := strings.TrimSpace(text[from : from+end])
		if l != "" && l[0] != ';' && l[0] != '$' {
			return line
		}
		from += end + 1
		line++
	}
	return line
}

// absolute returns name ("www", "@", "www.example.com.") as a fully
// qualified name under origin.
func absolute(name, origin string) string {
	switch {
	case name == "@":
		return origin
	case strings.HasSuffix(name, ".") && !strings.HasSuffix(name, `\.`):
		return name
	case origin == ".":
		return name + "."
	}
	return name + "." + origin
}

// endOfRecord returns the offset just past the record that starts at offset
// from (line fromLine) and failed on line failedLine, and the number of the
// line there: the end of that line, or further while the record's
// parentheses stay open.
func endOfRecord(text string, from, fromLine, failedLine int) (int, int) {
	line, depth := fromLine, 0
	for off := from; off < len(text); line++ {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			return len(text), line
		}
		depth += parenDepth(text[off : off+end])
		off += end + 1
		if line >= failedLine && depth <= 0 {
			return off, line + 1
		}
	}
	return len(text), line
}

// parenDepth returns how far a zone file line opens parentheses (negative
// when it closes them), outside quoted strings and comments.
func parenDepth(line string) int {
	depth, quoted := 0, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ';':
			return depth
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
	}
	return depth
}

// stripComment returns line without its comment (outside quoted strings).
func stripComment(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			quoted = !quoted
		case ';':
			if !quoted {
				return line[:i]
			}
		}
	}
	return line
}

// lineOffset returns the offset of the start of line n of text, counting
// from offset from, which starts line fromLine (n >= fromLine).
func lineOffset(text string, from, fromLine, n int) int {
	off := from
	for ; fromLine < n; fromLine++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

var parseErrorText = regexp.MustCompile(`^dns: (.*): "(.*)" at line: (\d+):\d+$`)

// typeMnemonic is what a record type's name looks like (WKS, NSAP-PTR).
var typeMnemonic = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]{0,15}$`)

// parseError rewords a miekg/dns parse error for a user ("bad A A:
// "1.2.3"") and returns the line the parser gives it (0 when it gives
// none).
func parseError(err error) (int, error) {
	if m := parseErrorText.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[3])
		if m[1] == "not a TTL" && typeMnemonic.MatchString(m[2]) {
			// A type the parser does not know is read where a TTL may stand.
			return line, unsupportedType(strings.ToUpper(m[2]))
		}
		if f := strings.Fields(m[1]); len(f) >= 2 && f[0] == "bad" && typeMnemonic.MatchString(f[1]) &&
			dns.StringToType[f[1]] != 0 && !slices.Contains(Types, f[1]) {
			// A type Nameport does not serve that the parser cannot read
			// either: its type is what matters.
			return line, unsupportedType(f[1])
		}
		if m[2] == "" {
			return line, fmt.Errorf("cannot read the record: %s", m[1])
		}
		return line, fmt.Errorf("cannot read the record: %s: %q", m[1], shorten(m[2]))
	}
	return 0, fmt.Errorf("cannot read the record: %s", shorten(strings.TrimPrefix(err.Error(), "dns: ")))
}

// byteCounter feeds the zone parser one byte at a time, so that the offset
// it has read to says which lines held the record it returned (the parser
// reads a record up to and including its final newline, and no further).
// The prefix is read first; off counts in text only.
type byteCounter struct {
	prefix string
	text   string
	off    int
}

func (c *byteCounter) ReadByte() (byte, error) {
	if c.prefix != "" {
		b := c.prefix[0]
		c.prefix = c.prefix[1:]
		return b, nil
	}
	if c.off >= len(c.text) {
		return 0, io.EOF
	}
	c.off++
	return c.text[c.off-1], nil
}

func (c *byteCounter) Read(p []byte) (int, error) {
	if c.prefix != "" {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	if c.off >= len(c.text) {
		return 0, io.EOF
	}
	n := copy(p, c.text[c.off:])
	c.off += n
	return n, nil
}
