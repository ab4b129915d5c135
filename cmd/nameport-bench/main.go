// Command nameport-bench is the HTTP side of `make bench` (scripts/bench.sh):
// a closed-loop load generator, the bare net/http handlers it is compared
// with, and the setups that give a benchmark a funded registrar API key and
// a forwarded domain.
//
//	nameport-bench load -url URL [-method GET] [-body JSON] [-H 'K: V']... [-c 32] [-d 10s]
//	        [-host NAME] [-insecure | -cacert PEM] [-ok STATUS] [-location URL]
//	    C clients send requests back to back for D over keep-alive
//	    connections; "{n}" in the URL or body becomes a number unique to the
//	    request. -host is the Host header and TLS server name; redirects are
//	    not followed, and only 2xx answers are ok unless -ok names the status
//	    (and -location the Location) that is. Prints one line:
//	    requests=… ok=… errors=… rps=… p50_ms=… p99_ms=…
//	nameport-bench bare -addr 127.0.0.1:0
//	    serves a fixed availability answer from a bare net/http handler
//	    (the peer of the API figures); prints its address
//	nameport-bench redirect [-addr 127.0.0.1:0] [-tls-addr 127.0.0.1:0] [-location https://example.com/] [-status 301]
//	    answers every request with the redirect from a bare net/http handler,
//	    over HTTP and over TLS with a self-signed ECDSA P-256 certificate
//	    made at start (the peer of the domain forwarding figures); prints
//	    both addresses on one line
//	nameport-bench forward-setup -url URL -key KEY [-target https://example.com/] [-status 301] [-wait 2m]
//	    registers a domain, forwards it to TARGET and waits until its
//	    certificate is issued; prints the forwarded host name
//	nameport-bench selfsigned -cert FILE -key FILE
//	    writes a self-signed certificate for 127.0.0.1 and localhost (the
//	    TLS of a test ACME server)
//	nameport-bench setup -url URL [-user demo-registrar] [-password demo1234] [-fund 100000]
//	    logs in, makes a new API key, deposits FUND dollars; prints the key
//	nameport-bench mail -smtp ADDR [-url URL -key KEY -sink 127.0.0.1:2526] [-c 8] [-d 10s] [-size 10240]
//	    C connections send messages of SIZE bytes back to back for D; with
//	    -url it first sets up a forwarding domain (the sink at -sink being
//	    the server's --smtp-url) and waits until every message accepted is
//	    forwarded. Prints: accepted=… accepted_per_s=… [forwarded_per_s=…]
//	nameport-bench mail-sink [-addr 127.0.0.1:0]
//	    a bare go-smtp server that discards (the peer); prints its address
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "nameport-bench:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  nameport-bench load  -url URL [-method GET] [-body JSON] [-H 'K: V']... [-c 32] [-d 10s]
                       [-host NAME] [-insecure | -cacert PEM] [-ok STATUS] [-location URL]
  nameport-bench bare  [-addr 127.0.0.1:0]
  nameport-bench redirect [-addr 127.0.0.1:0] [-tls-addr 127.0.0.1:0] [-location URL] [-status 301]
  nameport-bench forward-setup -url URL -key KEY [-target URL] [-status 301] [-wait 2m]
  nameport-bench selfsigned -cert FILE -key FILE
  nameport-bench setup -url URL [-user demo-registrar] [-password demo1234] [-fund 100000]
  nameport-bench mail  -smtp ADDR [-url URL -key KEY -sink ADDR] [-c 8] [-d 10s] [-size 10240]
  nameport-bench mail-sink [-addr 127.0.0.1:0]
  nameport-bench update -url URL -key KEY -dns ADDR [-domain updbench.inf.nz] [-c 8] [-d 10s]`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "load":
		return runLoad(ctx, args[1:])
	case "bare":
		return runBare(ctx, args[1:])
	case "redirect":
		return runRedirect(ctx, args[1:])
	case "forward-setup":
		return runForwardSetup(ctx, args[1:])
	case "selfsigned":
		return runSelfSigned(ctx, args[1:])
	case "setup":
		return runSetup(ctx, args[1:])
	case "mail":
		return runMail(ctx, args[1:])
	case "mail-sink":
		return runMailSink(ctx, args[1:])
	case "update":
		return runUpdate(ctx, args[1:])
	}
	return errors.New(usage)
}
