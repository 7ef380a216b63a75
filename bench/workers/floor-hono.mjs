// A start's floor: Hono alone, one route (bench/start-floor.mjs).
import { Hono } from 'hono'

export default new Hono().get('/items', (c) => c.json([{ id: 'tt1', name: 'Alien', genre: 'SF' }]))
