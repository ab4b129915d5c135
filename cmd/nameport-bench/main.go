// Command nameport-bench is the HTTP side of `make bench` (scripts/bench.sh):
// a closed-loop load generator, the bare net/http handler it is compared
// with, and the setup that gives a benchmark a funded registrar API key.
//
//	nameport-bench load -url URL [-method GET] [-body JSON] [-H 'K: V']... [-c 32] [-d 10s]
//	    C clients send requests back to back for D; "{n}" in the URL or body
//	    becomes a number unique to the request. Prints one line:
//	    requests=… ok=… errors=… rps=… p50_ms=… p99_ms=…
//	nameport-bench bare -addr 127.0.0.1:0
//	    serves a fixed availability answer from a bare net/http handler
//	    (the peer of the API figures); prints its address
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
  nameport-bench bare  [-addr 127.0.0.1:0]
  nameport-bench setup -url URL [-user demo-registrar] [-password demo1234] [-fund 100000]
  nameport-bench mail  -smtp ADDR [-url URL -key KEY -sink ADDR] [-c 8] [-d 10s] [-size 10240]
  nameport-bench mail-sink [-addr 127.0.0.1:0]`

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "load":
		return runLoad(ctx, args[1:])
	case "bare":
		return runBare(ctx, args[1:])
	case "setup":
		return runSetup(ctx, args[1:])
	case "mail":
		return runMail(ctx, args[1:])
	case "mail-sink":
		return runMailSink(ctx, args[1:])
	}
	return errors.New(usage)
}
