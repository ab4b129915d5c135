package dnsserver_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/zone"
)

// A server that applies changes as deltas serves, after every step of a
// random sequence of changes, exactly what a server that loads everything
// from the database serves: the same serial, the same records in every
// zone, the same answer to every question about every name (rcode, AA bit,
// answer, authority and additional sections). And an IXFR from the serial
// before the step, applied to the records before it, gives the records
// after it.
func TestIncrementalMatchesFullLoad(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		w := newWorld(t, d, rand.New(rand.NewPCG(seed, 17)))
		srv := dnsserver.New("127.0.0.1:0", quiet)
		ctx := context.Background()
		require.NoError(t, srv.Reload(ctx, d))
		before := srv.Snapshot()
		for step := range 60 {
			var did []string
			for range 1 + w.rng.IntN(3) {
				did = append(did, w.randomChange())
			}
			require.NoError(t, srv.Update(ctx, d))
			got := srv.Snapshot()
			data, err := zone.Load(ctx, d, time.Now())
			require.NoError(t, err)
			want, _ := dnsserver.NewSnapshot(data)
			msg := fmt.Sprintf("step %d: %s", step, strings.Join(did, "; "))
			require.Equal(t, want.Serial(), got.Serial(), msg)
			require.Equal(t, want.Zones(), got.Zones(), msg)
			for _, origin := range want.Zones() {
				records := rrTexts(dnsserver.ZoneRecords(got, origin))
				require.Equal(t, rrTexts(dnsserver.ZoneRecords(want, origin)), records, "%s: zone %s", msg, origin)
				if ixfr := dnsserver.IXFR(got, origin, before.Serial()); ixfr != nil {
					require.Equal(t, sorted(records), sorted(rrTexts(applyIXFR(t, dnsserver.ZoneRecords(before, origin), ixfr))),
						"%s: IXFR of %s from %d", msg, origin, before.Serial())
				} else {
					require.Contains(t, did, "catalog", "%s: no IXFR of %s from %d", msg, origin, before.Serial())
				}
			}
			for _, name := range w.questions(want) {
				for _, qtype := range []uint16{dns.TypeA, dns.TypeAAAA, dns.TypeMX, dns.TypeTXT, dns.TypeNS,
					dns.TypeSRV, dns.TypeCAA, dns.TypeCNAME, dns.TypeSOA, dns.TypeANY, dns.TypeDS} {
					expected := result(dnsserver.Lookup(want, name, qtype))
					require.Equal(t, expected, result(dnsserver.Lookup(got, name, qtype)),
						"%s: %s %s", msg, name, dns.TypeToString[qtype])
					// Through the packet caches, which outlive a change.
					if qtype != dns.TypeANY && qtype != dns.TypeSOA {
						require.Equal(t, expected, packetResult(t, srv, name, qtype), "%s: packet %s %s", msg, name, dns.TypeToString[qtype])
					}
				}
			}
			before = got
		}
	})
}

// world makes random changes to the database through the services that
// make them in production.
type world struct {
	t       *testing.T
	d       *db.DB
	rng     *rand.Rand
	svc     *zone.Service
	domains []zone.Domain // registered, maybe expired or released since
	made    int
}

// worldExtensions: the last starts inactive (see randomChange).
var worldExtensions = []string{".inf.nz", ".biz.ee", ".orgn.uk"}

func newWorld(t *testing.T, d *db.DB, rng *rand.Rand) *world {
	addExtension(t, d, ".inf.nz", true, `["ns1.nameport.net", "ns2.nameport.net"]`)
	addExtension(t, d, ".biz.ee", true, `[]`)
	addExtension(t, d, ".orgn.uk", false, `["ns1.nameport.net"]`)
	w := &world{t: t, d: d, rng: rng, svc: zone.NewService(d, zone.Options{})}
	for range 6 {
		w.register()
	}
	return w
}

func (w *world) register() string {
	w.made++
	name := fmt.Sprintf("d%d", w.made)
	ext := worldExtensions[w.rng.IntN(len(worldExtensions))]
	w.domains = append(w.domains, registerDomain(w.t, w.d, name, ext, time.Now().AddDate(1, 0, 0)))
	return "register " + name + ext
}

func (w *world) pick() zone.Domain { return w.domains[w.rng.IntN(len(w.domains))] }

// randomChange makes one change and says what it was. Changes the
// services refuse (a CNAME beside other records, say) change nothing,
// which the comparison checks too.
func (w *world) randomChange() string {
	ctx := context.Background()
	switch k := w.rng.IntN(20); {
	case k < 10:
		d := w.pick()
		in := w.randomRecord(d)
		_, err := w.svc.Create(ctx, d, in)
		return fmt.Sprintf("create %s %s %s in %s (%v)", in.Name, in.Type, in.Content, d, err)
	case k < 13:
		d := w.pick()
		records, err := w.svc.List(ctx, d)
		require.NoError(w.t, err)
		if len(records) == 0 {
			return "nothing to delete in " + d.String()
		}
		r := records[w.rng.IntN(len(records))]
		return fmt.Sprintf("delete %s %s in %s (%v)", r.Name, r.Type, d, w.svc.Delete(ctx, d, r.ID))
	case k < 15:
		d := w.pick()
		records, err := w.svc.List(ctx, d)
		require.NoError(w.t, err)
		if len(records) == 0 {
			return "nothing to change in " + d.String()
		}
		r := records[w.rng.IntN(len(records))]
		ttl := 300 * (1 + w.rng.IntN(4))
		_, err = w.svc.Update(ctx, d, r.ID, zone.Input{Type: r.Type, Name: r.Name, Content: r.Content, Priority: r.Priority,
			TTL: &ttl, AlignTTL: true})
		return fmt.Sprintf("ttl %d for %s %s in %s (%v)", ttl, r.Name, r.Type, d, err)
	case k < 16:
		return w.register()
	case k < 17:
		d := w.pick()
		// As the lifecycle scan releases a domain.
		err := w.d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := tx.NewDelete().Table("domains").Where("id = ?", d.ID).Exec(ctx); err != nil {
				return err
			}
			return zone.BumpVersion(ctx, tx, time.Now(), zone.NameChange{Name: d.Name, Extension: d.Extension, Kind: zone.Released})
		})
		require.NoError(w.t, err)
		return "release " + d.String()
	case k < 18:
		d := w.pick()
		// It expires now: the server that finds it due notes it.
		at := time.Now().UTC().Truncate(time.Microsecond)
		dbtest.MustExec(w.t, w.d, "UPDATE domains SET expires_at = ? WHERE id = ?", at, d.ID)
		require.NoError(w.t, zone.NoteExpiry(ctx, w.d, at, at))
		return "expire " + d.String()
	case k < 19:
		d := w.pick()
		values := []string{w.address(false), w.address(false)}
		_, err := w.svc.ReplaceSet(ctx, d, zone.Set{Name: "set", Type: "A", Values: values})
		return fmt.Sprintf("replace set.%s A with %v (%v)", d, values, err)
	default:
		// Rare: an admin changes an extension's name servers, or turns
		// .orgn.uk on or off (its zone appears, whole, or goes).
		if w.rng.IntN(2) == 0 {
			ns := fmt.Sprintf(`["ns%d.nameport.net"]`, w.rng.IntN(3))
			dbtest.MustExec(w.t, w.d, "UPDATE extensions SET dns_nameservers = ? WHERE extension = ?", ns, ".inf.nz")
		} else {
			dbtest.MustExec(w.t, w.d, "UPDATE extensions SET active = NOT active WHERE extension = ?", ".orgn.uk")
		}
		dbtest.MustExec(w.t, w.d, "UPDATE catalog_version SET version = version + 1 WHERE id = 1")
		return "catalog"
	}
}

func (w *world) address(v6 bool) string {
	if v6 {
		return fmt.Sprintf("2001:db8::%x", w.rng.IntN(50))
	}
	return fmt.Sprintf("192.0.2.%d", w.rng.IntN(50))
}

// randomRecord returns a record for d, naming hosts in d, in other
// domains of the zones (whose addresses go in the additional section of
// d's answers) and elsewhere.
func (w *world) randomRecord(d zone.Domain) zone.Input {
	names := []string{"@", "www", "mail", "a.b", "*", "*.dev", "sub"}
	name := names[w.rng.IntN(len(names))]
	host := func() string {
		o := w.pick()
		switch w.rng.IntN(3) {
		case 0:
			return "mail." + d.String()
		case 1:
			return []string{"mail.", "www.", ""}[w.rng.IntN(3)] + o.String()
		}
		return "mx.example.com"
	}
	priority := w.rng.IntN(3) * 10
	switch w.rng.IntN(9) {
	case 0, 1:
		return zone.Input{Type: "A", Name: name, Content: w.address(false)}
	case 2:
		return zone.Input{Type: "AAAA", Name: name, Content: w.address(true)}
	case 3:
		return zone.Input{Type: "MX", Name: name, Content: host(), Priority: &priority}
	case 4:
		return zone.Input{Type: "TXT", Name: name, Content: fmt.Sprintf("t%d", w.rng.IntN(5))}
	case 5:
		return zone.Input{Type: "CNAME", Name: fmt.Sprintf("c%d", w.rng.IntN(4)), Content: host()}
	case 6:
		// A delegation below the domain, with glue beside it.
		if w.rng.IntN(2) == 0 {
			return zone.Input{Type: "A", Name: "ns.sub", Content: w.address(false)}
		}
		return zone.Input{Type: "NS", Name: "sub", Content: []string{"ns.sub." + d.String(), "ns.example.net"}[w.rng.IntN(2)]}
	case 7:
		return zone.Input{Type: "SRV", Name: "_sip._tcp", Content: fmt.Sprintf("5 5060 %s", host()), Priority: &priority}
	}
	return zone.Input{Type: "CAA", Name: "@", Content: `0 issue "letsencrypt.org"`}
}

// questions are the names to ask about: every owner of every zone, every
// domain ever registered, and names below them that do not exist.
func (w *world) questions(snap *dnsserver.Snapshot) []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, origin := range snap.Zones() {
		for _, rr := range dnsserver.ZoneRecords(snap, origin) {
			add(rr.Header().Name)
		}
	}
	for _, d := range w.domains {
		add(d.FQDN())
		add("nx." + d.FQDN())
		add("x.dev." + d.FQDN())
		add("deep.ns.sub." + d.FQDN())
		add("Mail." + strings.ToUpper(d.FQDN()))
	}
	add("nope.inf.nz.")
	return out
}

// result is a Lookup result as text, for comparing.
func result(r dnsserver.Result) string {
	return fmt.Sprintf("rcode %d aa %v\nanswer %q\nns %q\nextra %q", r.Rcode, r.Authoritative,
		rrTexts(r.Answer), rrTexts(r.Ns), rrTexts(r.Extra))
}

// packetResult asks srv for (name, qtype) as a client does, and returns
// its answer as result does.
func packetResult(t *testing.T, srv *dnsserver.Server, name string, qtype uint16) string {
	t.Helper()
	q := new(dns.Msg)
	q.SetQuestion(name, qtype)
	pkt, err := q.Pack()
	require.NoError(t, err)
	resp := new(dns.Msg)
	require.NoError(t, resp.Unpack(dnsserver.AnswerPacket(srv, pkt)))
	return result(dnsserver.Result{Rcode: resp.Rcode, Authoritative: resp.Authoritative,
		Answer: resp.Answer, Ns: resp.Ns, Extra: resp.Extra})
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// applyIXFR applies an IXFR answer (RFC 1995: SOA new; then for each step
// SOA old, deletions, SOA new, additions; then SOA new) to records.
func applyIXFR(t *testing.T, records, ixfr []dns.RR) []dns.RR {
	t.Helper()
	require.GreaterOrEqual(t, len(ixfr), 1)
	final := ixfr[0].(*dns.SOA)
	if len(ixfr) == 1 {
		return records // up to date
	}
	have := map[string]dns.RR{}
	for _, rr := range records[1:] { // without the SOA
		have[rr.String()] = rr
	}
	body := ixfr[1 : len(ixfr)-1]
	require.Equal(t, final.String(), ixfr[len(ixfr)-1].String())
	adding := true // each step starts with its old SOA: deletions
	for _, rr := range body {
		if _, ok := rr.(*dns.SOA); ok {
			adding = !adding
			continue
		}
		if adding {
			have[rr.String()] = rr
		} else {
			_, ok := have[rr.String()]
			require.True(t, ok, "IXFR deletes %s, which was not there; IXFR:\n%s\nbefore:\n%s", rr, strings.Join(rrTexts(ixfr), "\n"), strings.Join(rrTexts(records), "\n"))
			delete(have, rr.String())
		}
	}
	out := []dns.RR{final}
	for _, rr := range have {
		out = append(out, rr)
	}
	return out
}

func rrTexts(rrs []dns.RR) []string {
	out := make([]string, len(rrs))
	for i, rr := range rrs {
		out[i] = rr.String()
	}
	return out
}
