import { expectTypeOf, it } from 'vitest'
import type * as z from 'zod/mini'
import type { mailLogRecordSchema } from '../mail-service/src/records/records.routes.js'
import type {
  providerAnswerSchema,
  sendMailBodySchema,
} from '../mail-service/src/sendmail/sendmail.schema.js'
import type {
  MailClient,
  MailLogRecord,
  ProviderAnswer,
  SendMailRequest,
} from '../packages/mail-client/src/index.js'

// The client declares the API's types by hand, so that its declarations need nothing of the
// service; `npm run typecheck` holds them to the schemas the routes validate with.
it('takes and answers what the service’s schemas say', () => {
  expectTypeOf<SendMailRequest>().toEqualTypeOf<z.infer<typeof sendMailBodySchema>>()
  expectTypeOf<Parameters<MailClient['send']>[0]>().toEqualTypeOf<SendMailRequest>()
  expectTypeOf<ProviderAnswer>().toEqualTypeOf<z.infer<typeof providerAnswerSchema>>()
  expectTypeOf<Awaited<ReturnType<MailClient['send']>>>().toEqualTypeOf<ProviderAnswer>()
  // The log may grow fields (the service decides what a record holds): the client's are in it.
  expectTypeOf<z.infer<typeof mailLogRecordSchema>>().toExtend<MailLogRecord>()
})
