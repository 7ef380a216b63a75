// Deterministic movie records, the same for every server and every run, and the files each
// server starts from: a JSON array (the bound), a json-server db.json, and a NeDB datafile.
import { writeFile } from 'node:fs/promises'

const genres = [
  'Drama',
  'Comedy',
  'Crime',
  'Action',
  'Thriller',
  'Romance',
  'Horror',
  'Animation',
  'Documentary',
  'Science Fiction',
  'Western',
  'Musical',
]
const words = [
  'Night',
  'River',
  'Last',
  'Silent',
  'Empire',
  'Golden',
  'Shadow',
  'Winter',
  'City',
  'Dream',
  'Stranger',
  'Fire',
  'Garden',
  'Road',
  'Secret',
  'Ocean',
  'Glass',
  'Paper',
  'Moon',
  'Storm',
]
const firstNames = ['Ada', 'Bruno', 'Chen', 'Dora', 'Emil', 'Farah', 'Goran', 'Hana', 'Ines', 'Jun']
const lastNames = ['Alvarez', 'Berg', 'Costa', 'Dubois', 'Ek', 'Fischer', 'Gupta', 'Horvat', 'Ito']

/** A small seeded PRNG (mulberry32): the same seed gives the same movies everywhere. */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = (next, list) => list[Math.floor(next() * list.length)]
const person = (next) => `${pick(next, firstNames)} ${pick(next, lastNames)}`

/** Movie number `index` with public id `id` (about 200 bytes of JSON). */
export function movie(index, id = `tt${String(index + 1).padStart(7, '0')}`) {
  const next = random(index * 7919 + 17)
  const title = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, words))
  return {
    id,
    name: `The ${title.join(' ')}`,
    genre: pick(next, genres),
    year: 1930 + Math.floor(next() * 95),
    director: person(next),
    rating: Math.round(next() * 90 + 10) / 10,
    runtime: 70 + Math.floor(next() * 120),
    cast: [person(next), person(next), person(next)],
  }
}

/** The first `n` movies. */
export function movies(n) {
  return Array.from({ length: n }, (_, index) => movie(index))
}

/**
 * An `_id` as items-service makes them: 24 lowercase hex characters, increasing with `index`
 * (a fixed time part, a fixed process part, a counter).
 */
export function objectId(index) {
  return `66000000b0b0b0b0b0${index.toString(16).padStart(6, '0')}`
}

/** The movies as stored documents: `_id` first, as items-service serialises them. */
export function documents(list) {
  return list.map((item, index) => ({ _id: objectId(index), ...item }))
}

/**
 * Writes a NeDB datafile holding `list`, in NeDB's own format (one JSON document per line, then
 * the unique index on `id` that items-service creates), as if the items had been posted.
 */
export async function writeNedbDatafile(file, list) {
  const lines = documents(list).map((document) => JSON.stringify(document))
  lines.push(JSON.stringify({ $$indexCreated: { fieldName: 'id', unique: true, sparse: false } }))
  await writeFile(file, `${lines.join('\n')}\n`)
}

/** Writes a json-server database holding `list` under `items`. */
export async function writeJsonServerDb(file, list) {
  await writeFile(file, JSON.stringify({ items: list }, null, 2))
}

/** Writes the stored documents as a JSON array, for the bare reference server. */
export async function writeDocuments(file, list) {
  await writeFile(file, JSON.stringify(documents(list)))
}
