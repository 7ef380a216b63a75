import { existsSync, readFileSync } from 'node:fs'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { settingNames as itemsSettings } from '../items-service/src/env.js'
import { settingNames as mailSettings } from '../mail-service/src/env.js'

type Micro = {
  name: string
  src: string
  run?: string
  presets?: { env?: { name: string }[] }
}

const root = new URL('../', import.meta.url)
const spacefile = parse(readFileSync(new URL('Spacefile', root), 'utf8')) as {
  micros: Micro[]
}
const schema = JSON.parse(
  readFileSync(new URL('fixtures/spacefile.schema.json', import.meta.url), 'utf8'),
)
const knownSettings: Record<string, readonly string[]> = {
  items: itemsSettings,
  // Space sets DETA_PROJECT_KEY itself, so the mail micro reads it without a preset.
  mail: mailSettings,
}

describe('Spacefile', () => {
  it("is valid against Deta's published Spacefile schema", () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)
    expect(validate(spacefile), JSON.stringify(validate.errors, null, 2)).toBe(true)
  })

  it('describes both micros', () => {
    expect(spacefile.micros.map((micro) => micro.name).sort()).toEqual(['items', 'mail'])
  })

  describe.each(spacefile.micros.map((micro) => [micro.name, micro] as const))(
    'micro %s',
    (name, micro) => {
      const src = new URL(`${micro.src.replace(/^\.\//, '')}/`, root)

      it('has a src folder with a package.json', () => {
        expect(existsSync(new URL('package.json', src))).toBe(true)
      })

      it('runs an entry that exists after the build', () => {
        const entry = micro.run?.match(/^node (\S+)$/)?.[1]
        expect(entry, `run should be "node <file>", got ${micro.run}`).toBeDefined()
        expect(
          existsSync(new URL(entry as string, src)),
          `${entry} missing; run npm run build`,
        ).toBe(true)
      })

      it('presets only settings that the micro reads', () => {
        const names = micro.presets?.env?.map((env) => env.name) ?? []
        expect(names.length).toBeGreaterThan(0)
        const unknown = names.filter((setting) => !knownSettings[name]?.includes(setting))
        expect(unknown).toEqual([])
      })
    },
  )
})
