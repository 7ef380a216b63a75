import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A tmpfs of a given size, as a stand-in for a disk that fills up; root only. */
export class SmallDisk {
  private constructor(readonly dir: string) {}

  /** Mounts a tmpfs of `size` (like `256k`); null when this process may not mount one. */
  static async mount(size: string): Promise<SmallDisk | null> {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) return null
    const dir = await mkdtemp(join(tmpdir(), 'small-disk-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
      return new SmallDisk(dir)
    } catch {
      await rm(dir, { recursive: true, force: true })
      return null
    }
  }

  /** Gives the disk a new size, keeping what is on it: space freed, as an operator would. */
  resize(size: string): void {
    execFileSync('mount', ['-o', `remount,size=${size}`, this.dir], { stdio: 'pipe' })
  }

  async unmount(): Promise<void> {
    execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' })
    await rm(this.dir, { recursive: true, force: true })
  }
}
