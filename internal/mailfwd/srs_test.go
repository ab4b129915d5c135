package mailfwd

// The SRS tests need no database. The fuzz targets run their seeds with the
// other tests; to search further:
//
//	go test ./internal/mailfwd -run '^$' -fuzz '^FuzzSRSReverse$' -fuzztime 60s -parallel 1

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	testSRSDomain = "mx.inf.nz"
	testSRSSecret = "nameport-srs-test-secret"
)

// testSRSTime is 2024-01-01 12:00 UTC: day 19723 since the epoch, which is
// 267 = 8*32 + 11 modulo 1024, written "IL".
var testSRSTime = time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)

func newTestSRS(t testing.TB, secret string, clock *time.Time) *SRS {
	t.Helper()
	s, err := NewSRS([]byte(secret), 0, func() time.Time { return *clock })
	require.NoError(t, err)
	return s
}

// testSRSHash computes a hash the way the paper and libsrs2 define it,
// independently of srs.go.
func testSRSHash(secret string, fields ...string) string {
	mac := hmac.New(sha1.New, []byte(secret))
	for _, field := range fields {
		mac.Write([]byte(strings.ToLower(field)))
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))[:4]
}

func TestSRSKnownAnswer(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)

	// The literals were also computed with openssl:
	//   printf '%s' 'ilexample.comalice.smith' |
	//     openssl dgst -sha1 -hmac nameport-srs-test-secret -binary | base64
	require.Equal(t, "iCjb", testSRSHash(testSRSSecret, "IL", "Example.com", "Alice.Smith"))
	got, err := s.Forward("Alice.Smith@Example.com", testSRSDomain)
	require.NoError(t, err)
	require.Equal(t, "SRS0=iCjb=IL=Example.com=Alice.Smith@mx.inf.nz", got)

	// SRS1 hashes the first forwarder's domain and the rest of its SRS0 local
	// part, separator included:
	//   printf '%s' 'fwd.example.net=abcd=il=example.com=alice.smith' | openssl …
	require.Equal(t, "jazj", testSRSHash(testSRSSecret, "fwd.example.net", "=AbCd=IL=example.com=alice.smith"))
	got, err = s.Forward("SRS0=AbCd=IL=example.com=alice.smith@fwd.example.net", testSRSDomain)
	require.NoError(t, err)
	require.Equal(t, "SRS1=jazj=fwd.example.net==AbCd=IL=example.com=alice.smith@mx.inf.nz", got)
}

func TestSRSRoundTrip(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	for _, sender := range []string{
		"alice@example.com",
		"Alice.Smith@Example.COM",
		"bob+tag=x=y@sub.example.org", // separators in the local part
		`"a@b"@example.com`,           // an "@" in a quoted local part
		"srs0@example.com",            // a tag without a separator is plain
		"SRS1=malformed@example.com",  // an unparsable SRS1 is wrapped as plain
		"josé@exämple.com",
		"user@[192.0.2.1]",
	} {
		srs, err := s.Forward(sender, testSRSDomain)
		require.NoError(t, err, sender)
		require.True(t, strings.HasPrefix(srs, "SRS0="), srs)
		require.True(t, strings.HasSuffix(srs, "@"+testSRSDomain), srs)
		back, err := s.Reverse(srs)
		require.NoError(t, err, srs)
		require.Equal(t, sender, back)
	}
}

func TestSRSForwardChain(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	first := newTestSRS(t, "first-forwarder-secret", &clock)
	us := newTestSRS(t, testSRSSecret, &clock)
	third := newTestSRS(t, "third-forwarder-secret", &clock)

	srs0, err := first.Forward("alice@example.com", "fwd.example.net")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(srs0, "SRS0="), srs0)

	// Another forwarder's SRS0 becomes our SRS1, naming that forwarder.
	srs1, err := us.Forward(srs0, testSRSDomain)
	require.NoError(t, err)
	srs0Local := strings.TrimSuffix(srs0, "@fwd.example.net")
	require.Equal(t, "SRS1="+testSRSHash(testSRSSecret, "fwd.example.net", srs0Local[len("SRS0"):])+
		"=fwd.example.net="+srs0Local[len("SRS0"):]+"@"+testSRSDomain, srs1)
	back, err := us.Reverse(srs1)
	require.NoError(t, err)
	require.Equal(t, srs0, back)
	original, err := first.Reverse(back)
	require.NoError(t, err)
	require.Equal(t, "alice@example.com", original)

	// The next forwarder keeps the first forwarder in its SRS1, so that a
	// bounce skips us.
	srs1Again, err := third.Forward(srs1, "relay.example.org")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(srs1Again, "SRS1="), srs1Again)
	require.True(t, strings.HasSuffix(srs1Again, "=fwd.example.net="+srs0Local[len("SRS0"):]+"@relay.example.org"), srs1Again)
	back, err = third.Reverse(srs1Again)
	require.NoError(t, err)
	require.Equal(t, srs0, back)

	// Our SRS1 hash is ours: another forwarder's secret does not verify it.
	_, err = first.Reverse(srs1)
	require.ErrorIs(t, err, ErrSRSHash)
}

func TestSRSNullSender(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	got, err := s.Forward("", testSRSDomain)
	require.NoError(t, err)
	require.Empty(t, got)
}

func TestSRSOwnAddressUnchanged(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	srs0, err := s.Forward("alice@example.com", testSRSDomain)
	require.NoError(t, err)
	for _, sender := range []string{
		"postmaster@mx.inf.nz",
		"postmaster@MX.Inf.NZ",
		"postmaster@mx.inf.nz.",
		srs0,
		strings.ToUpper(srs0),
		"SRS1=abcd=fwd.example.net==AbCd=IL=example.com=alice@mx.inf.nz",
	} {
		got, err := s.Forward(sender, testSRSDomain)
		require.NoError(t, err, sender)
		require.Equal(t, sender, got)
	}
}

func TestSRSWrongHash(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	other := newTestSRS(t, "another-forwarders-secret", &clock)

	srs0, err := s.Forward("alice@example.com", testSRSDomain)
	require.NoError(t, err)
	hash := srs0[len("SRS0=") : len("SRS0=")+4]
	wrongHash := "AAAA"
	if strings.EqualFold(hash, wrongHash) {
		wrongHash = "BBBB"
	}
	srs1, err := s.Forward("SRS0=AbCd=IL=example.com=alice@fwd.example.net", testSRSDomain)
	require.NoError(t, err)

	forged, err := other.Forward("alice@example.com", testSRSDomain)
	require.NoError(t, err)
	for _, address := range []string{
		strings.Replace(srs0, hash, wrongHash, 1),
		strings.Replace(srs0, "=alice@", "=mallory@", 1), // another original sender
		strings.Replace(srs0, "=example.com=", "=example.org=", 1),
		strings.Replace(srs0, hash, hash[:3], 1), // too short
		strings.Replace(srs0, hash, hash+"A", 1), // too long
		strings.Replace(srs0, hash+"=", "=", 1),  // none
		strings.Replace(srs1, "fwd.example.net", "evil.example.net", 1),
		strings.Replace(srs1, "=alice@", "=mallory@", 1),
		forged,
	} {
		_, err := s.Reverse(address)
		require.ErrorIs(t, err, ErrSRSHash, address)
	}
}

func TestSRSExpiry(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	for _, tc := range []struct {
		name    string
		maxAge  time.Duration
		created time.Time
		after   time.Duration // reversed this long after creation
		wantErr error
	}{
		{"same day", 0, testSRSTime, 0, nil},
		{"21 days, the default maximum", 0, testSRSTime, 21 * day, nil},
		{"22 days", 0, testSRSTime, 22 * day, ErrSRSExpired},
		{"500 days", 0, testSRSTime, 500 * day, ErrSRSExpired},
		{"one day in the future", 0, testSRSTime, -day, nil},
		{"two days in the future", 0, testSRSTime, -2 * day, ErrSRSExpired},
		{"maxAge 2 days, 2 days", 2 * day, testSRSTime, 2 * day, nil},
		{"maxAge 2 days, 3 days", 2 * day, testSRSTime, 3 * day, ErrSRSExpired},
		{"maxAge rounds down to days", 60 * time.Hour, testSRSTime, 3 * day, ErrSRSExpired},
		// Day 1023 of the cycle, read on day 4 of the next one.
		{"across the cycle", 0, time.Unix(1023*86400+3600, 0), 5 * day, nil},
		{"across the cycle, expired", 0, time.Unix(1023*86400+3600, 0), 22 * day, ErrSRSExpired},
		{"across the cycle, future", 0, time.Unix(1024*86400, 0), -day, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := tc.created
			s, err := NewSRS([]byte(testSRSSecret), tc.maxAge, func() time.Time { return clock })
			require.NoError(t, err)
			srs0, err := s.Forward("alice@example.com", testSRSDomain)
			require.NoError(t, err)

			clock = tc.created.Add(tc.after)
			got, err := s.Reverse(srs0)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, "alice@example.com", got)
		})
	}
}

func TestSRSCaseInsensitive(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	srs0, err := s.Forward("Alice@Example.com", testSRSDomain)
	require.NoError(t, err)
	srs1, err := s.Forward("SRS0=AbCd=IL=example.com=alice@fwd.example.net", testSRSDomain)
	require.NoError(t, err)

	// The case of the address as it came back is the case of the answer.
	for address, want := range map[string]string{
		strings.ToUpper(srs0): "ALICE@EXAMPLE.COM",
		strings.ToLower(srs0): "alice@example.com",
		strings.ToUpper(srs1): "SRS0=ABCD=IL=EXAMPLE.COM=ALICE@FWD.EXAMPLE.NET",
		strings.ToLower(srs1): "SRS0=abcd=il=example.com=alice@fwd.example.net",
	} {
		got, err := s.Reverse(address)
		require.NoError(t, err, address)
		require.Equal(t, want, got)
	}
}

func TestSRSReverseAnyDomain(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	srs0, err := s.Forward("alice@example.com", testSRSDomain)
	require.NoError(t, err)
	got, err := s.Reverse(strings.TrimSuffix(srs0, testSRSDomain) + "elsewhere.example")
	require.NoError(t, err)
	require.Equal(t, "alice@example.com", got)
}

func TestSRSReverseGarbage(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	for _, address := range []string{
		"",
		"@",
		"SRS0=",
		"SRS0=@mx.inf.nz",
		"SRS0=iCjb=IL=example.com=alice", // no domain
		"SRS0=iCjb=IL=example.com=alice@",
		"@mx.inf.nz",
		"alice@example.com",
		"srs0@mx.inf.nz",
		"SRS0@mx.inf.nz",
		"SRS2=iCjb=IL=example.com=alice@mx.inf.nz",
		"SRS0xiCjb=IL=example.com=alice@mx.inf.nz",
		"SRS0=iCjb@mx.inf.nz",
		"SRS0=iCjb=IL@mx.inf.nz",
		"SRS0=iCjb=IL=example.com@mx.inf.nz",
		"SRS0=iCjb=IL==alice@mx.inf.nz",
		"SRS0=iCjb=IL=example.com=@mx.inf.nz",
		"SRS0=iCjb==example.com=alice@mx.inf.nz",
		"SRS0=iCjb=I=example.com=alice@mx.inf.nz",
		"SRS0=iCjb=ILL=example.com=alice@mx.inf.nz",
		"SRS0=iCjb=I1=example.com=alice@mx.inf.nz", // 1 is not base32
		"SRS0=iCjb=I\xff=example.com=alice@mx.inf.nz",
		"SRS1=",
		"SRS1=@mx.inf.nz",
		"SRS1=abcd@mx.inf.nz",
		"SRS1=abcd=fwd.example.net@mx.inf.nz",
		"SRS1=abcd==rest@mx.inf.nz",
		"SRS1==fwd.example.net==rest@mx.inf.nz",
		"SRS1=abcd=fwd.example.net=@mx.inf.nz",
		"SRS0=" + strings.Repeat("a=", 5000) + "@mx.inf.nz",
		strings.Repeat("@", 10000),
		strings.Repeat("x", 10000),
	} {
		require.NotPanics(t, func() {
			got, err := s.Reverse(address)
			require.ErrorIs(t, err, ErrNotSRS, address)
			require.Empty(t, got)
		}, address)
	}
}

func TestSRSForwardGarbage(t *testing.T) {
	t.Parallel()
	clock := testSRSTime
	s := newTestSRS(t, testSRSSecret, &clock)
	for _, sender := range []string{
		"alice",
		"@example.com",
		"alice@",
		"@",
		"alice@exa=mple.com", // the separator would move the fields
		"alice smith@example.com",
		"alice@example.com\r\nRCPT TO:<mallory@example.net>",
		"<alice@example.com>",
		"al\x00ice@example.com",
		strings.Repeat("a", 250) + "@example.com",
		strings.Repeat("a", 10000),
		strings.Repeat("a", 5000) + "@" + strings.Repeat("b", 5000),
	} {
		require.NotPanics(t, func() {
			got, err := s.Forward(sender, testSRSDomain)
			require.Error(t, err, sender)
			require.Empty(t, got)
		}, sender)
	}
	for _, domain := range []string{"", "a@b", "mx=inf.nz", "mx inf.nz"} {
		_, err := s.Forward("alice@example.com", domain)
		require.Error(t, err, domain)
	}
}

func TestNewSRSChecks(t *testing.T) {
	t.Parallel()
	secret := []byte(testSRSSecret)
	_, err := NewSRS(secret[:15], 0, nil)
	require.Error(t, err)
	for _, maxAge := range []time.Duration{-time.Hour, time.Hour, 513 * 24 * time.Hour} {
		_, err = NewSRS(secret, maxAge, nil)
		require.Error(t, err, maxAge)
	}

	// The secret is copied: changing the caller's slice changes no hash.
	s, err := NewSRS(secret[:16], 0, nil)
	require.NoError(t, err)
	srs0, err := s.Forward("alice@example.com", testSRSDomain)
	require.NoError(t, err)
	secret[0] ^= 0xff
	got, err := s.Reverse(srs0)
	require.NoError(t, err, "Reverse with time.Now as the clock")
	require.Equal(t, "alice@example.com", got)
}

// FuzzSRSReverse checks, for any string:
//   - Reverse never panics; it either fails with one of its three errors
//     or returns local@domain;
//   - Forward never panics, and what it rewrites, Reverse turns back into
//     the sender (for an SRS1 sender, into the first forwarder's SRS0).
func FuzzSRSReverse(f *testing.F) {
	clock := testSRSTime
	s := newTestSRS(f, testSRSSecret, &clock)
	for _, seed := range []string{
		"",
		"alice@example.com",
		"SRS0=iCjb=IL=Example.com=Alice.Smith@mx.inf.nz",
		"srs0=icjb=il=example.com=alice.smith@mx.inf.nz",
		"SRS1=jazj=fwd.example.net==AbCd=IL=example.com=alice.smith@mx.inf.nz",
		"SRS0=AbCd=IL=example.com=alice.smith@fwd.example.net",
		"SRS1=abcd=fwd.example.net==rest@relay.example.org",
		"SRS0=",
		"SRS1=a==@x",
		"SRS0+x@example.com",
		`"a@b"@example.com`,
		"srs0+@0",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, address string) {
		got, err := s.Reverse(address)
		if err != nil {
			require.True(t, errors.Is(err, ErrNotSRS) || errors.Is(err, ErrSRSHash) || errors.Is(err, ErrSRSExpired), err)
			require.Empty(t, got)
		} else {
			local, domain, ok := splitAddress(got)
			require.True(t, ok, got)
			require.NotEmpty(t, local)
			require.NotEmpty(t, domain)
		}

		forwarded, err := s.Forward(address, testSRSDomain)
		if err != nil || forwarded == address {
			return
		}
		back, err := s.Reverse(forwarded)
		require.NoError(t, err, forwarded)
		local, domain, _ := splitAddress(address)
		if tagged(local, srs1Tag) {
			if _, firstHost, rest, ok := splitSRS1(local); ok && validSRSDomain(firstHost) {
				require.Equal(t, "SRS0"+rest+"@"+firstHost, back)
				return
			}
		}
		if tagged(local, srs0Tag) {
			// SRS1 does not keep the case of the SRS0 tag; libsrs2 writes it
			// back upper-cased too, and every forwarder reads it in any case.
			require.Equal(t, srs0Tag+local[len(srs0Tag):]+"@"+domain, back)
			return
		}
		require.Equal(t, address, back)
		require.False(t, sameDomain(domain, testSRSDomain))
	})
}
