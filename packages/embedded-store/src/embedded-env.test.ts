import { StoreFullError } from '@movies-and-mail/store-kit'
import { SmallDisk } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmbeddedEnv } from './embedded-env.js'

const probeDisk = await SmallDisk.mount('64k')
await probeDisk?.unmount()
if (!probeDisk)
  console.log('EmbeddedEnv full-disk tests skipped: they mount a small tmpfs, which needs root')

describe.skipIf(!probeDisk)('EmbeddedEnv on a full disk (a 256 KiB tmpfs)', () => {
  let disk: SmallDisk
  let env: EmbeddedEnv
  beforeEach(async () => {
    disk = (await SmallDisk.mount('256k')) as SmallDisk
    env = await EmbeddedEnv.open(disk.dir, 'a-service')
  })
  afterEach(async () => {
    await env.close()
    await disk.unmount()
  })

  /** Commits values of `bytes` into `name` until one is refused; the refusal. */
  async function fill(name: string, bytes: number): Promise<unknown> {
    const records = env.database<string>(name, 'string')
    for (let n = 0; n < 1_000; n++) {
      const value = String(n).padEnd(bytes, 'x')
      const refusal = await env
        .commit(bytes, () => records.put(String(n), value))
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      if (refusal) return refusal
    }
    throw new Error('the disk never filled up')
  }

  it('resolves its probe while commits succeed', async () => {
    await expect(env.probe()).resolves.toBeUndefined()
  })

  it('fails its first probe when it starts on a disk that is still full, until there is room', async () => {
    expect(await fill('outbox', 3_000)).toBeInstanceOf(StoreFullError)
    await env.close()
    env = await EmbeddedEnv.open(disk.dir, 'a-service')
    await expect(env.probe()).rejects.toThrow(StoreFullError)
    disk.resize('2m')
    await expect(env.probe()).resolves.toBeUndefined()
  })

  it('fails its probe after a refused commit, whichever database it wrote, until there is room', async () => {
    expect(await fill('outbox', 3_000)).toBeInstanceOf(StoreFullError)
    await expect(env.probe()).rejects.toThrow(StoreFullError)
    await expect(env.probe()).rejects.toThrow(StoreFullError)

    disk.resize('2m')
    await expect(env.probe()).resolves.toBeUndefined()
    const outbox = env.database<string>('outbox', 'string')
    await expect(
      env.commit(3_000, () => outbox.put('after', 'y'.repeat(3_000))),
    ).resolves.toBeUndefined()
  })

  it('shares one probe among the stores that ask at once', async () => {
    expect(await fill('outbox', 3_000)).toBeInstanceOf(StoreFullError)
    const probes = [env.probe(), env.probe(), env.probe()]
    expect(new Set(probes).size).toBe(1)
    await Promise.allSettled(probes)
  })
})
