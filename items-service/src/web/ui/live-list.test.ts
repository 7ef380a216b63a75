import { describe, expect, it } from 'vitest'
import type { Item } from './items-api.js'
import { LiveList } from './live-list.js'

const movie = (n: number, genre: string, name = `Movie ${n}`): Item => ({
  _id: `6740a1f2c3d4e5f6a7b8c9${String(n).padStart(2, '0')}`,
  id: `tt${n}`,
  name,
  genre,
})
const names = (list: LiveList) => list.view()?.map((item) => item.name)

describe('LiveList', () => {
  it('keeps an updated movie in its place and adds a created one last', () => {
    const list = new LiveList()
    list.adopt([movie(1, 'Crime'), movie(2, 'Drama')], list.mark(), { whole: true })
    expect(list.apply({ type: 'updated', item: movie(1, 'Crime', 'Renamed') })).toBe('changed')
    expect(list.apply({ type: 'created', item: movie(3, 'Drama') })).toBe('added')
    expect(names(list)).toEqual(['Renamed', 'Movie 2', 'Movie 3'])
  })

  it('says nothing changed for a change it already shows (the echo of its own write)', () => {
    const list = new LiveList()
    list.adopt([movie(1, 'Crime')], list.mark(), { whole: true })
    expect(list.apply({ type: 'updated', item: movie(1, 'Crime') })).toBeNull()
    expect(list.apply({ type: 'deleted', item: movie(9, 'Crime') })).toBeNull()
  })

  it('applies again the changes that came while a list was on its way', () => {
    const list = new LiveList()
    list.adopt([], list.mark(), { whole: true })
    const mark = list.mark()
    list.apply({ type: 'created', item: movie(2, 'Drama') })
    list.apply({ type: 'deleted', item: movie(1, 'Crime') })
    // The response was made before both changes.
    list.adopt([movie(1, 'Crime')], mark, { whole: true })
    expect(names(list)).toEqual(['Movie 2'])
  })

  it('follows the chosen genre: out of it a movie goes, into it a movie comes in its place', () => {
    const list = new LiveList()
    list.genre = 'Crime'
    list.adopt([movie(1, 'Crime'), movie(3, 'Crime')], list.mark(), { whole: false })
    expect(list.apply({ type: 'created', item: movie(4, 'Drama') })).toBeNull()
    expect(list.apply({ type: 'updated', item: movie(1, 'Comedy') })).toBe('removed')
    expect(list.apply({ type: 'updated', item: movie(2, 'Crime') })).toBe('added')
    expect(names(list)).toEqual(['Movie 2', 'Movie 3'])
    expect(list.genres).toEqual(['Comedy', 'Crime', 'Drama'])
  })

  it('filters a whole list a write answered by the chosen genre', () => {
    const list = new LiveList()
    list.genre = 'Drama'
    list.adopt([movie(1, 'Crime'), movie(2, 'Drama')], list.mark(), { whole: true })
    expect(names(list)).toEqual(['Movie 2'])
    expect(list.genres).toEqual(['Crime', 'Drama'])
  })

  it('keeps a held movie shown, as last known, until it is released', () => {
    const list = new LiveList()
    list.adopt([movie(1, 'Crime'), movie(2, 'Crime')], list.mark(), { whole: true })
    list.hold(movie(1, 'Crime'))
    list.apply({ type: 'updated', item: movie(1, 'Crime', 'Renamed') })
    list.apply({ type: 'deleted', item: movie(1, 'Crime', 'Renamed') })
    expect(names(list)).toEqual(['Renamed', 'Movie 2'])
    list.release(movie(1, 'Crime')._id)
    expect(names(list)).toEqual(['Movie 2'])
  })

  it('drops a genre whose last movie is gone while every movie is shown', () => {
    const list = new LiveList()
    list.adopt([movie(1, 'Crime'), movie(2, 'Drama')], list.mark(), { whole: true })
    list.apply({ type: 'deleted', item: movie(2, 'Drama') })
    expect(list.genres).toEqual(['Crime'])
  })
})
