import { MailgunStandIn } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
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

  it('honours ?limit and refuses one out of range, saying why in English', async () => {
    t = await testApp()
    for (const name of ['Ada', 'Grace']) await sendMail(t.app, { email: 'a@example.com', name })
    expect(((await (await get('/maillog?limit=1')).json()) as unknown[]).length).toBe(1)
    const response = await get('/maillog?limit=0')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'invalid query parameter',
      issues: [{ path: 'limit', message: 'Too small: expected number to be >=1' }],
    })
  })

  it('pages back through every send with ?cursor, linking each full page to the next', async () => {
    t = await testApp()
    for (const name of ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara']) {
      await sendMail(t.app, { email: `${name.toLowerCase()}@example.com`, name })
    }
    const pages: string[][] = []
    const links: (string | null)[] = []
    let next: string | null = '/maillog?limit=2'
    while (next) {
      const response = await get(next)
      expect(response.status).toBe(200)
      const records = (await response.json()) as { _id: string; name: string }[]
      pages.push(records.map((record) => record.name))
      next = response.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null
      links.push(response.headers.get('link'))
      if (next) expect(next).toBe(`/maillog?limit=2&cursor=${records.at(-1)?._id}`)
    }
    expect(pages).toEqual([['Barbara', 'Edsger'], ['Alan', 'Grace'], ['Ada']])
    expect(links.map((link) => link !== null)).toEqual([true, true, false])
  })

  it('links no next page when the page is not full', async () => {
    t = await testApp()
    await sendMail(t.app, { email: 'ada@example.com', name: 'Ada' })
    const response = await get('/maillog')
    expect(((await response.json()) as unknown[]).length).toBe(1)
    expect(response.headers.get('link')).toBeNull()
  })

  it.each([
    ['too short', 'abc'],
    ['in capitals', '6955B9004F1E2D3C4B000001'],
    ['too long', '6955b9004f1e2d3c4b0000011'],
    ['not hex', '6955b9004f1e2d3c4b00000g'],
  ])('refuses a cursor %s with 400', async (_, cursor) => {
    t = await testApp()
    const response = await get(`/maillog?cursor=${cursor}`)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error: 'invalid query parameter',
      issues: [{ path: 'cursor' }],
    })
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

  it('pages back with ?cursor too, linking each full page to the next', async () => {
    t = await testApp()
    for (const name of ['Ada', 'Grace', 'Alan']) {
      await sendMail(t.app, { email: `${name.toLowerCase()}@example.com`, name })
    }
    const first = await get('/outbox?limit=2')
    const messages = (await first.json()) as { _id: string; to: string }[]
    expect(messages.map((message) => message.to)).toEqual(['alan@example.com', 'grace@example.com'])
    const cursor = messages[1]?._id
    expect(first.headers.get('link')).toBe(`</outbox?limit=2&cursor=${cursor}>; rel="next"`)
    const second = await get(`/outbox?limit=2&cursor=${cursor}`)
    const rest = (await second.json()) as { to: string }[]
    expect(rest.map((message) => message.to)).toEqual(['ada@example.com'])
    expect(second.headers.get('link')).toBeNull()
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
