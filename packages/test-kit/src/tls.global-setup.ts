import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

/** A certificate for `localhost` and 127.0.0.1, with its key, in PEM. */
export type TestTls = { key: string; cert: string }

declare module 'vitest' {
  export interface ProvidedContext {
    /** A certificate for `localhost` and 127.0.0.1 that every test process trusts. */
    tls: TestTls
  }
}

/**
 * A vitest global setup (`globalSetup` of a project's config) for stand-ins that must speak
 * https, like the Deta Base one (the `deta` SDK speaks nothing else): makes a certificate,
 * provides it as `inject('tls')`, and has every test process trust it. Node reads
 * NODE_EXTRA_CA_CERTS once at start, so it is set here, before the test workers (and the
 * servers they spawn) start; a CA bundle the caller already trusts is kept.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'test-tls-'))
  const keyPath = join(dir, 'key.pem')
  const certPath = join(dir, 'cert.pem')
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
        ...['-keyout', keyPath, '-out', certPath, '-subj', '/CN=localhost'],
        ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ],
      { stdio: 'pipe' },
    )
  } catch (error) {
    throw new Error(
      `openssl is needed to make a test certificate (apt-get install openssl): ${error}`,
    )
  }
  const cert = readFileSync(certPath, 'utf8')
  const previous = process.env.NODE_EXTRA_CA_CERTS
  const bundlePath = join(dir, 'ca-bundle.pem')
  writeFileSync(bundlePath, (previous ? `${readFileSync(previous, 'utf8')}\n` : '') + cert)
  process.env.NODE_EXTRA_CA_CERTS = bundlePath
  project.provide('tls', { key: readFileSync(keyPath, 'utf8'), cert })
  return () => {
    if (previous === undefined) delete process.env.NODE_EXTRA_CA_CERTS
    else process.env.NODE_EXTRA_CA_CERTS = previous
    rmSync(dir, { recursive: true, force: true })
  }
}
