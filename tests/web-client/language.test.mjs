// Choosing the language (js/core/i18n/index.js: detectLanguage, initialLanguage, loadLanguage), numbers written
// the language's way (formatNumber, translate), the English fallback for a key a catalog lacks, the
// remembered choice (js/core/store.js) and the "How to play" text's paragraphs and lists (js/ui/howto.js howToBlocks).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import '../../web-client/games/registry.js'; // the games' strings join the catalogs
import {
  DEFAULT_LANGUAGE, LANGUAGES, detectLanguage, formatNumber, has, initialLanguage, isLanguage, language, loadLanguage,
  loadedCatalog, setLanguage, t, translate,
} from '../../web-client/js/core/i18n/index.js';
import { Store, MemoryStorage } from '../../web-client/js/core/store.js';
import { howToBlocks, HOWTO_SECTIONS } from '../../web-client/js/ui/howto.js';

const en = loadedCatalog('en'); // the shared strings and every game's

describe('detectLanguage: the first of the browser\'s languages this client serves', () => {
  const cases = [
    [['zh-TW'], 'zh-Hant'],
    [['zh-HK'], 'zh-Hant'],
    [['zh-MO'], 'zh-Hant'],
    [['zh-Hant'], 'zh-Hant'],
    [['zh-Hant-TW'], 'zh-Hant'],
    [['zh-Hant-HK', 'en'], 'zh-Hant'],
    [['zh-CN'], 'zh-Hans'],
    [['zh-SG'], 'zh-Hans'],
    [['zh-Hans'], 'zh-Hans'],
    [['zh-Hans-CN'], 'zh-Hans'],
    [['zh-Hans-HK'], 'zh-Hans'], // the script says it, whatever the region
    [['zh'], 'zh-Hans'],
    [['ZH_tw'], 'zh-Hant'], // case and underscores as some systems write them
    [['ja'], 'ja'],
    [['ja-JP'], 'ja'],
    [['en-US', 'ja'], 'en'],
    [['fr-FR', 'de', 'ja-JP', 'zh-TW'], 'ja'], // the first match wins
    [['de-DE', 'zh-TW', 'ja'], 'zh-Hant'],
    [['fr', 'de'], 'en'],
    [['jv'], 'en'], // Javanese is not Japanese
    [[], 'en'],
    [['', null, undefined], 'en'],
  ];
  for (const [tags, want] of cases) {
    test(`${JSON.stringify(tags)} → ${want}`, () => assert.equal(detectLanguage(tags), want));
  }
  test('no list at all → English', () => {
    assert.equal(detectLanguage(undefined), 'en');
    assert.equal(detectLanguage(null), 'en');
    assert.equal(DEFAULT_LANGUAGE, 'en');
  });
});

test('initialLanguage: a remembered choice wins while it is offered, else the browser decides', () => {
  assert.equal(initialLanguage('ja', ['zh-TW']), 'ja');
  assert.equal(initialLanguage('zh-Hans', ['en-US']), 'zh-Hans');
  assert.equal(initialLanguage('', ['zh-TW']), 'zh-Hant');
  assert.equal(initialLanguage('klingon', ['zh-CN']), 'zh-Hans');
  assert.equal(initialLanguage(null, []), 'en');
  for (const l of LANGUAGES) assert.ok(isLanguage(l.id), l.id);
  assert.equal(isLanguage('zh'), false);
});

describe('numbers are written the language\'s way', () => {
  test('formatNumber groups thousands and keeps small numbers as they are', () => {
    assert.equal(formatNumber(0, 'en'), '0');
    assert.equal(formatNumber(7, 'ja'), '7');
    assert.equal(formatNumber(1234, 'en'), '1,234');
    assert.equal(formatNumber(1234567, 'ja'), '1,234,567');
    assert.equal(formatNumber(86400, 'zh-Hant'), '86,400');
    assert.equal(formatNumber(86400, 'zh-Hans'), '86,400');
    assert.equal(formatNumber(-1500, 'en'), '-1,500');
    assert.equal(formatNumber(2.5, 'en'), '2.5');
    assert.equal(formatNumber(1234.5, 'de'), '1.234,5', 'the language\'s own signs');
  });
  test('anything that is not a finite number stays as it is', () => {
    assert.equal(formatNumber('1234', 'en'), '1234');
    assert.equal(formatNumber(NaN, 'en'), 'NaN');
    assert.equal(formatNumber(Infinity, 'en'), 'Infinity');
    assert.equal(formatNumber(null, 'en'), 'null');
  });
  test('an unknown language falls back to English digits instead of throwing', () => {
    assert.equal(formatNumber(1234, 'not a language!'), '1,234');
  });
  test('translate formats number params, not strings', () => {
    const catalog = { money: { one: '{count} florin', other: '{count} florins' }, code: 'Table {id}', n: '{n}' };
    assert.equal(translate(catalog, 'money', { count: 12345 }, 'en'), '12,345 florins');
    assert.equal(translate(catalog, 'money', { count: 1 }, 'en'), '1 florin');
    assert.equal(translate(catalog, 'code', { id: '12345' }, 'en'), 'Table 12345', 'ids are strings: untouched');
    assert.equal(translate({ x: '{count}枚' }, 'x', { count: 2000 }, 'ja'), '2,000枚');
    assert.equal(translate(catalog, 'n', { n: 0 }, 'ja'), '0');
  });
  test('plural rules are the language\'s: Japanese has only "other"', () => {
    const catalog = { things: { one: 'one thing', other: '{count} things' } };
    assert.equal(translate(catalog, 'things', { count: 1 }, 'en'), 'one thing');
    assert.equal(translate(catalog, 'things', { count: 1 }, 'ja'), '1 things');
  });
});

describe('catalogs load when chosen; a key a catalog lacks falls back to English', () => {
  test('translate asks the fallback for a missing key, and shows ⟦key⟧ only when both lack it', () => {
    const ja = { hello: 'こんにちは、{name}' };
    const english = { hello: 'Hello, {name}', bye: 'Bye, {name}' };
    assert.equal(translate(ja, 'hello', { name: 'Ann' }, 'ja', english), 'こんにちは、Ann');
    assert.equal(translate(ja, 'bye', { name: 'Ann' }, 'ja', english), 'Bye, Ann');
    assert.equal(translate(ja, 'nope', {}, 'ja', english), '⟦nope⟧');
  });

  test('loadLanguage refuses what is not offered; setLanguage needs a loaded catalog', async () => {
    assert.equal(await loadLanguage('xx'), false);
    assert.equal(setLanguage('xx'), false);
    assert.equal(language(), 'en');
  });

  for (const { id } of LANGUAGES.filter((l) => l.id !== 'en')) {
    test(`${id}: loaded with a dynamic import, then t() speaks it and falls back to English`, async (ctx) => {
      const loaded = await loadLanguage(id);
      if (!loaded) { ctx.skip(`no ${id} catalog yet`); return; }
      try {
        assert.equal(setLanguage(id), true);
        assert.equal(language(), id);
        const translated = t('lobby.heading');
        assert.ok(translated && !translated.startsWith('⟦'), translated);
        assert.ok(has('lobby.heading'));
        // A game's strings, from the file beside its board, come with the language.
        const medina = (await import(`../../web-client/games/medina/i18n/${id}.js`)).default;
        assert.equal(t('howto.medina.summary'), medina['howto.medina.summary']);
        assert.notEqual(t('howto.medina.summary'), en['howto.medina.summary']);
        // A key only English has (as when English gains keys before the translations): English words.
        assert.ok(has('app.name'));
        assert.equal(t('missing.key.for.test'), '⟦missing.key.for.test⟧');
      } finally {
        setLanguage('en');
      }
      assert.equal(t('lobby.heading'), en['lobby.heading']);
    });
  }
});

test('the store remembers the language chosen; nothing chosen is ""', () => {
  const local = new MemoryStorage();
  const store = new Store(local, new MemoryStorage());
  assert.equal(store.language(), '');
  store.setLanguage('zh-Hant');
  assert.equal(new Store(local, null).language(), 'zh-Hant', 'kept across page loads');
  store.setLanguage('');
  assert.equal(store.language(), '');
});

describe('How to play: paragraphs and lists from plain text', () => {
  test('"\\n\\n" separates paragraphs; "• " lines make a list', () => {
    const text = 'You are merchants.\n\nEach turn:\n• Draw a tile\n• Or stop\n\nThe end.';
    assert.deepEqual(howToBlocks(text), [
      { type: 'p', text: 'You are merchants.' },
      { type: 'p', text: 'Each turn:' },
      { type: 'ul', items: ['Draw a tile', 'Or stop'] },
      { type: 'p', text: 'The end.' },
    ]);
  });
  test('a list alone, lines of a paragraph kept together, blank and Windows line ends ignored', () => {
    assert.deepEqual(howToBlocks('• one\n• two'), [{ type: 'ul', items: ['one', 'two'] }]);
    assert.deepEqual(howToBlocks('line one\nline two\r\n\r\n\n\n• a\nafter'), [
      { type: 'p', text: 'line one\nline two' },
      { type: 'ul', items: ['a'] },
      { type: 'p', text: 'after' },
    ]);
    assert.deepEqual(howToBlocks(''), []);
    assert.deepEqual(howToBlocks(undefined), []);
  });
  test('markup stays text (it is put on the page with textContent)', () => {
    assert.deepEqual(howToBlocks('<b>bold</b>\n• <img src=x>'), [{ type: 'p', text: '<b>bold</b>' }, { type: 'ul', items: ['<img src=x>'] }]);
  });
  test('the sections and their headings', () => {
    assert.deepEqual(HOWTO_SECTIONS, ['setup', 'turn', 'scoring', 'end', 'rulings']);
    for (const s of HOWTO_SECTIONS) assert.ok(`help.section.${s}` in en, `help.section.${s}`);
    for (const k of ['help.button', 'help.buttonLabel', 'help.title', 'language.label']) assert.ok(k in en, k);
  });
});
