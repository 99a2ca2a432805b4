// Merkator's standing answer to "Join the trip?" (issue 36): the player's choice, remembered per table in
// localStorage, and whether it answers a join prompt by itself. Pure: no DOM; the storage is handed in (null: none).
// tests/web-client/merkator-standing-choice.test.mjs.
//   'ask'        always ask (the default; nothing is stored)
//   'contracts'  stay home unless I hold a contract there that I might fulfil: when none of my contracts for the
//                trip's place can be fulfilled, not even with the bonus goods of joining, the supply tile and
//                trades, stay home; whenever one might be, ask
//   'never'      always stay home
import { contractsHere, joinCost } from './model.js';

export const JOIN_CHOICES = Object.freeze(['ask', 'contracts', 'never']);
export const STORAGE_KEY = 'emporium.merkator.joining';
/** The tables remembered at most (the oldest choice goes first). */
export const MAX_TABLES = 100;
/** The trade rate: goods of one kind, or time counters, given for one good (docs/rules/merkator.md). */
const TRADE = 4;

function readAll(storage) {
  if (!storage) return {};
  try {
    const all = JSON.parse(storage.getItem(STORAGE_KEY) || '{}');
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

/** The standing choice at `table` ('ask' when none, or no table). */
export function readChoice(storage, table) {
  if (!table) return 'ask';
  const choice = readAll(storage)[table];
  return JOIN_CHOICES.includes(choice) ? choice : 'ask';
}

/** Remembers `choice` at `table` ('ask' forgets it); keeps the newest MAX_TABLES. Storage errors are ignored. */
export function saveChoice(storage, table, choice) {
  if (!storage || !table || !JOIN_CHOICES.includes(choice)) return;
  const all = readAll(storage);
  delete all[table];
  if (choice !== 'ask') all[table] = choice;
  const tables = Object.keys(all);
  for (const old of tables.slice(0, Math.max(0, tables.length - MAX_TABLES))) delete all[old];
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // full or blocked: the choice lives for this page only (the board keeps it)
  }
}

/**
 * Whether seat `p` might fulfil contract `id` at the trip's place after joining it: false only when it surely
 * cannot. Counted generously: its goods and the bonus goods joining brings, every supply-tile cube as any good it
 * misses, and as many 4-for-1 trades as its spare goods (and those cubes) and the time left after paying could make.
 */
export function mightFulfil(c, view, p, id) {
  const k = c.contracts.get(id);
  const seat = view.seats[p];
  if (!k || !seat) return true;
  const goods = { ...seat.goods };
  for (const card of seat.bonus_cards || []) {
    const b = c.bonus.get(card);
    if (b && b.location === view.location) goods[b.good] = (goods[b.good] || 0) + (Number.isInteger(b.joiner) ? b.joiner : 1);
  }
  const need = k.goods || {};
  let missing = 0;
  for (const [g, q] of Object.entries(need)) missing += Math.max(0, q - (goods[g] || 0));
  if (missing === 0) return true;
  const cubes = Object.values(seat.supply || {}).reduce((n, x) => n + (x > 0 ? x : 0), 0);
  let spare = 0;
  for (const [g, n] of Object.entries(goods)) spare += Math.max(0, n - (need[g] || 0));
  const cost = view.joining && Number.isInteger(view.joining.cost) ? view.joining.cost : joinCost(c, view.location);
  const trades = Math.floor((spare + cubes) / TRADE) + Math.floor(Math.max(0, seat.time - cost) / TRADE);
  return missing <= cubes + trades;
}

/** Whether the join prompt now open is seat `p`'s (the engine asks it, and the legal list lets it stay home). */
export function isJoinPrompt(view, p, legal) {
  return Boolean(view) && view.phase === 'joining' && Boolean(view.joining) && view.joining.player === p
    && (legal || []).some((a) => a && a.type === 'decline');
}

/**
 * What the standing `choice` answers to seat `p`'s join prompt: 'decline', or null when the player is to be asked
 * (no prompt of theirs is open, 'ask', or a contract there might be fulfilled). `c` is the catalog (model.catalog()).
 */
export function standingAnswer(choice, c, view, p, legal) {
  if (!c || !isJoinPrompt(view, p, legal)) return null;
  if (choice === 'never') return 'decline';
  if (choice === 'contracts') return contractsHere(c, view, p).some((id) => mightFulfil(c, view, p, id)) ? null : 'decline';
  return null;
}
