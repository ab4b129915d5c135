package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
)

// bareAnswer is what an availability check answers, fixed: the bare handler
// does no work, so it measures the HTTP stack alone.
var bareAnswer = []byte(`{"success":true,"data":{"domain":"example","extension":".inf.nz","available":true,"isPremium":false,"price":8,"renewalPrice":8}}` + "\n")

// runBare serves bareAnswer from net/http until ctx ends.
func runBare(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bare", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr().String())
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bareAnswer)
	})}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}
