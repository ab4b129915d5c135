-- Pages admins write and publish (internal/pages; spec section 3 "Page"):
-- the legal pages the footer links to, and whatever else an admin adds.
-- Public at /pages/<slug> once published. content is Markdown, which the
-- web app renders without raw HTML. The three legal pages start published
-- with starting texts an admin is expected to review; a page an admin
-- deletes stays deleted.
CREATE TABLE pages (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    slug             TEXT NOT NULL,
    title            TEXT NOT NULL,
    content          TEXT NOT NULL,
    meta_title       TEXT NOT NULL DEFAULT '',
    meta_description TEXT NOT NULL DEFAULT '',
    published        BOOLEAN NOT NULL DEFAULT FALSE,
    author_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,
    featured_image   TEXT NOT NULL DEFAULT '',
    page_type        TEXT NOT NULL DEFAULT 'page'
        CHECK (page_type IN ('page', 'blog', 'career', 'about', 'press', 'contact', 'api')),
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX pages_slug_idx ON pages (slug);

INSERT INTO pages (slug, title, content, meta_title, meta_description, published, page_type, created_at, updated_at)
VALUES ('terms', 'Terms of Service', 'These terms govern your use of this service: the website, its dashboards, the registrar API and the DNS it operates for the names registered here. By creating an account or registering a domain you agree to them.

## 1. Your account

- You must give a real, working email address and keep your contact details current. We use them for notices about your domains, such as renewals and expiry.
- You are responsible for everything done with your account and its API keys. Keep your password and keys secret, use two-factor sign-in where you can, and tell us at once if you suspect someone else has used them.
- You must be old enough to enter into a binding contract where you live.

## 2. Registering domains

- A domain is registered for the number of years you pay for, starting on the day of registration. Availability shown by a search is not a reservation: a name is yours only once its registration completes.
- You register a name in good faith. You may not register a name that infringes someone else''s trademark or other rights, or that is meant to deceive.
- Some names are premium names with their own prices, and prices can depend on a name''s length. The price shown when you register is the price you pay.
- A domain that is not renewed before it expires stops resolving and, after any grace period shown in your dashboard, is released and may be registered by someone else.

## 3. Wallet, payments and refunds

- Registrations and renewals are paid from your account wallet. Deposits are credited once the payment provider or, for bank transfers, our staff confirms them.
- Registration and renewal fees are not refundable once the registration or renewal has completed, except where the law requires otherwise.
- We may change prices for future registrations and renewals; a change never affects a payment already made.

## 4. DNS and forwarding

We answer DNS queries for the names registered here from the records you set, and forward email and web addresses where you configure it. We aim for high availability but do not guarantee uninterrupted service. You are responsible for the content of your records and for what your names point to.

## 5. Acceptable use

You may not use this service or any name registered through it for:

- spam, phishing, malware distribution, or other abuse of networks or people;
- anything illegal where you, we or the affected people are;
- attacks on this service, including attempts to get around rate limits or to reach accounts or data that are not yours.

We may suspend a domain or an account that breaks these rules, and we cooperate with lawful requests from the authorities.

## 6. Registrar partners

Registrars who resell names through the API are bound by these terms for every name they register and must pass on equivalent terms to their own customers.

## 7. Liability

This service is provided as it is. To the extent the law allows, we are not liable for indirect or consequential losses, such as lost profits or lost data, and our total liability to you is limited to the fees you paid us in the twelve months before the claim.

## 8. Ending the agreement

You may close your account at any time; names already paid for stay registered until they expire unless you ask us to release them. We may end or suspend your account for a serious or repeated breach of these terms, after notice where that is reasonable.

## 9. Changes to these terms

We may update these terms. We will post the new version on this page and, for changes that matter, tell you by email before they take effect. Continuing to use the service after that means you accept the new terms.

## 10. Contact

Questions about these terms: use the contact form on the home page, or the contact details in the site footer.
',
    'Terms of Service', 'The terms that govern your use of this service and the domains you register here.', TRUE, 'page', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);

INSERT INTO pages (slug, title, content, meta_title, meta_description, published, page_type, created_at, updated_at)
VALUES ('privacy', 'Privacy Policy', 'This policy explains what personal data this service collects when you use the website, the dashboards and the registrar API, why we collect it, and the choices you have.

## What we collect

- **Account details**: your username, email address and password. Passwords are stored only as a salted hash; we cannot read them. If you turn on two-factor sign-in or passkeys, we keep what is needed to check them.
- **Domains and DNS**: the names you register, their registration and expiry dates, the DNS records, email forwarding and web forwarding you set up.
- **Payments**: your wallet balance, deposits and transactions. Card payments are handled by our payment provider; we never see or store your full card number.
- **Technical data**: the IP address and browser of a sign-in, so that we can warn you about sign-ins from a new device, and a log of registrar API requests, which registrars can read in their dashboard.
- **Messages**: what you send us through the contact form or by email.

## Why we use it

- to provide the service: register and renew your names, answer DNS queries, forward mail and web traffic, and keep your wallet;
- to keep your account safe: sign-in checks, new-device notices, rate limits and abuse prevention;
- to send you notices you need, such as email verification, renewal reminders, expiry warnings and receipts;
- to meet legal obligations, such as accounting rules for payments.

We do not sell your personal data and we do not use it for advertising.

## Who we share it with

- **Payment providers**, to take deposits you make.
- **Email delivery**, to send the messages above.
- **The authorities**, when the law requires it.

Registration data of a domain may be shown in public lookup services (such as WHOIS or RDAP) as far as the rules for the extension require.

## How long we keep it

We keep your account data while your account exists. Payment records are kept as long as accounting law requires. Request logs and sign-in records are kept for a limited time and then deleted.

## Your rights

You can see and correct your account details in your dashboard. You may ask us for a copy of your data, or to delete it, by contacting us; we will answer within one month. Where data protection law gives you further rights, such as objecting to processing or complaining to a supervisory authority, you keep them.

## Cookies

This service uses only the cookies it needs to work. See the [Cookie Policy](/pages/cookies).

## Changes

We will post changes to this policy on this page and, for changes that matter, tell you by email.

## Contact

Questions about your data: use the contact form on the home page, or the contact details in the site footer.
',
    'Privacy Policy', 'What personal data this service collects, why, and the choices you have.', TRUE, 'page', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);

INSERT INTO pages (slug, title, content, meta_title, meta_description, published, page_type, created_at, updated_at)
VALUES ('cookies', 'Cookie Policy', 'This service uses a small number of cookies, all of them needed for it to work. It sets no advertising, analytics or third-party tracking cookies, so there is nothing to opt out of.

## The cookies we set

| Cookie | Purpose | How long it lasts |
| --- | --- | --- |
| `nameport_session` | Keeps you signed in. It holds a random session token and is sent only to this site, never read by scripts. | Until you sign out or close your browser; the server also ends a session that has gone unused for a while. |
| `nameport_device` | Recognises your browser, so that a sign-in from a browser your account has not used before sends you a security notice. It holds a random identifier, not your name or email. | 400 days |

Both cookies are marked HttpOnly and SameSite=Lax, and Secure when the site is served over HTTPS. Neither is set until you sign in or create an account.

## Payment pages

If you pay by card, the payment provider''s own page or form may set its own cookies, under its own cookie policy, to process the payment and prevent fraud.

## Managing cookies

You can delete or block cookies in your browser''s settings. If you block them, you can still browse the public pages and search for domains, but you cannot sign in.

## Changes

If we add a cookie, we will list it on this page first.
',
    'Cookie Policy', 'The cookies this service sets and what each is for.', TRUE, 'page', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);
