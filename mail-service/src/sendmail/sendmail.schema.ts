import { z } from '@hono/zod-openapi'

const atext = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]"
const label = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?'
/**
 * Exactly one bare address: dot-separated atoms, `@`, a dotted domain. No list separators,
 * display names, quotes, comments, whitespace or control characters can match, which is what
 * keeps the provider's `to` from becoming an open relay or a header injection.
 */
const singleAddress = new RegExp(`^${atext}+(?:\\.${atext}+)*@(?:${label}\\.)+${label}$`, 'u')
const controlCharacter = /[\p{Cc}\u2028\u2029]/u

export const sendMailBodySchema = z
  .object({
    email: z
      .string()
      .max(254, 'must be at most 254 characters')
      .regex(singleAddress, 'must be exactly one email address, like ada@example.com')
      .openapi({ example: 'ada@example.com', format: 'email' }),
    name: z
      .string()
      .refine((name) => name.length > 0, { message: 'must not be empty', abort: true })
      .refine((name) => [...name].length <= 100, 'must be at most 100 characters')
      .refine((name) => !controlCharacter.test(name), 'must not contain control characters')
      .refine((name) => name.trim().length > 0, 'must not be blank')
      .openapi({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 }),
  })
  .openapi('SendMailRequest')

export type SendMailBody = z.infer<typeof sendMailBodySchema>

export const providerAnswerSchema = z
  .looseObject({
    id: z.string().openapi({ example: '<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>' }),
    message: z.string().openapi({ example: 'Queued. Thank you.' }),
  })
  .openapi('ProviderAnswer', {
    description: "The mail provider's answer, passed on byte for byte",
  })
