// Registers this service's POST /webhooks/mailgun with Mailgun for every event the service
// follows, through Mailgun's webhooks API (/v3/domains/<domain>/webhooks), with the settings
// the service itself reads: MAIL_APIKEY, MAIL_DOMAIN, MAIL_REGION or MAIL_API_URL.
//   npm run webhooks -w mail-service -- --url https://mail.example.com
import { parseArgs } from 'node:util'

/** Mailgun's webhook ids for the events the service files (failed is two: temporary, permanent). */
const webhookIds = [
  'accepted',
  'delivered',
  'temporary_fail',
  'permanent_fail',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
]
const hosts = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' }

const { values } = parseArgs({ options: { url: { type: 'string' } } })
const { MAIL_APIKEY: apiKey, MAIL_DOMAIN: domain, MAIL_REGION: region = 'us' } = process.env
const problems = [
  !values.url && '--url <the service’s public origin, e.g. https://mail.example.com> is missing',
  !apiKey && 'MAIL_APIKEY is not set',
  !domain && 'MAIL_DOMAIN is not set',
].filter(Boolean)
if (problems.length > 0) {
  console.error(`webhooks: ${problems.join('; ')}`)
  process.exit(2)
}
const target = new URL('webhooks/mailgun', `${values.url.replace(/\/+$/, '')}/`).href
const base = (process.env.MAIL_API_URL ?? hosts[region] ?? hosts.us).replace(/\/+$/, '')
const authorization = `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`
const hooks = `${base}/v3/domains/${encodeURIComponent(domain)}/webhooks`

let failed = false
for (const id of webhookIds) {
  const form = (fields) => new URLSearchParams(fields)
  let response = await fetch(hooks, {
    method: 'POST',
    headers: { authorization },
    body: form({ id, url: target }),
  })
  // One that exists already is pointed at this URL instead.
  if (response.status === 400) {
    response = await fetch(`${hooks}/${id}`, {
      method: 'PUT',
      headers: { authorization },
      body: form({ url: target }),
    })
  }
  const said = (await response.text()).replace(/\s+/g, ' ').slice(0, 200)
  if (response.ok) console.log(`webhooks: ${id} -> ${target}`)
  else {
    failed = true
    console.error(`webhooks: ${id} refused: ${response.status} ${said}`)
  }
}
process.exit(failed ? 1 : 0)
