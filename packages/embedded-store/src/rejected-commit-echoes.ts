let installed = false

/**
 * lmdb 3.5.6 rejects, besides the promise of a failed commit, a second promise of its own that
 * nothing can reach, with the same "Commit failed" error; Node would end the process for that
 * unhandled rejection. This lets exactly those through quietly (the commit's own promise carries
 * the failure to its caller) and ends the process, as Node does, for any other.
 */
export function ignoreRejectedCommitEchoes(): void {
  if (installed) return
  installed = true
  process.on('unhandledRejection', (reason) => {
    if (isRejectedCommit(reason)) return
    throw reason
  })
}

function isRejectedCommit(reason: unknown): boolean {
  return (
    reason instanceof Error &&
    'commitError' in reason &&
    reason.message === 'Commit failed (see commitError for details)'
  )
}
