// Pure: the check of a game's shuffle. Before its first move a table publishes a commitment,
// SHA-256(salt ‖ seed) in hex, where salt and seed are 16 bytes each, written as 32 hex digits; when the
// game ends it reveals the seed and salt. The browser keeps the commitment it first saw (js/core/store.js) and,
// at the end, hashes what was revealed and compares (protocol/README.md, "Provably fair shuffles").

/** The bytes 32 hex digits spell, or null when `hex` is not that. */
export function bytesOfHex(hex) {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** SHA-256(salt ‖ seed) in lowercase hex with WebCrypto's `subtle`; null when an input is malformed. */
export async function commitmentOf(saltHex, seedHex, subtle) {
  const salt = bytesOfHex(saltHex);
  const seed = bytesOfHex(seedHex);
  if (!salt || !seed) return null;
  const joined = new Uint8Array(32);
  joined.set(salt, 0);
  joined.set(seed, 16);
  const digest = new Uint8Array(await subtle.digest('SHA-256', joined));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What the check says, from the commitment this browser kept ({commitment, early} or null; early: seen
 * before the first move), the one the table publishes now, and the hash of the revealed salt and seed:
 *   'none'      the table has no commitment (created before commitments existed)
 *   'changed'   the table's commitment is not the one this browser kept: a warning
 *   'mismatch'  the revealed seed and salt do not hash to the commitment: a warning
 *   'verified'  they hash to the commitment this browser kept from before the first move
 *   'published' they hash to the table's commitment, which this browser first saw after the start
 */
export function shuffleVerdict({ kept, published, computed }) {
  if (!published && !kept) return 'none';
  if (kept && published && kept.commitment !== published) return 'changed';
  const expected = kept ? kept.commitment : published;
  if (computed !== expected) return 'mismatch';
  return kept && kept.early ? 'verified' : 'published';
}

/** Where a finished table's record is served (a private table's needs its invite). */
export function recordPath(tableId, invite) {
  const base = `/tables/${encodeURIComponent(tableId)}/record.json`;
  return invite ? `${base}?invite=${encodeURIComponent(invite)}` : base;
}
