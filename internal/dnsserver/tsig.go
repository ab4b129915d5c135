package dnsserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"net/netip"
	"slices"
	"time"

	"github.com/miekg/dns"
)

// TSIGKey is a secret shared with a secondary for transaction signatures
// (RFC 8945) on zone transfers, NOTIFY and the queries it signs (its SOA
// refresh query).
type TSIGKey struct {
	// Name is the key's name, a domain name ("xfr.example."), as the
	// secondary calls it too.
	Name string
	// Algorithm is dns.HmacSHA256, dns.HmacSHA384 or dns.HmacSHA512.
	Algorithm string
	Secret    []byte
}

// WithTSIGKeys makes keys known to the server: transfers signed with one of
// them can be allowed (WithTransferKeys), NOTIFY signed (WithSignedNotify),
// and any request signed with one of them gets an answer signed with it.
// A request signed with any other key is answered NOTAUTH (BADKEY).
func WithTSIGKeys(keys ...TSIGKey) Option {
	return func(o *options) {
		if o.tsigKeys == nil {
			o.tsigKeys = make(tsigKeyring, len(keys))
		}
		for _, k := range keys {
			k.Name, k.Algorithm = dns.CanonicalName(k.Name), dns.CanonicalName(k.Algorithm)
			o.tsigKeys[k.Name] = k
		}
	}
}

// WithTransferKeys allows zone transfers signed with the named keys, from
// any address: the signature, not the address, says who asks.
func WithTransferKeys(names ...string) Option {
	return func(o *options) {
		if o.transferKeys == nil {
			o.transferKeys = make(map[string]bool, len(names))
		}
		for _, n := range names {
			o.transferKeys[dns.CanonicalName(n)] = true
		}
	}
}

// tsigKeyring is the server's keys by canonical name. It is the
// dns.TsigProvider of the TCP server, the transfer client and NOTIFY: a key
// is found by name and must be used with its own algorithm (RFC 8945 5.2.1:
// a known name with another algorithm is BADKEY too, reported by miekg/dns
// as dns.ErrSecret).
type tsigKeyring map[string]TSIGKey

func (r tsigKeyring) Generate(msg []byte, t *dns.TSIG) ([]byte, error) {
	k, ok := r[dns.CanonicalName(t.Hdr.Name)]
	if !ok || k.Algorithm != dns.CanonicalName(t.Algorithm) {
		return nil, dns.ErrSecret
	}
	var h hash.Hash
	switch k.Algorithm {
	case dns.HmacSHA256:
		h = hmac.New(sha256.New, k.Secret)
	case dns.HmacSHA384:
		h = hmac.New(sha512.New384, k.Secret)
	case dns.HmacSHA512:
		h = hmac.New(sha512.New, k.Secret)
	default:
		return nil, dns.ErrKeyAlg
	}
	h.Write(msg)
	return h.Sum(nil), nil
}

func (r tsigKeyring) Verify(msg []byte, t *dns.TSIG) error {
	mac, err := r.Generate(msg, t)
	if err != nil {
		return err
	}
	got, err := hex.DecodeString(t.MAC)
	// A MAC cut short (RFC 8945 5.2.2.1 allows truncation to half) is not
	// accepted: no secondary in use sends one.
	if err != nil || !hmac.Equal(mac, got) {
		return dns.ErrSig
	}
	return nil
}

// tsigFudge is the clock difference allowed between signer and server
// (RFC 8945 10: 300 seconds).
const tsigFudge = 300

// tsigErrorCode maps what miekg/dns's verification reported to the TSIG
// error of RFC 8945 5.2: an unknown key (or one used with another
// algorithm) is BADKEY, a wrong MAC BADSIG, a time outside the fudge
// BADTIME. 0: the signature holds.
func tsigErrorCode(status error) uint16 {
	switch status {
	case nil:
		return 0
	case dns.ErrSecret, dns.ErrKeyAlg:
		return dns.RcodeBadKey
	case dns.ErrTime:
		return dns.RcodeBadTime
	}
	return dns.RcodeBadSig
}

// tsigReason is a refusal's reason in the log.
var tsigReason = map[uint16]string{
	dns.RcodeBadKey:  "unknown key, or a known key with another algorithm (BADKEY)",
	dns.RcodeBadSig:  "the signature does not verify (BADSIG)",
	dns.RcodeBadTime: "signed outside the allowed clock difference (BADTIME)",
}

// signReply adds to resp, the answer to the signed request req, the TSIG
// record that RFC 8945 5.3 asks for: with the request's key and
// algorithm, and for a verification failure the error. The signing itself
// happens as resp is packed (the ResponseWriter, or packSigned), since the
// MAC covers the packed message. BADKEY and BADSIG answers go unsigned
// (the client's key is not known, or not proved); a BADTIME answer is
// signed and carries the server's clock in its other data (5.2.3).
func signReply(resp, req *dns.Msg, code uint16) {
	t := req.IsTsig()
	// Canonical, as the MAC covers it anyway: an empty algorithm name (a
	// TSIG record with no data) would be written as nothing at all.
	resp.SetTsig(t.Hdr.Name, dns.CanonicalName(t.Algorithm), tsigFudge, time.Now().Unix())
	if code == 0 {
		return
	}
	resp.Rcode = dns.RcodeNotAuth
	rr := resp.IsTsig()
	rr.Error = code
	if code == dns.RcodeBadTime {
		now := uint64(time.Now().Unix())
		rr.TimeSigned = t.TimeSigned
		rr.OtherLen = 6
		rr.OtherData = hex.EncodeToString([]byte{byte(now >> 40), byte(now >> 32), byte(now >> 24), byte(now >> 16), byte(now >> 8), byte(now)})
	}
}

// packSigned packs resp, which carries a TSIG record from signReply, into
// out with its MAC (over UDP, where no ResponseWriter does it).
func (s *Server) packSigned(resp, req *dns.Msg, out []byte) ([]byte, error) {
	packed, _, err := dns.TsigGenerateWithProvider(resp, s.tsigProvider(), req.IsTsig().MAC, false)
	if err != nil {
		return nil, err
	}
	return append(out[:0], packed...), nil
}

// transferAuthorized decides who may transfer: a request signed with a
// key of WithTransferKeys from anywhere, or any request from an address of
// WithTransfer. The signature has been verified before.
func (s *Server) transferAuthorized(req *dns.Msg, remote netip.Addr) bool {
	if t := req.IsTsig(); t != nil && s.opts.transferKeys[dns.CanonicalName(t.Hdr.Name)] {
		return true
	}
	return s.transferAllowed(remote)
}

// verifyTSIG checks the signature of pkt, a signed request, with the
// server's keys (over UDP; over TCP the ResponseWriter has done it).
func (s *Server) verifyTSIG(pkt []byte) error {
	// On a copy: verification writes the original ID into it.
	return dns.TsigVerifyWithProvider(slices.Clone(pkt), s.tsigProvider(), "", false)
}

// signedAnswer turns resp, reply's answer to req, a signed request that is
// not a transfer (a secondary's SOA query, say), into what RFC 8945 5.2
// and 5.3 ask for, fitted to limit bytes: when the signature failed
// (status), NOTAUTH with the TSIG error and nothing else; when it holds,
// resp signed with the request's key, for the client rejects an unsigned
// answer to a signed query (BIND logs "expected a TSIG or SIG(0)" and
// never refreshes). FORMERR goes unsigned, as for transfers: the request
// was not one to answer.
func (s *Server) signedAnswer(resp, req *dns.Msg, status error, remote netip.Addr, limit int) *dns.Msg {
	if resp.Rcode == dns.RcodeFormatError {
		fit(resp, limit)
		return resp
	}
	t := req.IsTsig()
	if code := tsigErrorCode(status); code != 0 {
		s.logSignedQueryRefusal(req, remote, t.Hdr.Name, tsigReason[code])
		refusal := new(dns.Msg).SetReply(req)
		withEDNS(refusal, req, s.opts.maxUDP)
		signReply(refusal, req, code)
		return refusal
	}
	// Fit without the TSIG record, leaving room for it: fit would take it
	// for an additional record it may drop.
	signReply(resp, req, 0)
	sig := resp.Extra[len(resp.Extra)-1]
	resp.Extra = resp.Extra[:len(resp.Extra)-1]
	limit -= signedTSIGLen(sig.(*dns.TSIG))
	fit(resp, limit)
	if resp.Len() > limit {
		// fit cuts no lower than 512 bytes, all a client without EDNS
		// takes with the signature: send none of the records, and TC.
		resp.Truncated = true
		resp.Answer, resp.Ns = nil, nil
		resp.Extra = nil
		withEDNS(resp, req, s.opts.maxUDP)
	}
	resp.Extra = append(resp.Extra, sig)
	return resp
}

// signedTSIGLen is the size of t, a TSIG record without its MAC yet, once
// signed.
func signedTSIGLen(t *dns.TSIG) int {
	n := dns.Len(t)
	switch dns.CanonicalName(t.Algorithm) {
	case dns.HmacSHA256:
		n += sha256.Size
	case dns.HmacSHA384:
		n += sha512.Size384
	default:
		n += sha512.Size
	}
	return n
}

// logSignedQueryRefusal logs a signed query refused for its signature,
// through the limiter of refused transfers (a spoofed flood over UDP
// cannot fill the log either).
func (s *Server) logSignedQueryRefusal(req *dns.Msg, remote netip.Addr, key, reason string) {
	ok, suppressed := s.refusalLog.allow()
	if !ok {
		return
	}
	attrs := []any{"client", remote, "key", key, "reason", reason}
	if len(req.Question) > 0 {
		attrs = append(attrs, "name", req.Question[0].Name, "type", dns.TypeToString[req.Question[0].Qtype])
	}
	if suppressed > 0 {
		attrs = append(attrs, "not_logged_before", suppressed)
	}
	s.logger.Warn("dns: signed query refused", attrs...)
}
