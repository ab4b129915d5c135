package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// runRedirect serves one redirect, over HTTP and over TLS, from a bare
// net/http handler until ctx ends: the peer of the domain forwarding
// figures. It writes what a forward answers (the status and the Location,
// no body) and looks at nothing in the request. Prints the HTTP address,
// then the TLS one, on one line, once both listen.
func runRedirect(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("redirect", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "HTTP listen address")
	tlsAddr := fs.String("tls-addr", "127.0.0.1:0", "HTTPS listen address (empty: no HTTPS)")
	location := fs.String("location", "https://example.com/", "the redirect's Location")
	status := fs.Int("status", http.StatusMovedPermanently, "the redirect's status")
	if err := fs.Parse(args); err != nil {
		return err
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header()["Location"] = []string{*location}
		w.WriteHeader(*status)
	})
	// Failed handshakes are the load generator's to count and report.
	quiet := log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	servers := []*http.Server{{Handler: handler, ErrorLog: quiet}}
	serve := []func() error{func() error { return servers[0].Serve(ln) }}
	addrs := []string{ln.Addr().String()}
	if *tlsAddr != "" {
		// Generated anew at each start, of certmagic's default key type,
		// so that the handshakes cost what the forwarding server's do.
		cert, err := selfSigned([]string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return err
		}
		tln, err := net.Listen("tcp", *tlsAddr)
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: handler, ErrorLog: quiet, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
		servers = append(servers, srv)
		serve = append(serve, func() error { return srv.ServeTLS(tln, "", "") })
		addrs = append(addrs, tln.Addr().String())
	}
	fmt.Println(strings.Join(addrs, " "))
	errs := make(chan error, len(serve))
	for _, run := range serve {
		go func() { errs <- run() }()
	}
	select {
	case <-ctx.Done():
	case err := <-errs:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	for _, srv := range servers {
		_ = srv.Close()
	}
	return nil
}

// runSelfSigned writes a self-signed certificate and its key as PEM files:
// the TLS certificate of a test ACME server (pebble), whose file the
// server it issues for is told to trust.
func runSelfSigned(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("selfsigned", flag.ContinueOnError)
	certFile := fs.String("cert", "cert.pem", "certificate file to write")
	keyFile := fs.String("key", "key.pem", "key file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cert, err := selfSigned([]string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(*keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
}

// selfSigned makes an ECDSA P-256 certificate for the names and addresses,
// its own root.
func selfSigned(names []string, ips []net.IP) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "nameport-bench"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              names,
		IPAddresses:           ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
