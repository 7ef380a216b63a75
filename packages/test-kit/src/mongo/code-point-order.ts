import { Context } from 'mingo/core'
import { Lazy } from 'mingo/lazy'
import * as accumulatorOperators from 'mingo/operators/accumulator'
import * as expressionOperators from 'mingo/operators/expression'
import * as pipelineOperators from 'mingo/operators/pipeline'
import * as projectionOperators from 'mingo/operators/projection'
import * as queryOperators from 'mingo/operators/query'
import * as windowOperators from 'mingo/operators/window'
import type { Any, AnyObject, Options } from 'mingo/types'
import { compare, ensureArray, resolve } from 'mingo/util'

/**
 * The order of two strings by code point, as MongoDB orders them without a collation (by their
 * UTF-8 bytes, which is the same order). JavaScript's `<` compares UTF-16 code units, which
 * puts a character past U+FFFF (two surrogates, from U+D800) before U+E000 to U+FFFF. The
 * stand-in's own, not items-service's `compareCodePoints`: sharing it, the stand-in would agree
 * with the product's mistakes.
 * @example codePointOrder('\u{1F600}', '\uFF5E') // 1: U+1F600 comes after U+FF5E
 */
export function codePointOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let at = 0; at < length; at += 1) {
    const [x, y] = [a.charCodeAt(at), b.charCodeAt(at)]
    if (x === y) continue
    // Below U+D800 units order as code points; from there, surrogates go after U+E000-U+FFFF.
    if (x < 0xd800 || y < 0xd800) return x - y
    return (x >= 0xe000 ? x - 0x800 : x + 0x2000) - (y >= 0xe000 ? y - 0x800 : y + 0x2000)
  }
  return a.length - b.length
}

/** mingo's order of two values, but strings by code point. */
function valueOrder(a: Any, b: Any): number {
  return typeof a === 'string' && typeof b === 'string' ? codePointOrder(a, b) : compare(a, b)
}

type Comparison = typeof queryOperators.$gt

/** A range operator of queries whose strings compare by code point; other values as mingo's do. */
function range(mingos: Comparison, holds: (order: number) => boolean): Comparison {
  return (selector, value, options) => {
    if (typeof value !== 'string') return mingos(selector, value, options)
    // As mingo's: any string of the field, or of the array the path reaches, in range.
    return (document: AnyObject) =>
      ensureArray(resolve(document, selector, { unwrapArray: true })).some(
        (each) => typeof each === 'string' && holds(codePointOrder(each, value)),
      )
  }
}

/** `$sort` by code point for strings, each key in turn, ties in the order they came (stable). */
const $sort: typeof pipelineOperators.$sort = (collection, keys, options) => {
  // A collation orders by its locale's rules: mingo's own `$sort` applies them.
  if (options.collation) return pipelineOperators.$sort(collection, keys, options)
  const fields = Object.entries(keys as Record<string, number>)
  return collection.transform((documents) =>
    Lazy(
      [...documents].sort((a, b) => {
        for (const [field, direction] of fields) {
          const order = valueOrder(resolve(a as AnyObject, field), resolve(b as AnyObject, field))
          if (order !== 0) return direction === -1 ? -order : order
        }
        return 0
      }),
    ),
  )
}

/**
 * Every mingo operator, but that queries' `$gt`, `$gte`, `$lt` and `$lte` and aggregations'
 * `$sort` order strings by code point, as MongoDB does. mingo has no option for the order of
 * strings, and its `Query` and `aggregate` prefer their own operators to a context's: the
 * stand-in uses its base classes with this context (`mingoOptions`).
 */
export const codePointContext: Options['context'] = Context.init({
  accumulator: accumulatorOperators,
  expression: expressionOperators,
  pipeline: { ...pipelineOperators, $sort },
  projection: projectionOperators,
  query: {
    ...queryOperators,
    $gt: range(queryOperators.$gt, (order) => order > 0),
    $gte: range(queryOperators.$gte, (order) => order >= 0),
    $lt: range(queryOperators.$lt, (order) => order < 0),
    $lte: range(queryOperators.$lte, (order) => order <= 0),
  },
  window: windowOperators,
})
