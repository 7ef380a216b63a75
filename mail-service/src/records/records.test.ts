import { afterEach, describe, expect, it } from 'vitest'
import { MailgunStandIn } from '../../test/support/mailgun-stand-in.js'
import { apiKey, sendMail, type TestApp, testApp } from '../../test/support/test-app.js'

let t: TestApp
afterEach(async () => {
  await t.cleanup()
})

const get = (path: string, key: string | null = apiKey) =>
  t.app.request(path, { headers: key === null ? {} : { 'x-apikey': key } })

describe('GET /maillog', () => {
  it('lists every send, newest first', async () => {
    t = await testApp()
    for (const name of ['Ada', 'Grace', 'Alan']) {
      await sendMail(t.app, { email: `${name.toLowerCase()}@example.com`, name })
    }
    const response = await get('/maillog')
    expect(response.status).toBe(200)
    const records = (await response.json()) as { name: string; output: { id: string } }[]
    expect(records.map((record) => record.name)).toEqual(['Alan', 'Grace', 'Ada'])
    expect(records[0]?.output.id).toMatch(/^<\d{14}\.[0-9a-f]{16}@outbox\.local>$/)
  })

  it('honours ?limit and refuses one out of range', async () => {
    t = await testApp()
    for (const name of ['Ada', 'Grace']) await sendMail(t.app, { email: 'a@example.com', name })
    expect(((await (await get('/maillog?limit=1')).json()) as unknown[]).length).toBe(1)
    const response = await get('/maillog?limit=0')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ issues: [{ path: 'limit' }] })
  })

  it('needs the API key', async () => {
    t = await testApp()
    expect((await get('/maillog', null)).status).toBe(401)
    expect((await get('/maillog', 'wrong')).status).toBe(401)
  })

  it('answers 503 when the mail log does not answer', async () => {
    t = await testApp()
    await t.mailLog.close()
    const response = await get('/maillog')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'the mail log does not answer' })
  })
})

describe('GET /outbox', () => {
  it('lists the messages the outbox captured, newest first, exactly as composed', async () => {
    t = await testApp()
    const sent = await sendMail(t.app, { email: 'ada@example.com', name: 'Ada' })
    await sendMail(t.app, { email: 'grace@example.com', name: 'Grace' })
    const { id } = (await sent.json()) as { id: string }
    const response = await get('/outbox')
    expect(response.status).toBe(200)
    const messages = (await response.json()) as Record<string, string>[]
    expect(messages.map((message) => message.to)).toEqual(['grace@example.com', 'ada@example.com'])
    expect(messages[1]).toEqual({
      _id: expect.any(String),
      id,
      from: 'Movies <no-reply@mg.example.com>',
      to: 'ada@example.com',
      subject: 'Hello from the movies app',
      text: 'Hello Ada, thank you for getting in touch.',
      queuedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
  })

  it('needs the API key', async () => {
    t = await testApp()
    expect((await get('/outbox', null)).status).toBe(401)
  })

  it('answers 404 when mail goes to the provider instead', async () => {
    const mailgun = await MailgunStandIn.start()
    t = await testApp({ mailgunUrl: mailgun.baseUrl })
    const response = await get('/outbox')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'the outbox is off: mail goes to the provider' })
    await mailgun.stop()
  })
})
