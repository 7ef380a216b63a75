import type { ChildProcess } from 'node:child_process'

/** Each child still running: when it ends, and how to kill it (its process group, for some). */
const running = new Map<ChildProcess, { ended: Promise<unknown>; kill: () => void }>()
const endingSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Keeps `child` on the list of processes killed when this process ends, until `ended` settles.
 * Vitest stops its workers with SIGTERM, which skips 'exit' listeners: the signals are watched
 * too, while a child runs. `kill`: how, when SIGKILL to the child alone would leave its own
 * children behind.
 */
export function trackChild(
  child: ChildProcess,
  ended: Promise<unknown>,
  kill: () => void = () => child.kill('SIGKILL'),
): void {
  if (running.size === 0) watchEnding()
  running.set(child, { ended, kill })
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
  const children = [...running.values()]
  for (const { kill } of children) kill()
  await Promise.allSettled(children.map(({ ended }) => ended))
}

function killAllNow(): void {
  for (const { kill } of running.values()) kill()
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
