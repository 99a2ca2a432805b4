// The browser's check of a game's shuffle (web-client/js/models/shuffle-check.js) and the commitments it keeps
// (js/core/store.js), with node's WebCrypto.
import test from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { bytesOfHex, commitmentOf, shuffleVerdict, recordPath } from '../../web-client/js/models/shuffle-check.js';
import { Store, MemoryStorage } from '../../web-client/js/core/store.js';

const salt = '000102030405060708090a0b0c0d0e0f';
const seed = '101112131415161718191a1b1c1d1e1f';
// python3 -c "import hashlib; print(hashlib.sha256(bytes(range(32))).hexdigest())" — the server's records
// test checks the same vector (tests/engine/records_test.cpp).
const commitment = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';

test('the commitment is SHA-256 over the salt bytes then the seed bytes', async () => {
  assert.equal(await commitmentOf(salt, seed, webcrypto.subtle), commitment);
  assert.equal(await commitmentOf(salt.toUpperCase(), seed, webcrypto.subtle), commitment);
  assert.notEqual(await commitmentOf(seed, salt, webcrypto.subtle), commitment);
  assert.equal(await commitmentOf('00', seed, webcrypto.subtle), null);
  assert.equal(await commitmentOf(salt, 'zz' + seed.slice(2), webcrypto.subtle), null);
  assert.deepEqual(Array.from(bytesOfHex(salt)), Array.from({ length: 16 }, (_, i) => i));
  assert.equal(bytesOfHex(42), null);
});

test('the verdict: kept before the first move, seen later, changed, mismatched, none', () => {
  const other = 'f'.repeat(64);
  assert.equal(shuffleVerdict({ kept: { commitment, early: true }, published: commitment, computed: commitment }), 'verified');
  assert.equal(shuffleVerdict({ kept: { commitment, early: false }, published: commitment, computed: commitment }), 'published');
  assert.equal(shuffleVerdict({ kept: null, published: commitment, computed: commitment }), 'published');
  assert.equal(shuffleVerdict({ kept: { commitment, early: true }, published: other, computed: other }), 'changed');
  assert.equal(shuffleVerdict({ kept: { commitment, early: true }, published: commitment, computed: other }), 'mismatch');
  assert.equal(shuffleVerdict({ kept: null, published: commitment, computed: null }), 'mismatch');
  assert.equal(shuffleVerdict({ kept: null, published: undefined, computed: null }), 'none');
});

test('the browser keeps the first commitment a table showed it, and no later one', () => {
  let clock = 0;
  const store = new Store(new MemoryStorage(), new MemoryStorage(), () => ++clock);
  assert.equal(store.keptCommitment('t1'), null);
  store.keepCommitment('t1', commitment, true);
  store.keepCommitment('t1', 'f'.repeat(64), false);
  assert.deepEqual(store.keptCommitment('t1'), { commitment, early: true });
  for (let i = 0; i < 250; i++) store.keepCommitment(`x${i}`, commitment, false);
  assert.ok(store.keptCommitment('x249'));
  assert.equal(store.keptCommitment('x0'), null); // bounded: the oldest go
});

test('the record of a private table is asked for with its invite', () => {
  assert.equal(recordPath('t1'), '/tables/t1/record.json');
  assert.equal(recordPath('t1', 'a b'), '/tables/t1/record.json?invite=a%20b');
});
