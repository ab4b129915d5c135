// Package pebbletest runs pebble, Let's Encrypt's test ACME server, for
// tests: ACME is faked at its edge only, and pebble validates names for
// real, over HTTP and TLS, resolving them through the DNS server it is
// given. The binary comes from the module's tool dependency (`go tool
// pebble`), so it runs offline once the module cache holds it.
package pebbletest

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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

// binary returns the path of the pebble executable `go tool` builds and
// caches.
func binary() (string, error) {
	binOnce.Do(func() {
		out, err := exec.Command("go", "tool", "-n", "pebble").Output()
		if err != nil {
			binErr = fmt.Errorf("pebbletest: go tool -n pebble: %w", err)
			return
		}
		binPath = strings.TrimSpace(string(out))
	})
	return binPath, binErr
}

// Pebble is a pebble to be started (New) or running (Start).
type Pebble struct {
	// Directory is the ACME directory URL.
	Directory string
	// Roots trust pebble's own HTTPS: the ACME client's CA roots.
	Roots *x509.CertPool

	dir        string // its files
	listen     string // ACME API address
	management string // management API address (the issuing roots)
}

// New prepares a pebble on free loopback ports, so that its directory URL
// is known before the servers it validates start (whose ports it needs).
func New(t testing.TB) *Pebble {
	t.Helper()
	p := &Pebble{dir: t.TempDir(), listen: freeAddr(t), management: freeAddr(t)}
	p.Directory = "https://" + p.listen + "/dir"
	certPEM, keyPEM := selfSigned(t)
	p.Roots = x509.NewCertPool()
	if !p.Roots.AppendCertsFromPEM(certPEM) {
		t.Fatal("pebbletest: own certificate does not parse")
	}
	for name, data := range map[string][]byte{"cert.pem": certPEM, "key.pem": keyPEM} {
		if err := os.WriteFile(filepath.Join(p.dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// Options are what pebble validates against.
type Options struct {
	// HTTPPort and TLSPort are where pebble connects to validate http-01
	// and tls-alpn-01 challenges (at the address the name resolves to).
	HTTPPort, TLSPort int
	// DNSServer is where pebble resolves names ("127.0.0.1:5353"), over TCP.
	DNSServer string
	// Validity of the certificates issued; pebble's default (90 days) when 0.
	Validity time.Duration
}

// Start runs the pebble until t ends and waits until it answers.
func (p *Pebble) Start(t testing.TB, opts Options) {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	profile := map[string]any{"description": "test"}
	if opts.Validity > 0 {
		profile["validityPeriod"] = int64(opts.Validity / time.Second)
	}
	config, err := json.Marshal(map[string]any{"pebble": map[string]any{
		"listenAddress":           p.listen,
		"managementListenAddress": p.management,
		"certificate":             filepath.Join(p.dir, "cert.pem"),
		"privateKey":              filepath.Join(p.dir, "key.pem"),
		"httpPort":                opts.HTTPPort,
		"tlsPort":                 opts.TLSPort,
		"keyAlgorithm":            "ecdsa",
		"profiles":                map[string]any{"default": profile},
	}})
	if err != nil {
		t.Fatal(err)
	}
	configFile := filepath.Join(p.dir, "pebble.json")
	if err := os.WriteFile(configFile, config, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-config", configFile, "-dnsserver", opts.DNSServer)
	// Validate at once (no random wait), and never refuse a good nonce
	// (pebble refuses some by default, to test clients' retries).
	cmd.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("pebbletest: start: %v", err)
	}
	var logMu sync.Mutex
	var log strings.Builder
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-copied
		_ = cmd.Wait()
		if t.Failed() {
			logMu.Lock()
			t.Logf("pebble's log:\n%s", log.String())
			logMu.Unlock()
		}
	})
	client := p.client()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := client.Get(p.Directory)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebbletest: pebble did not answer at %s: %v", p.Directory, err)
		}
		select {
		case <-copied:
			t.Fatal("pebbletest: pebble exited")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// CertFile is the PEM file of the certificate of pebble's own HTTPS, for
// ACME clients run as programs (certbot's REQUESTS_CA_BUNDLE, lego's
// LEGO_CA_CERTIFICATES).
func (p *Pebble) CertFile() string { return filepath.Join(p.dir, "cert.pem") }

func (p *Pebble) client() *http.Client {
	return &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: p.Roots}}}
}

// IssuingRoot returns the root certificate pebble issues under (from its
// management API), which a fresh pebble makes anew.
func (p *Pebble) IssuingRoot(t testing.TB) *x509.Certificate {
	t.Helper()
	resp, err := p.client().Get("https://" + p.management + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("pebbletest: no PEM root: %s", data)
	}
	root, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// selfSigned makes the certificate of pebble's own HTTPS: for 127.0.0.1
// and localhost, its own root.
func selfSigned(t testing.TB) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "pebbletest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
}
