package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// behindProxy starts a server that believes X-Forwarded-For from loopback,
// so that one test can speak from many client addresses.
func behindProxy(t *testing.T, engine db.Engine, edit func(*config.Config)) *testServer {
	t.Helper()
	return startWith(t, engine, func(c *config.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		if edit != nil {
			edit(c)
		}
	})
}

type answer struct {
	status     int
	retryAfter string
	body       map[string]any
	err        error
}

// post sends one JSON POST from client (X-Forwarded-For; none when empty)
// with an optional session cookie. Safe to call from many goroutines.
func post(ts *testServer, path string, body any, client, cookie string) answer {
	buf, err := json.Marshal(body)
	if err != nil {
		return answer{err: err}
	}
	req, err := http.NewRequest("POST", ts.url+path, bytes.NewReader(buf))
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	if client != "" {
		req.Header.Set("X-Forwarded-For", client)
	}
	if cookie != "" {
		req.Header.Set("Cookie", "nameport_session="+cookie)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{err: err}
	}
	a := answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	_ = json.Unmarshal(raw, &a.body)
	return a
}

// parallel sends n requests at once and returns their answers.
func parallel(t *testing.T, n int, send func(i int) answer) []answer {
	t.Helper()
	out := make([]answer, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			out[i] = send(i)
		})
	}
	close(start)
	wg.Wait()
	for _, a := range out {
		require.NoError(t, a.err)
	}
	return out
}

func statuses(answers []answer) map[int]int {
	m := map[int]int{}
	for _, a := range answers {
		m[a.status]++
	}
	return m
}

// metric reads one value from the server's /metrics.
func metric(t *testing.T, ts *testServer, name string) int {
	t.Helper()
	resp, err := http.Get(ts.url + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			return int(f)
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

func signUpAs(t *testing.T, ts *testServer, username, client string) {
	t.Helper()
	a := post(ts, "/api/auth/register", signUp(username, "user"), client, "")
	require.NoError(t, a.err)
	require.Equal(t, http.StatusCreated, a.status, a.body)
}

func login(username, password string) map[string]any {
	return map[string]any{"username": username, "password": password}
}

// Finding 2: 40 parallel guesses at one account from one client used to be
// all checked (the check ran before the hash, the count after it).
func TestLoginThrottleHoldsUnderParallelGuesses(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, nil)
			signUpAs(t, ts, "victim", "192.0.2.1")
			hashes := metric(t, ts, "nameport_password_hashes_total")

			got := parallel(t, 40, func(int) answer { return post(ts, "/api/auth/login", login("victim", "wrong-1"), "198.51.100.7", "") })
			require.Equal(t, map[int]int{http.StatusUnauthorized: 5, http.StatusTooManyRequests: 35}, statuses(got))
			require.Equal(t, hashes+5, metric(t, ts, "nameport_password_hashes_total"), "only 5 passwords were checked")
			for _, a := range got {
				if a.status == http.StatusTooManyRequests {
					require.Equal(t, "Too many failed login attempts. Please try again in 1 minute.", a.body["error"])
					require.NotEmpty(t, a.retryAfter)
				}
			}
			// The right password from there is refused while throttled...
			a := post(ts, "/api/auth/login", login("victim", "secret1"), "198.51.100.7", "")
			require.Equal(t, http.StatusTooManyRequests, a.status)
			// ...and not checked; the owner, elsewhere, logs in.
			a = post(ts, "/api/auth/login", login("victim", "secret1"), "192.0.2.1", "")
			require.Equal(t, http.StatusOK, a.status, a.body)
			require.Equal(t, hashes+6, metric(t, ts, "nameport_password_hashes_total"))
		})
	}
}

// Finding 2: 40 parallel failures from one client against many accounts.
func TestLoginThrottleHoldsUnderParallelFailuresAcrossAccounts(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, nil)
			got := parallel(t, 40, func(i int) answer {
				return post(ts, "/api/auth/login", login(fmt.Sprintf("user%d", i), "wrong-1"), "198.51.100.8", "")
			})
			require.Equal(t, map[int]int{http.StatusUnauthorized: 20, http.StatusTooManyRequests: 20}, statuses(got))
			// Another client is not affected.
			a := post(ts, "/api/auth/login", login("user1", "wrong-1"), "198.51.100.9", "")
			require.Equal(t, http.StatusUnauthorized, a.status)
		})
	}
}

// Finding 4: failures from many networks used to lock the account for
// everyone, its owner too.
func TestLoginFailuresElsewhereDoNotLockTheOwnerOut(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, nil)
			signUpAs(t, ts, "admin1", "192.0.2.1")
			got := parallel(t, 30, func(i int) answer {
				return post(ts, "/api/auth/login", login("admin1", "wrong-1"), fmt.Sprintf("203.0.113.%d", i+1), "")
			})
			require.Equal(t, map[int]int{http.StatusUnauthorized: 30}, statuses(got))
			a := post(ts, "/api/auth/login", login("admin1", "secret1"), "203.0.113.1", "")
			require.Equal(t, http.StatusTooManyRequests, a.status, "a network that has failed on it waits")
			a = post(ts, "/api/auth/login", login("admin1", "secret1"), "192.0.2.77", "")
			require.Equal(t, http.StatusOK, a.status, "a clean network gets in")
		})
	}
}

// Finding 4: X-Forwarded-For is believed only from --trusted-proxies.
func TestForwardedForIsIgnoredFromUntrustedPeers(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite) // no trusted proxies
	signUpAs(t, ts, "frank", "")
	for i := range 5 {
		a := post(ts, "/api/auth/login", login("frank", "wrong-1"), fmt.Sprintf("198.51.100.%d", i+1), "")
		require.Equal(t, http.StatusUnauthorized, a.status)
	}
	a := post(ts, "/api/auth/login", login("frank", "secret1"), "192.0.2.50", "")
	require.Equal(t, http.StatusTooManyRequests, a.status, "every request came from 127.0.0.1, whatever the header said")

	trusting := behindProxy(t, db.SQLite, nil)
	signUpAs(t, trusting, "frank", "")
	for i := range 5 {
		a := post(trusting, "/api/auth/login", login("frank", "wrong-1"), "6.6.6.6, 198.51.100.1", "")
		require.Equal(t, http.StatusUnauthorized, a.status, i)
	}
	a = post(trusting, "/api/auth/login", login("frank", "secret1"), "198.51.100.1", "")
	require.Equal(t, http.StatusTooManyRequests, a.status, "the right-most untrusted hop is the client")
	a = post(trusting, "/api/auth/login", login("frank", "secret1"), "198.51.100.1, 192.0.2.50", "")
	require.Equal(t, http.StatusOK, a.status, "a forged left part does not help, a real new client is clean")
}

// Finding 4: IPv6 was keyed per /128; one /64 is one client.
func TestLoginThrottleKeysIPv6ByNetwork(t *testing.T) {
	t.Parallel()
	ts := behindProxy(t, db.SQLite, nil)
	signUpAs(t, ts, "grace", "")
	for i := range 5 {
		a := post(ts, "/api/auth/login", login("grace", "wrong-1"), fmt.Sprintf("2001:db8:0:1::%x", i+1), "")
		require.Equal(t, http.StatusUnauthorized, a.status)
	}
	a := post(ts, "/api/auth/login", login("grace", "secret1"), "2001:db8:0:1:abcd::1", "")
	require.Equal(t, http.StatusTooManyRequests, a.status)
	a = post(ts, "/api/auth/login", login("grace", "secret1"), "2001:db8:0:2::1", "")
	require.Equal(t, http.StatusOK, a.status)
}

// Finding 9: wrong current passwords were not throttled at all.
func TestChangePasswordIsThrottled(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, nil)
			a := post(ts, "/api/auth/register", signUp("henry", "user"), "192.0.2.1", "")
			require.Equal(t, http.StatusCreated, a.status)
			b := newBrowser(t, ts)
			r := b.do("POST", "/api/auth/login", login("henry", "secret1"), "X-Forwarded-For", "192.0.2.1")
			cookie := sessionCookie(t, r).Value
			change := func(current string) map[string]any {
				return map[string]any{"currentPassword": current, "newPassword": "newpass1", "confirmPassword": "newpass1"}
			}
			got := parallel(t, 20, func(int) answer {
				return post(ts, "/api/auth/change-password", change("wrong-1"), "198.51.100.3", cookie)
			})
			require.Equal(t, map[int]int{http.StatusUnprocessableEntity: 5, http.StatusTooManyRequests: 15}, statuses(got))
			a = post(ts, "/api/auth/change-password", change("secret1"), "198.51.100.3", cookie)
			require.Equal(t, http.StatusTooManyRequests, a.status)
			require.NotEmpty(t, a.retryAfter)
			require.Equal(t, "Too many wrong current passwords. Please try again in 1 minute.", a.body["error"])
			a = post(ts, "/api/auth/login", login("henry", "newpass1"), "192.0.2.1", "")
			require.Equal(t, http.StatusUnauthorized, a.status, "the password did not change")
		})
	}
}

// Findings 3 and 9: sign-up was unthrottled, told which names exist, and
// hashed the password before looking.
func TestSignUpIsThrottledAndLooksBeforeHashing(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := behindProxy(t, engine, func(c *config.Config) { c.SignUpLimit = 10 })
			signUpAs(t, ts, "taken", "192.0.2.1")
			hashes := metric(t, ts, "nameport_password_hashes_total")
			a := post(ts, "/api/auth/register", signUp("taken", "user"), "192.0.2.1", "")
			require.Equal(t, http.StatusConflict, a.status)
			require.Equal(t, hashes, metric(t, ts, "nameport_password_hashes_total"), "a taken name is not hashed")

			got := parallel(t, 15, func(i int) answer {
				return post(ts, "/api/auth/register", signUp(fmt.Sprintf("new%d", i), "user"), "198.51.100.4", "")
			})
			require.Equal(t, map[int]int{http.StatusCreated: 10, http.StatusTooManyRequests: 5}, statuses(got))
			for _, a := range got {
				if a.status == http.StatusTooManyRequests {
					require.Equal(t, "Too many sign-ups from your network. Please try again in 60 minutes.", a.body["error"])
					require.NotEmpty(t, a.retryAfter)
				}
			}
			// Asking whether names exist counts too.
			a = post(ts, "/api/auth/register", signUp("taken", "user"), "198.51.100.4", "")
			require.Equal(t, http.StatusTooManyRequests, a.status)
			a = post(ts, "/api/auth/register", signUp("other", "user"), "198.51.100.5", "")
			require.Equal(t, http.StatusCreated, a.status, "another network is not affected")
		})
	}
}

// Finding 3: hashes ran unbounded (250 parallel requests: 2.9 GB). They run
// at most --password-hash-concurrency at once; the rest wait briefly or get
// 503 with Retry-After.
func TestPasswordHashesRunBounded(t *testing.T) {
	t.Parallel()
	ts := behindProxy(t, db.SQLite, func(c *config.Config) { c.PasswordHashConcurrency, c.PasswordHashWait = 2, 0 })
	signUpAs(t, ts, "ivy", "192.0.2.1")
	got := parallel(t, 120, func(i int) answer {
		client := fmt.Sprintf("10.%d.%d.1", i/250, i%250)
		if i%2 == 0 {
			return post(ts, "/api/auth/login", login("ivy", "secret1"), client, "")
		}
		return post(ts, "/api/auth/register", signUp(fmt.Sprintf("flood%d", i), "user"), client, "")
	})
	for _, a := range got {
		switch a.status {
		case http.StatusOK, http.StatusCreated:
		case http.StatusServiceUnavailable:
			require.Equal(t, "The server is busy. Please try again in a few seconds.", a.body["error"])
			require.NotEmpty(t, a.retryAfter)
		default:
			t.Fatalf("unexpected answer %d %v", a.status, a.body)
		}
	}
	require.Equal(t, 2, metric(t, ts, "nameport_password_hashes_limit"))
	peak := metric(t, ts, "nameport_password_hashes_peak")
	require.LessOrEqual(t, peak, 2)
	require.Positive(t, peak)
	require.Equal(t, 0, metric(t, ts, "nameport_password_hashes_in_flight"))
	require.Equal(t, statuses(got)[http.StatusServiceUnavailable], metric(t, ts, "nameport_password_hashes_refused_total"))
}

// Finding 9: line breaks in full names reached mail bodies.
func TestSignUpRefusesControlCharactersInNames(t *testing.T) {
	t.Parallel()
	ts := start(t, db.SQLite)
	for _, name := range []string{"Eve\r\nYour account is suspended", "Eve\nSmith", "Eve\tSmith", "Eve\u2028Smith"} {
		in := signUp("eve", "user")
		in["fullName"] = name
		a := post(ts, "/api/auth/register", in, "", "")
		require.Equal(t, http.StatusUnprocessableEntity, a.status, "%q", name)
		require.Equal(t, "Full name cannot contain line breaks or control characters", a.body["error"])
	}
	in := signUp("eve", "user")
	in["email"] = "eve@example.com\r\nBcc: all@example.com"
	a := post(ts, "/api/auth/register", in, "", "")
	require.Equal(t, http.StatusUnprocessableEntity, a.status)
	require.Equal(t, "Invalid email address", a.body["error"])
	signUpAs(t, ts, "eve", "") // nothing was created by the refusals
}
