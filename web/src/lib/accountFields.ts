// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import type { Rules } from './rules'

/**
 * The server's rules of the account fields (GET /api/rules): lengths of a
 * username, a password and a full name, the characters of a new username,
 * and the messages the server answers with. Sign-up, login and the password
 * forms check with these as the user types; the server checks again.
 */
export type AccountRules = Rules['account']

/** Characters as the server counts them (code points, not UTF-16 units). */
const length = (value: string) => Array.from(value).length

/**
 * A username. Login checks only the minimum (as the server does there);
 * sign-up (`forSignUp`) also the maximum and the characters. Surrounding
 * spaces do not count. Without the rules, nothing is checked here.
 */
export function usernameSchema(rules: AccountRules | undefined, { forSignUp = false } = {}) {
  if (!rules) return z.string()
  const fits = (value: string) => {
    const n = length(value.trim())
    return n >= rules.minUsernameLength && n <= rules.maxUsernameLength
  }
  const pattern = new RegExp(rules.usernamePattern)
  return z.string().check(
    z.refine((value) => length(value.trim()) >= rules.minUsernameLength, rules.usernameTooShortMessage),
    ...(forSignUp
      ? [
          z.refine<string>((value) => length(value.trim()) <= rules.maxUsernameLength, rules.usernameTooLongMessage),
          // The characters once the length is right, as the server does.
          z.refine<string>((value) => !fits(value) || pattern.test(value.trim()), rules.usernameCharactersMessage),
        ]
      : []),
  )
}

/** A password (a new one, or the one to log in with): its length, spaces included. */
export function passwordSchema(rules: AccountRules | undefined) {
  if (!rules) return z.string()
  return z.string().check(
    z.refine((value) => length(value) >= rules.minPasswordLength, rules.passwordTooShortMessage),
    z.refine((value) => length(value) <= rules.maxPasswordLength, rules.passwordTooLongMessage),
  )
}

/** A password typed again, or the current one: long enough to be one. */
export function repeatedPasswordSchema(rules: AccountRules | undefined) {
  if (!rules) return z.string()
  return z.string().check(z.refine((value) => length(value) >= rules.minPasswordLength, rules.passwordTooShortMessage))
}

/** A full name, trimmed. */
export function fullNameSchema(rules: AccountRules | undefined) {
  if (!rules) return z.string().check(z.trim())
  return z
    .string()
    .check(
      z.trim(),
      z.refine((value) => length(value) >= rules.minFullNameLength, rules.fullNameRequiredMessage),
      z.refine((value) => length(value) <= rules.maxFullNameLength, rules.fullNameTooLongMessage),
    )
}

/** An email address, with the server's message (zod's own until the rules are known). */
export function emailSchema(rules: AccountRules | undefined) {
  return rules ? z.email(rules.emailMessage) : z.email()
}

/**
 * The check that `confirm` repeats `password`, on `confirm`, once `ready`
 * says both are worth comparing. Without the rules the server alone
 * compares them (it answers with the message).
 */
export function matchingPasswords<Values extends Record<string, unknown>>(
  rules: AccountRules | undefined,
  password: keyof Values & string,
  confirm: keyof Values & string,
  ready: (values: Values) => boolean,
) {
  return z.refine<Values>((values) => !rules || values[password] === values[confirm], {
    message: rules?.passwordsMismatchMessage,
    path: [confirm],
    // Reported as soon as both passwords are long enough, even while other fields still have errors.
    when: (payload) => ready(payload.value as Values),
  })
}
