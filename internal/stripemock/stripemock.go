// Package stripemock runs stripe-mock, Stripe's official API fake, for tests:
// Stripe is faked at its edge only. The binary comes from the module's tool
// dependency (`go tool stripe-mock`), so it runs offline once the module
// cache holds it.
package stripemock

import (
	"bufio"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary returns the path of the stripe-mock executable `go tool` builds
// and caches.
func binary() (string, error) {
	binOnce.Do(func() {
		out, err := exec.Command("go", "tool", "-n", "stripe-mock").Output()
		if err != nil {
			binErr = fmt.Errorf("stripemock: go tool -n stripe-mock: %w", err)
			return
		}
		binPath = strings.TrimSpace(string(out))
	})
	return binPath, binErr
}

var listening = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// Start runs a stripe-mock on a free loopback port until t ends and returns
// its base URL (http://127.0.0.1:PORT).
func Start(t testing.TB) string {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("stripemock: start: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatal("stripemock: stripe-mock did not start listening")
	}
	return ""
}
