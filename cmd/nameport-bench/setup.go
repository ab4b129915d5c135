package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strconv"
)

// runSetup logs a registrar in, gives it a new API key and funds its wallet
// (demo mode: deposits complete at once), and prints the key.
func runSetup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	base := fs.String("url", "", "server URL, e.g. http://127.0.0.1:8080")
	user := fs.String("user", "demo-registrar", "registrar username")
	password := fs.String("password", "demo1234", "its password")
	fund := fs.Int("fund", 100_000, "dollars to deposit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" {
		return fmt.Errorf("setup: -url is required")
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	call := func(method, path string, headers map[string]string, body, out any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, method, *base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode > 299 {
			return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, data)
		}
		if out != nil {
			return json.Unmarshal(data, out)
		}
		return nil
	}

	if err := call("POST", "/api/auth/login", nil, map[string]string{"username": *user, "password": *password}, nil); err != nil {
		return err
	}
	var key struct {
		Data struct {
			APIKey string `json:"apiKey"`
		} `json:"data"`
	}
	if err := call("POST", "/api/registrar/api-key", nil, struct{}{}, &key); err != nil {
		return err
	}
	auth := map[string]string{"X-API-Key": key.Data.APIKey}
	const chunk = 10_000 // the largest single deposit
	for left := *fund; left > 0; left -= chunk {
		amount := min(left, chunk)
		auth["Idempotency-Key"] = "bench-setup-" + strconv.Itoa(left)
		if err := call("POST", "/v1/wallet/deposits", auth, map[string]any{"amount": amount, "paymentMethod": "credit_card"}, nil); err != nil {
			return err
		}
	}
	fmt.Println(key.Data.APIKey)
	return nil
}
