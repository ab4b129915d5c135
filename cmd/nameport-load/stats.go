package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Outcomes of an operation, as the client saw it.
const (
	outcomeOK         = "ok"         // the server said yes (perhaps on a retry)
	outcomeLost       = "lost"       // lost a race for a name: someone else holds it
	outcomeRefused    = "refused"    // a final no: insufficient funds, too many years ahead, renewed meanwhile...
	outcomeUnresolved = "unresolved" // retries ran out (server down, key still in progress): effect unknown
	outcomeThrottled  = "throttled"  // refused by the /v1 rate limit at the first attempt
)

// stats counts operations by kind and outcome, and failed attempts by kind
// of error. Safe for concurrent use.
type stats struct {
	mu     sync.Mutex
	ops    map[string]map[string]int
	errors map[string]int
	// refusals counts the final answers of refused operations, by status
	// and message start, to tell expected refusals from surprising ones.
	refusals map[string]int
}

func newStats() *stats {
	return &stats{ops: map[string]map[string]int{}, errors: map[string]int{}, refusals: map[string]int{}}
}

func (s *stats) op(kind, outcome string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ops[kind] == nil {
		s.ops[kind] = map[string]int{}
	}
	s.ops[kind][outcome]++
}

func (s *stats) attemptFailed(kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors[kind]++
}

func (s *stats) refused(op, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals[op+": "+why]++
}

func (s *stats) total(outcome string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.ops {
		n += m[outcome]
	}
	return n
}

func (s *stats) print(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	outcomes := []string{outcomeOK, outcomeLost, outcomeRefused, outcomeThrottled, outcomeUnresolved}
	fmt.Fprintf(w, "operations by kind (%s):\n", strings.Join(outcomes, " / "))
	for _, kind := range slices.Sorted(maps.Keys(s.ops)) {
		m := s.ops[kind]
		fmt.Fprintf(w, "  %-16s %6d / %5d / %5d / %5d / %5d\n", kind, m[outcomeOK], m[outcomeLost], m[outcomeRefused],
			m[outcomeThrottled], m[outcomeUnresolved])
	}
	fmt.Fprintln(w, "failed attempts by kind of error (retried with the same Idempotency-Key):")
	if len(s.errors) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, kind := range slices.Sorted(maps.Keys(s.errors)) {
		fmt.Fprintf(w, "  %-16s %6d\n", kind, s.errors[kind])
	}
	if len(s.refusals) > 0 {
		fmt.Fprintln(w, "refusals (final answers other than success):")
		for _, k := range slices.Sorted(maps.Keys(s.refusals)) {
			fmt.Fprintf(w, "  %6d  %s\n", s.refusals[k], k)
		}
	}
}

// acks are what the server acknowledged to clients: after a SIGKILL every
// acknowledged effect must still be in the database.
type acks struct {
	mu sync.Mutex
	// registrations: full domain name -> user ids that were told they got it.
	registrations map[string]map[int64]bool
	// transactions: ledger entry id -> what the client was told it is.
	transactions map[int64]ackedTransaction
	// deletedSets are record sets (fqdn without dot + type) a client removed
	// and that should answer no records of that type.
	deletedSets map[recordSetKey]bool
	// knownSets: the record sets each client knows it has, by its last
	// acknowledged write or read of them.
	knownSets map[recordSetKey][]string
	// settled: since when each known or deleted set has been as it is.
	settled map[recordSetKey]time.Time
	// busyDomains counts the DNS changes in flight per domain; changes
	// numbers every change started, so a probe can tell one happened.
	busyDomains map[string]int
	changes     map[string]uint64
	// triedNames are the names clients tried to register.
	triedNames map[string]bool
	// deposits counts the deposit operations of each user.
	deposits map[int64]int
	// ownLost: names only one client tried, answered with a conflict.
	ownLost map[string]string
}

type ackedTransaction struct {
	UserID      int64
	Type        string
	AmountCents int64
	DomainID    int64
}

// recordSetKey names a record set: the domain (name+extension), the owner
// name relative to it, and the type.
type recordSetKey struct {
	Domain, Name, Type string
}

func newAcks() *acks {
	return &acks{registrations: map[string]map[int64]bool{}, transactions: map[int64]ackedTransaction{},
		deletedSets: map[recordSetKey]bool{}, knownSets: map[recordSetKey][]string{}, triedNames: map[string]bool{}, deposits: map[int64]int{}, ownLost: map[string]string{},
		settled: map[recordSetKey]time.Time{}, busyDomains: map[string]int{}, changes: map[string]uint64{}}
}

func (a *acks) depositTried(userID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.deposits[userID]++
}

func (a *acks) lostOwn(domain string, userID int64, answer string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ownLost[domain] = fmt.Sprintf("user %d: %s", userID, answer)
}

func (a *acks) tried(domain string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.triedNames[domain] = true
}

func (a *acks) registered(domain string, userID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.registrations[domain] == nil {
		a.registrations[domain] = map[int64]bool{}
	}
	a.registrations[domain][userID] = true
}

func (a *acks) transaction(id int64, t ackedTransaction) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.transactions[id] = t
}

// setKnown records what a client knows a record set holds now (nil: empty).
func (a *acks) setKnown(k recordSetKey, values []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.settled[k] = time.Now()
	if len(values) == 0 {
		delete(a.knownSets, k)
		a.deletedSets[k] = true
		return
	}
	delete(a.deletedSets, k)
	a.knownSets[k] = slices.Sorted(slices.Values(values))
}

// forget drops what a client knew about a set whose last change had an
// unknown outcome; it reads the set again later.
func (a *acks) forget(k recordSetKey) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.settled, k)
	delete(a.knownSets, k)
	delete(a.deletedSets, k)
}

// busy marks a DNS change of domain as started (on) or over.
func (a *acks) busy(domain string, on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.busyDomains[domain]++
		a.changes[domain]++
		return
	}
	a.busyDomains[domain]--
}

// freshCandidate is a record set that has been as a client knows it for a
// while, with no change of its domain in flight.
type freshCandidate struct {
	key    recordSetKey
	values []string // nil: deleted
	change uint64
}

// settledSets returns up to n random sets settled for at least age.
func (a *acks) settledSets(age time.Duration, n int, pick func(int) int) []freshCandidate {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []freshCandidate
	cutoff := time.Now().Add(-age)
	for k, at := range a.settled {
		if at.After(cutoff) || a.busyDomains[k.Domain] > 0 {
			continue
		}
		out = append(out, freshCandidate{key: k, values: a.knownSets[k], change: a.changes[k.Domain]})
	}
	slices.SortFunc(out, func(x, y freshCandidate) int {
		return strings.Compare(x.key.Domain+x.key.Name+x.key.Type, y.key.Domain+y.key.Name+y.key.Type)
	})
	for i := len(out) - 1; i > 0; i-- {
		j := pick(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// unchanged reports whether no change of c's domain started since c was
// taken and none is in flight.
func (a *acks) unchanged(c freshCandidate) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.changes[c.key.Domain] == c.change && a.busyDomains[c.key.Domain] == 0
}
