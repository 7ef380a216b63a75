import { createMailClient, type Fetch, MailApiError } from '@movies-and-mail/mail-client'

const service = 'http://localhost:4001'
const mail = createMailClient(service, { apiKey: 'my-mail-api-key-1' })

// Every send carries an Idempotency-Key, a new one unless you give yours: the service sends a
// key's mail once, however often it is asked.
const sent = await mail.send({ email: 'ada@example.com', name: 'Ada' })
console.log('sent:', sent.message)

// A network that loses the first answer on its way back: the mail went out, but the caller got
// an error. The client asks again with the same key, and the service answers with the first
// answer again instead of sending a second mail.
let answers = 0
const lossy: Fetch = async (url, init) => {
  const response = await fetch(url, init)
  answers += 1
  if (answers > 1) return response
  await response.body?.cancel()
  throw new TypeError('fetch failed: the answer was lost')
}
const retrying = createMailClient(service, { apiKey: 'my-mail-api-key-1', fetch: lossy })
const grace = { email: 'grace@example.com', name: 'Grace' }
const once = await retrying.send(grace, { idempotencyKey: 'signup-4711' })
console.log('sent once:', once.message, `(${answers} answers, the first lost)`)

// A refusal is a MailApiError with the status and the service's body, and is not retried.
try {
  await mail.send({ email: 'ada@example.com, eve@example.com', name: 'Ada' })
} catch (error) {
  if (!(error instanceof MailApiError)) throw error // no answer, even after the retries
  console.log('refused:', error.status, error.message)
}

// The mail log, newest first, a page at a time: `next` is the cursor of the page after.
const newest = await mail.log({ limit: 1 })
const before = await mail.log({ limit: 1, cursor: newest.next })
console.log('log:', [...newest.records, ...before.records].map((record) => record.email).join(', '))
