import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { MailgunStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'

const script = fileURLToPath(new URL('../scripts/webhooks.mjs', import.meta.url))
const mailgun = MailgunStandIn.forEachTest()
const events = [
  'accepted',
  'delivered',
  'temporary_fail',
  'permanent_fail',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
]

const run = (args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  })

const settings = () => ({
  MAIL_APIKEY: 'key-register-7c1',
  MAIL_DOMAIN: 'mg.example.com',
  MAIL_API_URL: mailgun.baseUrl,
})

describe('npm run webhooks -w mail-service -- --url <origin>', () => {
  it("registers the service's URL for every event through Mailgun's webhooks API", async () => {
    const { stdout } = await run(['--url', 'https://mail.example.com/'], settings())
    const url = 'https://mail.example.com/webhooks/mailgun'
    expect([...mailgun.webhooks]).toEqual(events.map((id) => [`mg.example.com ${id}`, [url]]))
    expect(mailgun.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v3/domains/mg.example.com/webhooks',
      authorization: `Basic ${Buffer.from('api:key-register-7c1').toString('base64')}`,
      fields: [
        ['id', 'accepted'],
        ['url', url],
      ],
    })
    expect(stdout).toContain(`webhooks: permanent_fail -> ${url}`)
    expect(stdout).not.toContain('key-register-7c1')
  })

  it('points a webhook that exists at the new URL', async () => {
    await run(['--url', 'https://old.example.com'], settings())
    await run(['--url', 'https://new.example.com'], settings())
    expect(mailgun.webhooks.get('mg.example.com delivered')).toEqual([
      'https://new.example.com/webhooks/mailgun',
    ])
    expect(mailgun.requests.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/v3/domains/mg.example.com/webhooks/complained',
    })
  })

  it('says what is missing, and registers nothing', async () => {
    const failure = await run([], {}).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--url <the service’s public origin'),
    })
    expect((failure as { stderr: string }).stderr).toContain('MAIL_APIKEY is not set')
    expect(mailgun.requests).toEqual([])
  })
})
