/** Why a string is refused: what a lone surrogate is, and why it cannot be kept. */
const why =
  'well-formed Unicode: a lone UTF-16 surrogate (\\ud800-\\udfff) cannot be stored or sent'

/**
 * What an answer says of a string, or of a field name, that is not well-formed UTF-16 (a lone
 * surrogate, which JSON can spell as `"\ud800"`): such a string has no UTF-8 form, so it cannot
 * go into a URL, a header, a database that speaks UTF-8, or a mail.
 */
export const malformedText = { value: `must be ${why}`, fieldName: `field names must be ${why}` }
