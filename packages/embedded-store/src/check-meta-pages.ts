import { open } from 'node:fs/promises'
import { StoreDamagedError } from './storage-errors.js'

const magic = 0xbeefc0de
/** Where this LMDB build puts a meta page's magic number and its page size. */
const magicOffset = 24
const pageSizeOffset = 48

/**
 * Checks that `file`, when it exists, starts with the two meta pages of an LMDB store. lmdb
 * 3.5.6 crashes the process (a segmentation fault) when it opens a file that is not one, so this
 * is looked at first, and a damaged store is refused with its name instead.
 * @throws StoreDamagedError
 */
export async function checkMetaPages(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  try {
    const { size } = await handle.stat()
    if (size === 0) throw new StoreDamagedError(file, 'the file is empty')
    const first = await read(handle, 0, 64)
    const pageSize = first.length === 64 ? first.readUInt32LE(pageSizeOffset) : 0
    const validPageSize = pageSize >= 512 && pageSize <= 65_536 && (pageSize & (pageSize - 1)) === 0
    const second = validPageSize ? await read(handle, pageSize, 64) : Buffer.alloc(0)
    if (!hasMagic(first) || !hasMagic(second)) {
      throw new StoreDamagedError(file, 'its meta pages are not those of an LMDB store')
    }
  } finally {
    await handle.close()
  }
}

async function read(handle: Awaited<ReturnType<typeof open>>, position: number, length: number) {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, position)
  return buffer.subarray(0, bytesRead)
}

function hasMagic(page: Buffer): boolean {
  return page.length >= magicOffset + 4 && page.readUInt32LE(magicOffset) === magic
}
