import { type Document, deserialize, ObjectId, serialize } from 'bson'

/**
 * A deep copy that keeps every BSON type (ObjectId, Long, Binary...) and the order of the
 * fields: the document as it travels the wire. `structuredClone` would lose the types.
 */
export function copy(document: Document): Document {
  return deserialize(serialize(document))
}

/** Whether two documents are the same BSON bytes: equal values, in the same field order. */
export function sameBytes(one: Document, other: Document): boolean {
  return Buffer.from(serialize(one)).equals(serialize(other))
}

/** The document with `_id` as its first field, as MongoDB stores it; one is made if absent. */
export function withIdFirst(document: Document): Document {
  const { _id = new ObjectId(), ...fields } = document
  return { _id, ...fields }
}

/** Whether `value` is an object of operators (`{ $gt: 1 }`), not a value to compare with. */
export function isOperatorObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  if (Object.getPrototypeOf(value) !== Object.prototype) return false
  return Object.keys(value).some((key) => key.startsWith('$'))
}

/** A value as MongoDB writes it in an error message: `"a"`, `ObjectId('…')`, `{ a: 1 }`. */
export function shellText(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return JSON.stringify(value)
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`
  if (value instanceof Date) return `new Date(${value.getTime()})`
  if (Array.isArray(value)) return `[ ${value.map(shellText).join(', ')} ]`
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const fields = Object.entries(value).map(([key, field]) => `${key}: ${shellText(field)}`)
    return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`
  }
  return String(value)
}
