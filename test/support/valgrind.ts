import { execFileSync } from 'node:child_process'

/** Whether valgrind is on the machine: the benches that count instructions need it. */
export function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
