import { expect, it } from 'vitest'
import { exampleOf, readmeOf } from './support/client-package.js'
import { exampleOutput } from './support/items-client-example.js'

it('the client’s README quotes the example as it is in example.ts, and what it prints', async () => {
  const readme = await readmeOf('items-client')
  expect(readme).toContain(`\`\`\`ts\n${await exampleOf('items-client')}\`\`\``)
  expect(readme).toContain(`\`\`\`text\n${exampleOutput.join('\n')}\n\`\`\``)
})
