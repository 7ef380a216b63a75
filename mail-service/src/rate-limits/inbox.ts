/**
 * A domain in its IDNA ASCII form: UTS #46 mapped (full-width letters become ASCII, upper case
 * lower, `ß` stays `ß`), then Punycode for what is still beyond ASCII, as the WHATWG URL parser
 * does it (Node and workerd: one mapping, the platform's). Undefined when IDNA refuses it.
 * @example asciiDomain('Ｍünchen.de') // 'xn--mnchen-3ya.de'
 */
export function asciiDomain(domain: string): string | undefined {
  try {
    return new URL(`http://${domain}`).hostname
  } catch {
    return undefined
  }
}

const encoder = new TextEncoder()

/** What RFC 5321 (4.5.3.1) and RFC 1035 (2.3.4) allow, in octets, and the refusals that say so. */
export const tooLong = {
  localPart: 'must have a local part of at most 64 octets',
  label: 'must have domain labels of at most 63 characters in their ASCII (IDNA) form',
  address: 'must be at most 254 octets with its domain in its ASCII (IDNA) form',
} as const

/**
 * Why an address cannot be delivered as one inbox, or undefined when it can: a domain IDNA
 * refuses, a local part over 64 octets (UTF-8), a label over 63 in its ASCII form, or more than
 * 254 octets in all once its domain is in that form.
 */
export function addressProblem(email: string): string | undefined {
  const at = email.lastIndexOf('@')
  const domain = asciiDomain(email.slice(at + 1))
  if (domain === undefined) return 'must have a domain IDNA can map, like example.com'
  const localOctets = encoder.encode(email.slice(0, at)).length
  if (localOctets > 64) return tooLong.localPart
  if (domain.split('.').some((label) => label.length > 63)) return tooLong.label
  if (localOctets + 1 + domain.length > 254) return tooLong.address
  return undefined
}

/**
 * The inbox an address reaches, as the recipient limit counts it: the local part in lower case
 * and without its `+tag`, the domain in its IDNA ASCII form (`asciiDomain`), so one inbox has
 * one count however the address is spelt (`Ada+news@ＥXAMPLE.com` is `ada@example.com`,
 * `ada@münchen.de` is `ada@xn--mnchen-3ya.de`). Dots stay: only some providers ignore them
 * (Gmail does), and elsewhere `a.da@` and `ada@` may be two people. A local part that starts
 * with `+` has no tag to remove. An address `addressProblem` refuses never comes here; should
 * one, its domain is counted in lower case as given.
 * @example recipientOf('Ada+news@Example.COM') // 'ada@example.com'
 */
export function recipientOf(email: string): string {
  const at = email.lastIndexOf('@')
  const local = email.slice(0, at)
  const plus = local.indexOf('+')
  const untagged = plus > 0 ? local.slice(0, plus) : local
  const domain = email.slice(at + 1)
  return `${untagged.toLowerCase()}@${asciiDomain(domain) ?? domain.toLowerCase()}`
}
