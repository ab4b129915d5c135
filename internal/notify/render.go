package notify

import (
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"
)

// rendered is a message ready to send: subject and plain-text body.
type rendered struct {
	Subject string
	Body    string
	// ReplyTo, when set, is a bare address the Reply-To header names.
	ReplyTo string
}

// recipient is who a message goes to: the account's holder, or only an
// address (no names) for the kinds that may reach a stranger.
type recipient struct {
	Email    string `bun:"email"`
	FullName string `bun:"full_name"`
	Username string `bun:"username"`
}

func (r recipient) greeting() string {
	name := strings.TrimSpace(r.FullName)
	if name == "" {
		name = r.Username
	}
	if name == "" {
		return "Hello,"
	}
	return "Hello " + name + ","
}

// render writes the subject and body of a message of kind to r. publicURL
// is where the web app lives, for links to it.
func render(kind string, data map[string]string, r recipient, publicURL string) (rendered, error) {
	d := func(key string) string { return data[key] }
	dashboard := strings.TrimRight(publicURL, "/") + "/dashboard"
	wallet := strings.TrimRight(publicURL, "/") + "/wallet"
	var subject string
	var reply rendered
	why := "You receive this email because you have a Nameport account."
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("%s", r.greeting())
	line("")

	switch kind {
	case KindRegistrationReceipt:
		subject = fmt.Sprintf("Registration confirmed: %s", d("domain"))
		line("Thank you for registering %s with Nameport. The domain is yours and", d("domain"))
		line("its DNS is live on our name servers.")
		line("")
		years := 1
		if n, err := strconv.Atoi(d("years")); err == nil && n > 0 {
			years = n
		}
		rows := [][2]string{
			{"Domain", d("domain")},
			{"Period", plural(years, "year")},
			{"Amount paid", dollars(d("amount"))},
			{"Expires on", date(d("expiresAt"))},
		}
		if d("balance") != "" {
			rows = append(rows, [2]string{"Wallet balance", dollars(d("balance"))})
		}
		table(&b, rows)
		line("")
		line("Manage its DNS records and renewal from your dashboard:")
		line("%s", dashboard)

	case KindDepositReceipt:
		subject = fmt.Sprintf("Receipt: %s added to your Nameport wallet", dollars(d("amount")))
		line("We have received your deposit. Here is your receipt.")
		line("")
		rows := [][2]string{{"Amount", dollars(d("amount"))}}
		if d("method") != "" {
			rows = append(rows, [2]string{"Payment method", d("method")})
		}
		rows = append(rows, [2]string{"New balance", dollars(d("balance"))})
		table(&b, rows)
		line("")
		line("See every transaction in your wallet:")
		line("%s", wallet)

	case KindRenewalSucceeded:
		subject = fmt.Sprintf("%s has been renewed", d("domain"))
		line("%s has been renewed automatically. Nothing else is needed from you.", d("domain"))
		line("")
		rows := [][2]string{
			{"Domain", d("domain")},
			{"Amount charged", dollars(d("amount"))},
			{"New expiry date", date(d("expiresAt"))},
		}
		if d("balance") != "" {
			rows = append(rows, [2]string{"Wallet balance", dollars(d("balance"))})
		}
		table(&b, rows)

	case KindRenewalFailed:
		subject = fmt.Sprintf("Action needed: we could not renew %s", d("domain"))
		reason := d("reason")
		if reason == "" {
			reason = "Your wallet balance does not cover the renewal price."
		}
		line("We tried to renew %s but could not. %s", d("domain"), reason)
		line("")
		rows := [][2]string{
			{"Domain", d("domain")},
			{"Renewal price", dollars(d("amount"))},
		}
		if d("balance") != "" {
			rows = append(rows, [2]string{"Wallet balance", dollars(d("balance"))})
		}
		rows = append(rows, [2]string{"Expires on", date(d("expiresAt"))})
		if d("graceEndsAt") != "" {
			rows = append(rows, [2]string{"Grace period ends", date(d("graceEndsAt"))})
		}
		table(&b, rows)
		line("")
		line("Add funds to your wallet and we will try again, so the domain and its")
		line("DNS keep working:")
		line("%s", wallet)

	case KindExpiryWarning:
		days, _ := strconv.Atoi(d("days"))
		subject = fmt.Sprintf("%s expires in %s", d("domain"), plural(days, "day"))
		line("%s expires on %s, in %s.", d("domain"), date(d("expiresAt")), plural(days, "day"))
		line("")
		if d("amount") != "" {
			line("Renewing it for another year costs %s. Make sure your wallet holds at", dollars(d("amount")))
			line("least that much so the renewal goes through.")
		} else {
			line("Make sure your wallet holds enough for the renewal so it goes through.")
		}
		line("")
		line("Your domains and wallet: %s", dashboard)

	case KindDomainExpired:
		subject = fmt.Sprintf("%s has expired", d("domain"))
		line("%s expired on %s and its DNS no longer resolves.", d("domain"), date(d("expiresAt")))
		line("")
		line("It is in its grace period until %s: renew it before then and it is", date(d("graceEndsAt")))
		line("yours again, with all its records. After that date it is released and")
		line("anyone may register it.")
		line("")
		line("Renew it from your dashboard: %s", dashboard)

	case KindDomainReleased:
		subject = fmt.Sprintf("%s has been released", d("domain"))
		line("%s was not renewed before its grace period ended, so it has been", d("domain"))
		line("released. It is no longer in your account and anyone may register it.")
		line("")
		line("If you still want it, search for it and register it again while it is")
		line("available: %s", strings.TrimRight(publicURL, "/")+"/")

	case KindPasswordReset:
		subject = "Reset your Nameport password"
		line("We received a request to reset the password of your Nameport account")
		line("(username: %s). Choose a new password here:", r.Username)
		line("")
		line("%s", d("link"))
		line("")
		line("The link works once and expires in one hour. Resetting your password")
		line("logs you out everywhere.")
		line("")
		line("If you did not ask for this, ignore this email: your password stays")
		line("as it is.")

	case KindVerifyEmail:
		subject = "Verify your email address for Nameport"
		line("Welcome to Nameport! Please confirm that this address belongs to your")
		line("account (username: %s) by opening this link:", r.Username)
		line("")
		line("%s", d("link"))
		line("")
		line("Until you do, you can sign in but not register names or add funds.")
		line("The link works once and expires in 48 hours; your dashboard can send")
		line("a new one.")
		line("")
		line("If you did not sign up for Nameport, ignore this email.")

	case KindVerifyForwarding:
		subject = fmt.Sprintf("Confirm forwarding to %s", d("address"))
		line("The owner of %s on Nameport asked to forward mail to this address", d("domain"))
		line("(%s). Nothing is forwarded until you confirm it: open this link", d("address"))
		line("and press Confirm forwarding:")
		line("")
		line("%s", d("link"))
		line("")
		line("If you did not expect this, ignore this email: nothing will be")
		line("forwarded to you.")
		why = "You receive this email because this address was named on Nameport to\nreceive forwarded mail."

	case KindTierApproved:
		tier := tierName(d("tier"))
		registrar := strings.TrimRight(publicURL, "/") + "/registrar-dashboard"
		subject = fmt.Sprintf("Your %s tier application is approved", tier)
		line("Good news: your application for the %s registrar tier has been", tier)
		line("approved. Your account is on the %s tier from now on, and its", tier)
		line("wholesale prices apply to your next registrations and renewals.")
		line("")
		line("Your registrar dashboard: %s", registrar)

	case KindTierDeclined:
		tier := tierName(d("tier"))
		subject = fmt.Sprintf("Your %s tier application", tier)
		line("We have reviewed your application for the %s registrar tier and", tier)
		line("cannot grant it at this time. Your account stays on the %s tier", tierName(d("currentTier")))
		line("and keeps working as before.")
		if reason := oneLine(d("reason")); reason != "" {
			line("")
			line("Our note: %s", reason)
		}
		line("")
		line("Questions? Reply to this email and our team will get back to you.")

	case KindTwoFactorEnabled, KindTwoFactorDisabled:
		settings := dashboard
		method := oneLine(d("method"))
		if method == "" {
			method = "authenticator app"
		}
		if kind == KindTwoFactorEnabled {
			subject = "Two-factor sign-in is on for your Nameport account"
			line("Two-factor sign-in with an %s was turned on for your account.", method)
			line("From now on, signing in asks for a code after your password. Keep")
			line("your recovery codes somewhere safe.")
		} else {
			subject = "Two-factor sign-in is off for your Nameport account"
			line("Two-factor sign-in with an %s was turned off for your account.", method)
			line("Signing in now needs only your password.")
		}
		line("")
		line("Your other sessions were signed out.")
		line("")
		line("If this was not you, reset your password at once and check")
		line("Account Settings in your dashboard: %s", settings)

	case KindPasskeyAdded, KindPasskeyRemoved:
		name := oneLine(d("name"))
		if kind == KindPasskeyAdded {
			subject = "A passkey was added to your Nameport account"
			line("The passkey %q was added to your account. It can sign you in", name)
			line("alone, or confirm a sign-in after your password.")
		} else {
			subject = "A passkey was removed from your Nameport account"
			line("The passkey %q was removed from your account: it cannot sign", name)
			line("you in any more.")
		}
		line("")
		line("Your other sessions were signed out.")
		line("")
		line("If this was not you, reset your password at once and check")
		line("Account Settings in your dashboard: %s", dashboard)

	case KindNewSignIn:
		subject = "New sign-in to your Nameport account"
		line("Your account was signed in to from a browser it had not used before.")
		line("")
		at := d("at")
		if t, err := time.Parse(time.RFC3339, at); err == nil {
			at = t.UTC().Format("2 January 2006, 15:04 UTC")
		}
		rows := [][2]string{{"When", at}, {"Address", oneLine(d("address"))}, {"Browser", oneLine(d("browser"))}}
		for _, row := range rows {
			line("  %-8s %s", row[0]+":", row[1])
		}
		line("")
		line("If this was you, there is nothing to do. If not, reset your password")
		line("at once, sign that session out in Account Settings and turn on")
		line("two-factor sign-in: %s", dashboard)

	case KindAPIKeyCreated:
		subject = "A new API key for your Nameport account"
		line("A new API key, %q, was created for your account.", oneLine(d("name")))
		if prefix := oneLine(d("prefix")); prefix != "" {
			line("It starts with %s.", prefix)
		}
		line("")
		line("If this was not you, revoke the key in the API Access tab of your")
		line("registrar dashboard and reset your password at once: %s", strings.TrimRight(publicURL, "/")+"/registrar-dashboard")

	case KindContactReceived:
		form, topicLabel := "contact request", "Interest"
		if d("form") == "message" {
			form, topicLabel = "contact message", "Subject"
		}
		subject = fmt.Sprintf("New %s from %s", form, oneLine(d("name")))
		if d("form") == "message" && oneLine(d("topic")) != "" {
			subject += ": " + oneLine(d("topic"))
		}
		line("A visitor sent a %s through the website.", form)
		line("")
		nameLabel := "Company"
		if d("form") == "message" {
			nameLabel = "Name"
		}
		rows := [][2]string{{nameLabel, oneLine(d("name"))}, {"Email", oneLine(d("email"))}}
		if topic := oneLine(d("topic")); topic != "" {
			rows = append(rows, [2]string{topicLabel, topic})
		}
		table(&b, rows)
		if msg := strings.TrimSpace(d("message")); msg != "" {
			line("")
			quote(&b, msg)
		}
		line("")
		line("Read and answer it in the Inbox tab of the admin dashboard:")
		line("%s", strings.TrimRight(publicURL, "/")+"/admin-dashboard")
		why = "You receive this email because this address is the site's contact\naddress (Site Settings, Contact Info)."
		if a, err := mail.ParseAddress(d("email")); err == nil && a.Address == d("email") {
			reply.ReplyTo = a.Address
		}

	case KindContactReply:
		subject = "Re: your contact request"
		if topic := oneLine(d("topic")); topic != "" {
			subject = "Re: " + topic
		}
		line("Thank you for contacting Nameport. Our answer:")
		line("")
		line("%s", strings.TrimSpace(d("reply")))
		if msg := strings.TrimSpace(d("message")); msg != "" {
			line("")
			line("You wrote:")
			quote(&b, msg)
		}
		why = "You receive this email because you wrote to us through the contact\nform on our website."

	default:
		return rendered{}, fmt.Errorf("notify: unknown message kind %q", kind)
	}

	line("")
	line("The Nameport team")
	line("")
	line("-- ")
	line("%s", why)
	reply.Subject, reply.Body = subject, b.String()
	return reply, nil
}

// quote writes text as a quoted block, "> " before each line.
func quote(b *strings.Builder, text string) {
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(b, "> %s\n", strings.TrimRight(l, "\r"))
	}
}

// tierName is how mails name a registrar tier: "Premium".
func tierName(tier string) string {
	if tier == "" {
		return ""
	}
	return strings.ToUpper(tier[:1]) + tier[1:]
}

// oneLine keeps free text on one line: a line break in it cannot forge the
// rest of a mail.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// table lines up label: value rows.
func table(b *strings.Builder, rows [][2]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-*s  %s\n", width+1, r[0]+":", r[1])
	}
}

// dollars writes a Data amount of cents as "$8.00" (or "$1,234.50").
func dollars(cents string) string {
	c, err := strconv.ParseInt(cents, 10, 64)
	if err != nil {
		return cents
	}
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	whole := strconv.FormatInt(c/100, 10)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, whole, c%100)
}

// date writes a Data time as "May 1, 2026" (UTC, the date our expiry jobs use).
func date(value string) string {
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return value
	}
	return t.UTC().Format("January 2, 2006")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
