import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The workspace's own tests first. Vitest queues the projects' files by the projects' names, so
 * the workspace's (`test/`: the Spacefile builds, the tutorial, the bench, the browsers: most of
 * the slowest files) came last, and the run ended waiting on them with the other workers idle.
 */
class WorkspaceFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isWorkspace = (file: TestSpecification) => file.project.name === 'workspace'
    return [...sorted.filter(isWorkspace), ...sorted.filter((file) => !isWorkspace(file))]
  }
}

export default defineConfig({
  test: {
    // Most suites wait on the processes they start (services, workerd, Chromium), not on the
    // CPU: three files at a time halve the run on two cores, where vitest's default runs one.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: WorkspaceFirst },
    // Each project sets `isolate: false` (a project's own config does not inherit this one): a
    // worker runs its files one after another in one module graph, so hono, zod, the drivers
    // and the services' modules load once a worker, not once a file. That was a third of the
    // suite's CPU. A file that changes something global (timers, fetch, env) puts it back.
    projects: [
      'packages/embedded-store',
      'packages/http-kit',
      'packages/items-client',
      'packages/mail-client',
      'packages/store-kit',
      'packages/test-kit',
      'items-service',
      'mail-service',
      'test',
    ],
  },
})
