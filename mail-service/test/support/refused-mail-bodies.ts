import { invisibleText, malformedText } from '@movies-and-mail/http-kit/routes'

/**
 * A body `POST /sendmail` refuses with 400, as JSON text (bytes where they are not UTF-8), and the response it gets: `issues` for
 * one that fails validation, `error` alone for one that is not a JSON object. `notInDocument`:
 * why the document's schema cannot refuse it too, when it cannot.
 */
export type RefusedMailBody = {
  what: string
  body: string | Uint8Array<ArrayBuffer>
  issues?: { path: string; message: string }[]
  error?: string
  notInDocument?: string
}

const invalidEmail = 'must be exactly one email address, like ada@example.com'
const name = 'Ada'
const withEmail = (email: string): RefusedMailBody => ({
  what: `an email with ${JSON.stringify(email)}`,
  body: JSON.stringify({ email, name }),
  issues: [{ path: 'email', message: invalidEmail }],
})
const withName = (what: string, badName: string, message: string): RefusedMailBody => ({
  what: `a name ${what}`,
  body: JSON.stringify({ email: 'ada@example.com', name: badName }),
  issues: [{ path: 'name', message }],
})
const notAnObject = (what: string, body: string, error: string): RefusedMailBody => ({
  what,
  body,
  error,
  ...(error === 'request body is not valid JSON' && {
    notInDocument: 'not JSON: no schema sees it',
  }),
})

const changedByParsing = 'changed by parsing, before any schema sees it'
/** JSON a parser would change without a word: each must be refused, not sent on changed. */
const changedSilently = (
  what: string,
  body: string | Uint8Array<ArrayBuffer>,
  path: string,
  message: string,
) => ({
  what,
  body,
  issues: [{ path, message }],
  notInDocument: changedByParsing,
})
/** `text` as UTF-8, with the byte `0xff` (never in UTF-8) in place of each `~`. */
const withInvalidUtf8 = (text: string) =>
  Uint8Array.from(new TextEncoder().encode(text), (byte) => (byte === 0x7e ? 0xff : byte))

/** Everything the route tests refuse with 400, before the provider is called. */
export const refusedMailBodies: RefusedMailBody[] = [
  ...[
    'ada@example.com,eve@example.com',
    'ada@example.com, eve@example.com',
    'ada@example.com;eve@example.com',
    'Ada <ada@example.com>',
    '<ada@example.com>',
    'ada@example.com\r\nBcc: eve@example.com',
    'ada@example.com\nbcc:eve@example.com',
    ' ada@example.com',
    'ada@example.com ',
    'ada\t@example.com',
    'ada@example.com\u0000',
    '"ada"@example.com',
    'friends:ada@example.com;',
    'ada@example.com(eve@example.com)',
    'ada@eve@example.com',
    'ada@localhost',
    'ada.example.com',
    '',
  ].map(withEmail),
  {
    what: 'an email of 255 characters',
    body: JSON.stringify({
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`,
      name,
    }),
    issues: [{ path: 'email', message: 'must be at most 254 characters' }],
  },
  {
    what: 'an email with a local part of 65 octets',
    body: JSON.stringify({ email: `${'a'.repeat(65)}@example.com`, name }),
    issues: [{ path: 'email', message: 'must have a local part of at most 64 octets' }],
  },
  {
    what: 'an email with a domain label of 64 characters',
    body: JSON.stringify({ email: `ada@${'b'.repeat(64)}.com`, name }),
    issues: [
      {
        path: 'email',
        message: 'must have domain labels of at most 63 characters in their ASCII (IDNA) form',
      },
    ],
  },
  {
    what: 'an email whose domain IDNA refuses',
    body: JSON.stringify({ email: 'ada@xn--a.example', name }),
    issues: [{ path: 'email', message: 'must have a domain IDNA can map, like example.com' }],
    notInDocument: 'a pattern cannot say what IDNA maps; the schema admits any letter there',
  },
  withName('empty', '', 'must not be empty'),
  withName('blank', '   ', 'must not be blank'),
  withName('101 characters long', 'n'.repeat(101), 'must be at most 100 characters'),
  withName('holding CR/LF', 'Ada\r\nBcc: eve@example.com', 'must not contain control characters'),
  withName('holding a bell', 'Ada\u0007', 'must not contain control characters'),
  withName('holding a line separator', 'Ada\u2028Eve', 'must not contain control characters'),
  withName('of a zero-width space alone', '\u200b', invisibleText),
  withName('holding a bidi override', 'Ada \u202eevE', invisibleText),
  withName('holding a zero-width joiner', 'A\u200dda', invisibleText),
  withName('holding a byte order mark', '\ufeffAda', invisibleText),
  {
    what: 'a lone surrogate in the name',
    body: '{"email":"ada@example.com","name":"Ada\\ud800"}',
    issues: [{ path: 'name', message: malformedText.value }],
  },
  {
    what: 'a lone surrogate in the email',
    body: '{"email":"ad\\udc00a@example.com","name":"Ada"}',
    issues: [{ path: 'email', message: malformedText.value }],
  },
  {
    what: 'a lone surrogate in another field',
    body: '{"email":"ada@example.com","name":"Ada","x":"\\ud83c"}',
    issues: [{ path: 'x', message: malformedText.value }],
    notInDocument:
      'other fields are ignored, so the schema admits any; the service still refuses text no UTF-8 can carry',
  },
  changedSilently(
    'bytes that are not UTF-8 in the name',
    withInvalidUtf8('{"email":"ada@example.com","name":"Ad~a"}'),
    'name',
    'must be valid UTF-8: bytes that are not would be stored as U+FFFD',
  ),
  changedSilently(
    'an email given twice',
    '{"email":"ada@example.com","email":"eve@example.com","name":"Ada"}',
    'email',
    'is given more than once in one object: only the last would be kept',
  ),
  changedSilently(
    'a number beyond the range of a double in another field',
    '{"email":"ada@example.com","name":"Ada","x":1e400}',
    'x',
    'is beyond the range of a number (about ±1.8e308): it would be stored as null',
  ),
  ...['9007199254740993', '9007199254740993.0', '9.007199254740993e15', '90071992547409930e-1'].map(
    (number) =>
      changedSilently(
        `an integer beyond 2^53 that would be rounded, as ${number}`,
        `{"email":"ada@example.com","name":"Ada","x":${number}}`,
        'x',
        'is an integer beyond ±2^53 that a number cannot hold exactly: send it as a string',
      ),
  ),
  notAnObject('invalid JSON', '{"email": "ada@example.com",', 'request body is not valid JSON'),
  notAnObject('an empty body', '', 'request body is not valid JSON'),
  notAnObject(
    'a JSON array',
    '[{"email":"ada@example.com","name":"Ada"}]',
    'request body must be a JSON object',
  ),
  notAnObject('a JSON string', '"ada@example.com"', 'request body must be a JSON object'),
]
