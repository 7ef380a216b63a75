import { config } from 'zod/v4/core'
import en from 'zod/v4/locales/en.js'

// zod's checks say what failed in the language configured; zod's full API configures English
// when it loads, `zod/mini` configures none ("Invalid input" for every issue). Every module that
// checks with zod imports this one first, so the messages are English whatever else is loaded.
config(en())
