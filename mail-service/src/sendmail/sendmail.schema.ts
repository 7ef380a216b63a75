import {
  documented,
  invisibleRanges,
  invisibleText,
  isVisibleText,
  malformedText,
  named,
} from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import { addressProblem, tooLong } from '../rate-limits/inbox.js'

// Addresses hold ASCII `atext` and, beyond ASCII, letters and digits of any script (\p{L},
// \p{N}). A published pattern must mean the same with and without the `u` flag (Spectral
// compiles without it, ajv with it), which \p{...} cannot, so the check has two steps: the
// shape, where any character beyond ASCII may stand for a letter or digit, then
// `lettersBeyondAscii`. Together they admit exactly what `[\p{L}\p{N}...]` in the shape would.

/** A surrogate pair: one character beyond the BMP, spelt without `u` as it is matched with it. */
const pair = '[\\ud800-\\udbff][\\udc00-\\udfff]'
/**
 * Any character beyond ASCII but a lone surrogate: a negated class, which takes an astral
 * character whole with `u`, or a pair, which spells it without.
 */
const beyondAscii = `(?:[^\\u0000-\\u007f\\ud800-\\udfff]|${pair})`
const atext = `(?:[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]|${beyondAscii})`
const alnum = `(?:[A-Za-z0-9]|${beyondAscii})`
const alnumOrHyphen = `(?:[A-Za-z0-9-]|${beyondAscii})`
const label = `${alnum}(?:${alnumOrHyphen}*${alnum})?`
/**
 * Exactly one bare address: dot-separated atoms, `@`, a dotted domain. No list separators,
 * display names, quotes, comments, whitespace or control characters can match, which is what
 * keeps the provider's `to` from becoming an open relay or a header injection.
 */
const addressShape = new RegExp(`^${atext}+(?:\\.${atext}+)*@(?:${label}\\.)+${label}$`)
const lettersBeyondAscii = /^[\p{ASCII}\p{L}\p{N}]*$/u
// The lengths as patterns count characters, which are octets where they are ASCII; the
// refinement after them counts octets, with the domain in its ASCII form.
const localPartOf64 = new RegExp(`^(?:[^@\\ud800-\\udfff]|${pair}){1,64}@`)
const labelsOf63 = new RegExp(`@(?:${alnumOrHyphen}{1,63}\\.)+${alnumOrHyphen}{1,63}$`)
const invalidAddress = 'must be exactly one email address, like ada@example.com'
/** Cc and the Unicode line and paragraph separators, as ranges: the same with or without `u`. */
const controlRanges = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029'
const controlCharacter = new RegExp(`[${controlRanges}]`)
/** What the checks of `name` below admit, as one pattern for the document. */
const printableNotBlank = `^(?=[\\s\\S]*\\S)(?:[^${controlRanges}${invisibleRanges}\\ud800-\\udfff]|${pair})*$`

export const sendMailBodySchema = named(
  'SendMailRequest',
  z.object({
    email: documented(
      z.string().check(
        z.maxLength(254, { error: 'must be at most 254 characters', abort: true }),
        z.regex(addressShape, { error: invalidAddress, abort: true }),
        z.refine((email) => lettersBeyondAscii.test(email), { error: invalidAddress, abort: true }),
        z.regex(localPartOf64, { error: tooLong.localPart, abort: true }),
        z.regex(labelsOf63, { error: tooLong.label, abort: true }),
        z.superRefine((email, context) => {
          const problem = addressProblem(email)
          if (problem) context.addIssue({ code: 'custom', message: problem, input: email })
        }),
      ),
      // No `format: email`: it refuses the Unicode addresses this accepts.
      {
        example: 'ada@example.com',
        description:
          'One bare address. Beyond ASCII only letters and digits (Unicode L and N), which the ' +
          'pattern cannot say: it admits any character there. At most 64 octets (UTF-8) before ' +
          'the `@`, and labels of at most 63 and 254 octets in all with the domain in its IDNA ' +
          'ASCII form. Delivered and logged as given; the recipient rate limit counts it with ' +
          'its domain in that form, in lower case, without the `+tag` of its local part.',
      },
    ),
    name: documented(
      z.string().check(
        z.refine((name) => name.length > 0, { message: 'must not be empty', abort: true }),
        z.refine((name) => [...name].length <= 100, 'must be at most 100 characters'),
        z.refine((name) => !controlCharacter.test(name), 'must not contain control characters'),
        z.refine(isVisibleText, { error: invisibleText, abort: true }),
        z.refine((name) => name.trim().length > 0, 'must not be blank'),
        z.refine((name) => name.isWellFormed(), malformedText.value),
      ),
      // The refinements have no JSON Schema of their own: what they admit, said by hand.
      {
        example: 'Ada Lovelace',
        minLength: 1,
        maxLength: 100,
        pattern: printableNotBlank,
        description:
          'Not blank, without control characters, bidi controls or zero-width characters ' +
          '(a name that could show as another), well-formed (no lone surrogate)',
      },
    ),
  }),
  { example: { email: 'ada@example.com', name: 'Ada Lovelace' } },
)

export type SendMailBody = z.infer<typeof sendMailBodySchema>

export const providerAnswerSchema = named(
  'ProviderAnswer',
  z.looseObject({
    id: documented(z.string(), { example: '<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>' }),
    message: documented(z.string(), { example: 'Queued. Thank you.' }),
  }),
  {
    description: "The mail provider's answer, passed on byte for byte",
    example: {
      id: '<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>',
      message: 'Queued. Thank you.',
    },
  },
)

export type ProviderAnswer = z.infer<typeof providerAnswerSchema>

export const unreadableAnswerSchema = named('UnreadableAnswer', z.object({ message: z.string() }), {
  description:
    'The provider answered 2xx, so it took the message, but its answer could not be read',
  example: {
    message:
      'sent: the mail provider took the message (status 200), but its answer is not a JSON object',
  },
})

export type UnreadableAnswer = z.infer<typeof unreadableAnswerSchema>
