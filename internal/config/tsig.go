package config

import (
	"encoding/base64"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/miekg/dns"
	"github.com/spf13/viper"
)

// TSIGKey is a key of --dns-tsig-key: a name (canonical, "xfr.example."),
// an algorithm as miekg/dns names it ("hmac-sha256.") and the secret.
type TSIGKey struct {
	Name      string
	Algorithm string
	Secret    []byte
}

// NotifyTarget is an entry of --dns-notify: the secondary's host:port and
// the name of the key that signs its NOTIFY ("": unsigned).
type NotifyTarget struct {
	Addr string
	Key  string
}

// tsigAlgorithms are the algorithms a key may use. HMAC-SHA1 and HMAC-MD5
// are left out as weak (RFC 8945 6 makes SHA-256 the one to use); every
// secondary in use (NSD, Knot, BIND) has SHA-256.
var tsigAlgorithms = map[string]string{
	"hmac-sha256": dns.HmacSHA256,
	"hmac-sha384": dns.HmacSHA384,
	"hmac-sha512": dns.HmacSHA512,
}

// minTSIGSecret is the shortest secret taken: 128 bits (tsig-keygen and
// nsd-control make 256).
const minTSIGSecret = 16

// parseTSIGKey reads name:algorithm:secret. Its errors name the key, never
// the secret: they end up in logs.
func parseTSIGKey(entry string, n int) (TSIGKey, error) {
	parts := strings.SplitN(entry, ":", 3)
	if len(parts) != 3 || parts[0] == "" {
		return TSIGKey{}, fmt.Errorf("config: --dns-tsig-key entry %d: want name:algorithm:secret", n)
	}
	name := strings.TrimSpace(parts[0])
	if _, ok := dns.IsDomainName(name); !ok || strings.ContainsAny(name, " \t") {
		return TSIGKey{}, fmt.Errorf("config: --dns-tsig-key entry %d: key name %q is not a domain name", n, name)
	}
	k := TSIGKey{Name: dns.CanonicalName(name)}
	alg := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(parts[1]), "."))
	var ok bool
	if k.Algorithm, ok = tsigAlgorithms[alg]; !ok {
		return TSIGKey{}, fmt.Errorf("config: --dns-tsig-key %q: algorithm %q: want hmac-sha256, hmac-sha384 or hmac-sha512 (hmac-sha1 and hmac-md5 are refused as weak)", k.Name, parts[1])
	}
	secret, err := base64.StdEncoding.DecodeString(strings.TrimSpace(parts[2]))
	if err != nil {
		return TSIGKey{}, fmt.Errorf("config: --dns-tsig-key %q: the secret is not base64", k.Name)
	}
	if len(secret) < minTSIGSecret {
		return TSIGKey{}, fmt.Errorf("config: --dns-tsig-key %q: the secret is %d bytes; want at least %d", k.Name, len(secret), minTSIGSecret)
	}
	k.Secret = secret
	return k, nil
}

// loadTSIG reads --dns-tsig-key, then --dns-transfer-allow and --dns-notify,
// whose key:NAME entries must name one of the keys.
func (c *Config) loadTSIG(v *viper.Viper) error {
	for i, entry := range splitList(v.GetString("dns-tsig-key")) {
		k, err := parseTSIGKey(entry, i+1)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(c.DNSTSIGKeys, func(o TSIGKey) bool { return o.Name == k.Name }) {
			return fmt.Errorf("config: --dns-tsig-key %q is given twice", k.Name)
		}
		c.DNSTSIGKeys = append(c.DNSTSIGKeys, k)
	}
	key := func(flag, name string) (string, error) {
		name = strings.TrimSpace(name)
		if _, ok := dns.IsDomainName(name); ok && name != "" {
			canonical := dns.CanonicalName(name)
			if slices.ContainsFunc(c.DNSTSIGKeys, func(k TSIGKey) bool { return k.Name == canonical }) {
				return canonical, nil
			}
		}
		return "", fmt.Errorf("config: --%s key:%s: no such key in --dns-tsig-key", flag, name)
	}
	for _, a := range splitList(v.GetString("dns-transfer-allow")) {
		if name, isKey := strings.CutPrefix(a, "key:"); isKey {
			k, err := key("dns-transfer-allow", name)
			if err != nil {
				return err
			}
			c.DNSTransferKeys = append(c.DNSTransferKeys, k)
			continue
		}
		p, err := parsePrefix(a)
		if err != nil {
			return fmt.Errorf("config: --dns-transfer-allow %q: want an address, a prefix or key:NAME: %w", a, err)
		}
		c.DNSTransferAllow = append(c.DNSTransferAllow, p)
	}
	for _, t := range splitList(v.GetString("dns-notify")) {
		target := NotifyTarget{Addr: t}
		if rest, isKey := strings.CutPrefix(t, "key:"); isKey {
			name, addr, found := strings.Cut(rest, "@")
			if !found {
				return fmt.Errorf("config: --dns-notify %q: want key:NAME@host:port", t)
			}
			k, err := key("dns-notify", name)
			if err != nil {
				return err
			}
			target = NotifyTarget{Addr: strings.TrimSpace(addr), Key: k}
		}
		if _, _, err := net.SplitHostPort(target.Addr); err != nil {
			return fmt.Errorf("config: --dns-notify %q: want host:port or key:NAME@host:port", t)
		}
		c.DNSNotify = append(c.DNSNotify, target)
	}
	return nil
}
