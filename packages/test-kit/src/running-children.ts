import type { ChildProcess } from 'node:child_process'

const running = new Map<ChildProcess, Promise<unknown>>()
const endingSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Keeps `child` on the list of processes killed when this process ends, until `ended` settles.
 * Vitest stops its workers with SIGTERM, which skips 'exit' listeners: the signals are watched
 * too, while a child runs.
 */
export function trackChild(child: ChildProcess, ended: Promise<unknown>): void {
  if (running.size === 0) watchEnding()
  running.set(child, ended)
  const forget = () => {
    running.delete(child)
    if (running.size === 0) unwatchEnding()
  }
  void ended.then(forget, forget)
}

/**
 * Kills (SIGKILL) every built entry still running and waits until they are gone: for an
 * `afterEach` or `afterAll`, so that a failed test leaves no process behind.
 * @example afterEach(killBuiltEntries)
 */
export async function killBuiltEntries(): Promise<void> {
  const children = [...running]
  for (const [child] of children) child.kill('SIGKILL')
  await Promise.allSettled(children.map(([, ended]) => ended))
}

function killAllNow(): void {
  for (const child of running.keys()) child.kill('SIGKILL')
}

function onEndingSignal(signal: NodeJS.Signals): void {
  killAllNow()
  unwatchEnding()
  // With no other listener, the signal ends this process as it would have without ours.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function watchEnding(): void {
  process.on('exit', killAllNow)
  for (const signal of endingSignals) process.on(signal, onEndingSignal)
}

function unwatchEnding(): void {
  process.off('exit', killAllNow)
  for (const signal of endingSignals) process.off(signal, onEndingSignal)
}
