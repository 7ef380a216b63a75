import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { launchChromium } from './chromium.js'
import { type MicroProcess, startMicro } from './micro-process.js'

// The web app in a page of Chromium over both micros, and the parts of it the tests look at.

export type WebApp = {
  readonly items: MicroProcess
  readonly mail: MicroProcess
  readonly browser: Browser
  readonly page: Page
  /** The page's script errors, and its console errors but for the answers the suite provokes. */
  readonly problems: string[]
  addForm(): Locator
  movies(): Locator
  status(): Locator
  /** The ids items-service lists. */
  listedIds(): Promise<string[]>
  /** Resolves once the page has drawn twice: what a click changed is on screen by then. */
  afterRendering(): Promise<unknown>
}

export type WebAppOptions = {
  /** The mail-service's key; without one, it makes its own. */
  apiKey?: string
  /** The 4xx statuses the suite asks for on purpose: Chromium reports each as a console error. */
  provoked?: readonly number[]
  /** More environment for the items-service, such as ITEMS_APIKEY. */
  itemsEnv?: Record<string, string>
  /**
   * The mail-service's transport, read once the suite starts (a stand-in's address is known
   * then): Mailgun's settings, say; the outbox without it.
   */
  mailEnv?: () => Record<string, string>
  /** false: the page is left blank, for the suite to prepare and open itself. */
  open?: boolean
}

/**
 * Collects `page`'s script errors into `problems`, and its console errors but for the answers
 * of the `provoked` statuses; each said after `prefix`.
 */
export function collectProblems(
  page: Page,
  problems: string[],
  { provoked = [], prefix = '' }: { provoked?: readonly number[]; prefix?: string } = {},
): void {
  page.on('pageerror', (error) => problems.push(`${prefix}page error: ${error.message}`))
  page.on('console', (message) => {
    const status = /Failed to load resource: .* status of (\d+)/.exec(message.text())?.[1]
    const isProvoked = provoked.includes(Number(status))
    if (message.type() === 'error' && !isProvoked) {
      problems.push(`${prefix}console error: ${message.text()}`)
    }
  })
}

/**
 * For a `describe` block: the mail-service (in outbox mode unless `mailEnv` says otherwise),
 * items-service sending mail through it,
 * and Chromium with a page on the web app, started before its tests and stopped after them.
 */
export function useWebApp({
  apiKey,
  provoked = [],
  itemsEnv = {},
  mailEnv = () => ({ MAIL_TRANSPORT: 'outbox' }),
  open = true,
}: WebAppOptions = {}): WebApp {
  let items: MicroProcess | undefined
  let mail: MicroProcess | undefined
  let browser: Browser | undefined
  let page: Page | undefined
  const problems: string[] = []

  beforeAll(async () => {
    const keys: Record<string, string> = apiKey ? { API_KEYS: apiKey } : {}
    mail = await startMicro('mail-service', { ...keys, ...mailEnv() })
    items = await startMicro('items-service', { ...itemsEnv, MAIL_SERVICE_URL: mail.url })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    collectProblems(page, problems, { provoked })
    if (open) await page.goto(items.url)
  })

  afterAll(async () => {
    await browser?.close()
    await items?.stop()
    await mail?.stop()
  })

  const started = <T>(part: T | undefined, name: string): T => {
    if (part === undefined) throw new Error(`the web app's ${name} did not start`)
    return part
  }
  const app: WebApp = {
    get items() {
      return started(items, 'items-service')
    },
    get mail() {
      return started(mail, 'mail-service')
    },
    get browser() {
      return started(browser, 'Chromium')
    },
    get page() {
      return started(page, 'page')
    },
    problems,
    addForm: () => app.page.getByRole('form', { name: 'Add movie' }),
    movies: () => app.page.getByRole('list', { name: 'Movies' }),
    status: () => app.page.getByRole('status'),
    listedIds: async () => {
      const response = await fetch(`${app.items.url}/items`)
      return ((await response.json()) as { id: string }[]).map((item) => item.id)
    },
    afterRendering: () =>
      app.page.evaluate(
        () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))),
      ),
  }
  return app
}

/** Polls what `locator` says, trimmed. */
export const text = (locator: Locator) =>
  expect.poll(async () => (await locator.textContent())?.trim())
export const visible = (locator: Locator) => locator.waitFor({ state: 'visible' })
export const hidden = (locator: Locator) => locator.waitFor({ state: 'hidden' })
