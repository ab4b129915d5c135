package mailfwd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net/smtp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

// selfSigned is a certificate for host and a pool that trusts it.
func selfSigned(t *testing.T, host string) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: host}, DNSNames: []string{host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// With a certificate the server offers STARTTLS, and mail sent over it is
// forwarded as any other.
func TestSMTPStartTLS(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		p := newPipeline(t, d)
		p.forward(t, "hello")

		cert, pool := selfSigned(t, "mx.inf.nz")
		server := NewServer(p.fwd, ServerOptions{Addr: "127.0.0.1:0", Hostname: "mx.inf.nz",
			TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
		require.NoError(t, server.Start())
		t.Cleanup(func() { _ = server.Shutdown(ctx) })

		c, err := smtp.Dial(server.Addr())
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.Hello("sender.example"))
		ok, _ := c.Extension("STARTTLS")
		require.True(t, ok, "STARTTLS offered")
		require.NoError(t, c.StartTLS(&tls.Config{ServerName: "mx.inf.nz", RootCAs: pool, MinVersion: tls.VersionTLS12}))
		state, ok := c.TLSConnectionState()
		require.True(t, ok)
		require.True(t, state.HandshakeComplete)
		require.NoError(t, c.Mail("alice@origin.example"))
		require.NoError(t, c.Rcpt("hello@acme.inf.nz"))
		w, err := c.Data()
		require.NoError(t, err)
		_, err = w.Write([]byte(message))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.NoError(t, c.Quit())
		require.Equal(t, []error{nil}, p.deliverAll(t, false))
		require.Len(t, p.relay.Received(), 1)

		// Without a certificate, none is offered.
		plain, err := smtp.Dial(p.server.Addr())
		require.NoError(t, err)
		defer plain.Close()
		require.NoError(t, plain.Hello("sender.example"))
		ok, _ = plain.Extension("STARTTLS")
		require.False(t, ok)
	})
}
