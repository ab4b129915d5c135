package zone

//	go test ./internal/zone -run '^$' -fuzz '^FuzzParseZoneFile$' -fuzztime 60s -parallel 1

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
)

// FuzzParseZoneFile checks, for any text given as a zone file:
//   - parseZoneFile never panics and refuses with an invalid error whose
//     message is fit to show: not empty, and short even when the file's
//     text is long;
//   - what it accepts is at most MaxRecordsPerDomain records in stored
//     form, without duplicates, that serve the data the file says (names
//     and CAA tags ignoring case, TXT strings joined, an empty CAA issue
//     value as ";");
//   - exported again (the format of Service.Export) and re-imported, it
//     gives the same records, and exporting those gives the same text.
func FuzzParseZoneFile(f *testing.F) {
	for _, seed := range []string{
		"$ORIGIN example.inf.nz.\n$TTL 3600\n@ IN A 192.0.2.1\n",
		"@ 300 IN A 192.0.2.1\nwww IN CNAME example.inf.nz.\n",
		"example.inf.nz. 3600 IN MX 10 mail.example.com.\n@ MX 0 .\n",
		"@ TXT \"v=spf1 \" \"-all\"\n_dmarc TXT \"v=DMARC1; p=none\" ; comment\n",
		"@ TXT \"\\\"quoted\\\"\"\nx TXT \"back\\\\slash\\123\"\n",
		"_sip._tcp 3600 IN SRV 10 5 5060 sip.example.com.\n@ CAA 0 issue \"letsencrypt.org\"\n",
		"sub NS ns1.example.com.\n*.dev A 192.0.2.9\n",
		"@ SOA ns1.example.com. h.example.com. 1 2 3 4 5\n",
		"www.example.com. A 192.0.2.1\n",
		"@ CH A 192.0.2.1\n",
		"@ HINFO a b\n",
		"@ A 192.0.2.1\n@ A 192.0.2.1\n",
		"www CNAME a.example.com.\nwww A 192.0.2.1\n",
		"@ 0 A 192.0.2.1\n",
		"@ A 1.2.3\n",
		"$INCLUDE /etc/passwd\n",
		"$GENERATE 1-100 h$ A 192.0.2.$\n",
		"@ ( IN\n A\n 192.0.2.1 )\n",
		"\"unterminated\n",
		"; only a comment\n",
		"",
		"@ TXT " + strings.Repeat("\"x\" ", 300) + "\n",
		"$ORIGIN sub.example.inf.nz.\n@ A 192.0.2.1\n$ORIGIN example.inf.nz.\n@ AAAA 2001:db8::1\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		records, notes, err := parseZoneFile(fuzzDomain, text, keepAll)
		if err != nil {
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
			require.NotEmpty(t, apperr.Message(err))
			require.LessOrEqual(t, len(apperr.Message(err)), maxMessage, "a message fit to show")
			return
		}
		require.NotEmpty(t, records)
		require.LessOrEqual(t, len(records), MaxRecordsPerDomain)
		keys := map[string]bool{}
		for _, r := range records {
			requireStoredForm(t, r)
			require.False(t, keys[recordKey(r)], "duplicate %+v", r)
			keys[recordKey(r)] = true
		}

		refused := false
		for _, n := range notes {
			require.LessOrEqual(t, len(n.Message), maxMessage, "a note fit to show")
			refused = refused || n.Kind == NoteRefused
		}
		if !refused { // every record of the file was imported: compare them
			requireFileData(t, text, records)
		}

		exported := exportText(t, records)
		again, _, err := parseZoneFile(fuzzDomain, exported, keepAll)
		require.NoError(t, err, "re-import of\n%s", exported)
		requireEqualRecords(t, records, again, exported)
		require.Equal(t, exported, exportText(t, again))
	})
}

// requireFileData checks that records, imported from text, serve what text
// says, record by record, as miekg/dns reads it.
func requireFileData(t *testing.T, text string, records []Record) {
	t.Helper()
	apex := fuzzDomain.FQDN()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	zp := dns.NewZoneParser(strings.NewReader(text), apex, "")
	zp.SetDefaultTTL(DefaultTTL)
	var inFile []dns.RR
	for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
		if rr.Header().Rrtype != dns.TypeSOA { // skipped: the registry keeps it
			inFile = append(inFile, rr)
		}
	}
	require.NoError(t, zp.Err())
	require.Len(t, inFile, len(records))
	for i, want := range inFile {
		got, err := records[i].RR(apex)
		require.NoError(t, err)
		// A TTL out of bounds is moved to the nearest bound.
		require.Equal(t, min(max(want.Header().Ttl, MinTTL), MaxTTL), got.Header().Ttl, "TTL of %s", want)
		switch w := want.(type) {
		case *dns.TXT:
			require.Equal(t, txtBytes(t, w), txtBytes(t, got), "%s\nimported as %s", want, got)
			continue
		case *dns.CAA:
			w = dns.Copy(w).(*dns.CAA)
			w.Tag = strings.ToLower(w.Tag)
			if w.Value == "" && w.Tag != "iodef" {
				w.Value = ";"
			}
			want = w
		}
		require.True(t, dns.IsDuplicate(want, got), "%s\nimported as %s", want, got)
	}
}

// txtBytes returns the character-strings of a TXT record joined, read from
// its wire form (and so independent of miekg/dns's escapes).
func txtBytes(t *testing.T, rr dns.RR) []byte {
	t.Helper()
	w := wire(t, rr)
	rdata := w[len(w)-int(rr.Header().Rdlength):]
	var out []byte
	for len(rdata) > 0 {
		n := int(rdata[0])
		require.LessOrEqual(t, 1+n, len(rdata))
		out = append(out, rdata[1:1+n]...)
		rdata = rdata[1+n:]
	}
	return out
}

// maxMessage bounds an import error's message: a line number, a reason and
// at most a short quote of the file.
const maxMessage = 600

// exportText writes records as Service.Export does (which reads them from
// the database first). Keep the two alike;
// TestExportThenImportChangesNothing checks the real one.
func exportText(t *testing.T, records []Record) string {
	t.Helper()
	apex := fuzzDomain.FQDN()
	var b strings.Builder
	fmt.Fprintf(&b, "; Zone file of %s, exported by Nameport.\n", fuzzDomain)
	b.WriteString("; The registry serves the SOA record; the records below are the domain's.\n")
	fmt.Fprintf(&b, "$ORIGIN %s\n$TTL %d\n", apex, DefaultTTL)
	for _, r := range records {
		rr, err := r.RR(apex)
		require.NoError(t, err, "%+v", r)
		rdata := strings.TrimPrefix(rr.String(), rr.Header().String())
		fmt.Fprintf(&b, "%s\t%d\tIN\t%s\t%s\n", r.Name, r.TTL, r.Type, rdata)
	}
	return b.String()
}

// TestParseZoneFileBoundsItsWork reads the largest files a user can send,
// made to be slow, and checks that each is answered (with an error or
// records) in reasonable time: the work is bounded by MaxZoneFile and
// MaxRecordsPerDomain.
func TestParseZoneFileBoundsItsWork(t *testing.T) {
	t.Parallel()
	// fill is prefix and then unit repeated, up to MaxZoneFile bytes.
	fill := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (MaxZoneFile-len(prefix))/len(unit))
	}
	var manyRecords strings.Builder
	for i := 0; manyRecords.Len() < MaxZoneFile-64; i++ {
		fmt.Fprintf(&manyRecords, "h%d A 192.0.2.%d\n", i, i%250+1)
	}
	tests := []struct {
		about string
		text  string
		valid bool
	}{
		{"too large", fill("", "@ A 192.0.2.1\n") + strings.Repeat("\n", 15), false},
		{"records beyond the limit", manyRecords.String(), false},
		{"the limit of records", manyRecords.String()[:strings.Index(manyRecords.String(), "h1000 ")], true},
		{"open parentheses", fill("", "("), false},
		{"newlines", fill("", "\n"), false},
		{"comments", fill("", "; comment\n"), false},
		{"one long TXT record", fill("@ TXT ", `"x" `), false},
		{"one long name", fill("", "a."), false},
		{"directives", fill("", "$ORIGIN example.inf.nz.\n"), false},
		{"an unterminated string", fill(`@ TXT "`, "x"), false},
		{"$GENERATE", "$GENERATE 1-65535 h$ A 192.0.2.1\n", false},
		{"many $GENERATE", fill("", "$GENERATE 1-65535 h$ A 192.0.2.1\n"), false},
	}
	for _, tt := range tests {
		start := time.Now()
		records, _, err := parseZoneFile(fuzzDomain, tt.text, keepAll)
		elapsed := time.Since(start)
		if tt.valid {
			require.NoError(t, err, tt.about)
			require.Len(t, records, MaxRecordsPerDomain, tt.about)
		} else {
			require.Error(t, err, tt.about)
			require.Equal(t, apperr.Invalid, apperr.Code(err), "%s: %v", tt.about, err)
			require.LessOrEqual(t, len(apperr.Message(err)), maxMessage, tt.about)
		}
		// Generous: other tests share the machine, and -race slows this
		// tenfold. A quadratic parse of a megabyte takes minutes.
		require.Less(t, elapsed, 30*time.Second, tt.about)
	}
}

// An error quotes a short part of an overlong token, not the token: the
// message is shown to the user.
func TestParseZoneFileQuotesLongTokensShort(t *testing.T) {
	t.Parallel()
	_, _, err := parseZoneFile(fuzzDomain, "@ A "+strings.Repeat("1", 100_000)+"\n", keepAll)
	require.Equal(t, apperr.Invalid, apperr.Code(err))
	require.Equal(t, `Line 1: cannot read the record: bad A A: "`+strings.Repeat("1", maxQuoted)+`…"`, apperr.Message(err))

}

// A \DDD escape above \255 names no byte: miekg/dns would wrap it around
// (\999 as \231), and the import used to keep the digits ("999"). Either
// way the data would differ from the file's; the line is refused instead.
func TestParseZoneFileRefusesTXTEscapesAbove255(t *testing.T) {
	t.Parallel()
	records, notes, err := parseZoneFile(fuzzDomain, "@ A 192.0.2.1\n@ TXT \"a\\999b\"\n", keepAll)
	require.NoError(t, err)
	require.Len(t, records, 1, "the A record alone")
	require.Equal(t, []Note{{Line: 2, Kind: NoteRefused, Message: `Line 2: a TXT escape \DDD cannot exceed \255`,
		Text: notes[0].Text}}, notes)

	records, _, err = parseZoneFile(fuzzDomain, `@ TXT "\195\169\0651\\\"" "x"`, keepAll)
	require.NoError(t, err)
	require.Equal(t, `"éA1\\\"" "x"`, records[0].Content)
}

// A relative owner name that ends like the domain is below it, as in any
// zone file: "www.example.inf.nz" (no final dot) under $ORIGIN
// example.inf.nz. is www.example.inf.nz.example.inf.nz. The import used to
// move such records to "www", and "example.inf.nz" to the apex.
func TestParseZoneFileKeepsRelativeNamesThatEndLikeTheDomain(t *testing.T) {
	t.Parallel()
	records, _, err := parseZoneFile(fuzzDomain, "eXAmpLe.inf.nZ MX 0 mail.example.com.\n"+
		"www.example.inf.nz A 192.0.2.1\nwww.example.inf.nz. A 192.0.2.2\nexample.inf.nz. A 192.0.2.3\n", keepAll)
	require.NoError(t, err)
	var names []string
	for _, r := range records {
		names = append(names, r.Name)
	}
	require.Equal(t, []string{"example.inf.nz", "www.example.inf.nz", "www", "@"}, names)
}

// TXT text with spaces at either end keeps them through an import: the
// API stores them when the value is quoted (" "), and the import used to
// trim them, so such a record could not be imported from its own export.
// Stored quoted, they stay when the record is edited too.
func TestParseZoneFileKeepsSpacesAroundTXT(t *testing.T) {
	t.Parallel()
	rec, err := normalize(fuzzDomain, Input{Type: TypeTXT, Name: "@", Content: `" "`})
	require.NoError(t, err)
	require.Equal(t, `" "`, rec.Content)

	records, _, err := parseZoneFile(fuzzDomain, exportText(t, []Record{rec})+"x TXT \" 00 \" \"\\\"\"\n", keepAll)
	require.NoError(t, err)
	require.Equal(t, `" "`, records[0].Content)
	require.Equal(t, `" 00 " "\""`, records[1].Content)
}

// keepAll imports a file as it is, apex NS records included.
var keepAll = ImportOptions{Delegate: true}
