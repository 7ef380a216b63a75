import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import { StoreFullError } from '@movies-and-mail/store-kit'
import { describe, expect, it, vi } from 'vitest'
import { describeSendCounterContract } from '../../../test/contracts/send-counter.contract.js'
import { EmbeddedSendCounter } from './embedded-send-counter.js'

async function openStores() {
  const dir = await mkdtemp(join(tmpdir(), 'mail-sends-'))
  let env = await EmbeddedEnv.open(dir, 'mail-service')
  const counter = new EmbeddedSendCounter(env)
  return {
    counter,
    // As a stop does: the counts written behind the sends are flushed before the store closes.
    reopen: async () => {
      await counter.flushed()
      await env.close()
      env = await EmbeddedEnv.open(dir, 'mail-service')
      return new EmbeddedSendCounter(env)
    },
    cleanup: async () => {
      await counter.flushed()
      await env.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

describeSendCounterContract('embedded', openStores)

describe('EmbeddedSendCounter', () => {
  it('decides at once and writes behind: every count decided is in the store once flushed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mail-sends-'))
    const env = await EmbeddedEnv.open(dir, 'mail-service')
    const counter = new EmbeddedSendCounter(env)
    const limit = { count: 1_000, windowMs: 3_600_000 }
    // Many counts while commits are under way: none waits for a commit, all are written.
    const takes = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        counter.take(
          [
            { key: 'key:abc', limit },
            { key: `to:r${n}@x.org`, limit },
          ],
          1_000_000,
        ),
      ),
    )
    expect(takes.every((take) => take.admitted)).toBe(true)
    await counter.flushed()
    const stored = env.database<string>('sends', 'string')
    // 200 sends of a 1,000-an-hour bucket: its TAT 200 intervals (3.6 s each) past the first.
    expect(stored.get('key:abc')).toBe(String(1_000_000 + 200 * 3_600))
    expect(stored.get('to:r199@x.org')).toBe(String(1_000_000 + 3_600))
    await env.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('prunes buckets with no send left in their window', async () => {
    const { counter, cleanup } = await openStores()
    const bucket = { key: 'to:a@example.com', limit: { count: 1, windowMs: 60_000 } }
    await counter.take([bucket], 1_000_000)
    await counter.take([{ ...bucket, key: 'to:b@example.com' }], 1_050_000)
    expect(await counter.prune(1_070_000)).toBe(1)
    expect((await counter.take([bucket], 1_070_001)).admitted).toBe(true)
    await cleanup()
  })

  describe('when commits fail (a full disk refuses them before any wait)', () => {
    const limit = { count: 1_000, windowMs: 3_600_000 }
    const bucket = { key: 'key:abc', limit }

    async function failingCommits() {
      const dir = await mkdtemp(join(tmpdir(), 'mail-sends-'))
      const env = await EmbeddedEnv.open(dir, 'mail-service')
      const commit = env.commit.bind(env)
      const commits = vi
        .spyOn(env, 'commit')
        .mockImplementation(async () => Promise.reject(new StoreFullError()))
      return {
        env,
        commits,
        counter: new EmbeddedSendCounter(env),
        /** Lets commits succeed again. */
        heal: () => commits.mockImplementation(commit),
        cleanup: async () => {
          commits.mockImplementation(commit)
          await env.close()
          await rm(dir, { recursive: true, force: true })
        },
      }
    }

    it('keeps the process answering: a failed commit waits before it is tried again', async () => {
      const { commits, counter, cleanup } = await failingCommits()
      expect((await counter.take([bucket], 1_000_000)).admitted).toBe(true)
      // A timer fires: the failed commit is not retried in a loop that starves the process.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(commits.mock.calls.length).toBe(1)
      // Counting goes on, decided in memory.
      expect((await counter.take([bucket], 1_000_001)).admitted).toBe(true)
      expect(commits.mock.calls.length).toBe(1)
      await cleanup()
    })

    it('writes the counts kept once the disk takes commits again', async () => {
      const { env, counter, heal, cleanup } = await failingCommits()
      await counter.take([bucket], 1_000_000)
      await counter.take([bucket], 1_000_000)
      heal()
      await vi.waitFor(
        () => expect(env.database<string>('sends', 'string').get('key:abc')).toBe('1007200'),
        { timeout: 5_000 },
      )
      await cleanup()
    })

    it('rejects a flush that fails again, rather than wait without end', async () => {
      const { commits, counter, cleanup } = await failingCommits()
      await counter.take([bucket], 1_000_000)
      await expect(counter.flushed()).rejects.toBeInstanceOf(StoreFullError)
      expect(commits.mock.calls.length).toBe(2)
      await cleanup()
    })
  })
})
