// The table's shuffle, checked: while the game runs, that the server committed to it before the first move
// (the commitment's first digits; the seed comes at the end); once it is over, whether the revealed seed and
// salt hash to the commitment this browser kept (js/models/shuffle-check.js, WebCrypto), loudly if not, with the
// game's record and how to check it offline.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { commitmentOf, shuffleVerdict, recordPath } from '../../models/shuffle-check.js';

const SHORT = 12; // hex digits of a commitment shown in running text

export function createFairness({ store }) {
  const el = h('section', { class: 'card fairness', 'aria-labelledby': 'fairness-h', hidden: true, 'data-testid': 'fairness' });
  let checked = null; // {key, verdict}: the check of one reveal, computed once
  let lastArgs = null;

  async function check(key, info) {
    const kept = store.keptCommitment(info.id);
    let verdict;
    const subtle = globalThis.crypto && globalThis.crypto.subtle;
    if (!subtle) {
      verdict = 'unavailable'; // WebCrypto exists only in secure contexts (https, localhost)
    } else {
      const computed = await commitmentOf(info.salt, info.seed, subtle);
      verdict = shuffleVerdict({ kept, published: info.commitment, computed });
    }
    checked = { key, verdict, kept };
    if (lastArgs) render(lastArgs);
  }

  function howTo(info, invite) {
    const command = `printf '%s%s' ${info.salt} ${info.seed} | xxd -r -p | sha256sum`;
    return h('details', { class: 'fairness-howto' },
      h('summary', {}, t('fairness.howTo')),
      h('p', {}, t('fairness.howToRecord')),
      h('pre', {}, h('code', {}, 'emporium-verify record.json')),
      h('p', {}, t('fairness.howToCommitment', { commitment: info.commitment })),
      h('pre', {}, h('code', {}, command)));
  }

  /** `info`: the table; `version`: the game's version (null before the start); `invite`: a private table's code. */
  function render({ info, version, invite }) {
    lastArgs = { info, version, invite };
    if (!info || (!info.commitment && info.state !== 'finished')) {
      el.hidden = true;
      replace(el);
      return;
    }
    // The first commitment this browser sees is the one it holds the server to.
    if (info.commitment) store.keepCommitment(info.id, info.commitment, info.state === 'waiting' || version === 0);
    el.hidden = false;
    const heading = h('h2', { id: 'fairness-h' }, t('fairness.heading'));
    if (info.state !== 'finished') {
      replace(el, heading, h('p', { class: 'hint' }, t('fairness.committed', { short: info.commitment.slice(0, SHORT) })));
      return;
    }
    if (!info.commitment || !info.seed || !info.salt) {
      replace(el, heading, h('p', { class: 'hint' }, t('fairness.none')));
      return;
    }
    const key = `${info.id}:${info.seed}:${info.salt}:${info.commitment}`;
    if (!checked || checked.key !== key) {
      replace(el, heading, h('p', { role: 'status' }, t('fairness.checking')));
      if (!checked || checked.key !== `pending:${key}`) {
        checked = { key: `pending:${key}` };
        check(key, info);
      }
      return;
    }
    const { verdict, kept } = checked;
    const good = verdict === 'verified' || verdict === 'published';
    const message = {
      verified: t('fairness.verifiedEarly'),
      published: t('fairness.verifiedPublished'),
      mismatch: t('fairness.mismatch'),
      changed: t('fairness.changed', { kept: kept ? kept.commitment.slice(0, SHORT) : '', published: info.commitment.slice(0, SHORT) }),
      unavailable: t('fairness.unavailable'),
    }[verdict];
    el.dataset.verdict = verdict;
    replace(el, heading,
      good
        ? h('p', { class: 'fairness-verdict ok', role: 'status', 'data-testid': 'shuffle-verdict' },
          h('strong', {}, t('fairness.verified')), ' ', message)
        : h('p', { class: `fairness-verdict ${verdict === 'unavailable' ? 'unknown' : 'alarm'}`, role: 'alert', 'data-testid': 'shuffle-verdict' },
          h('strong', {}, verdict === 'unavailable' ? t('fairness.unchecked') : t('fairness.warning')), ' ', message),
      h('p', {}, h('a', { href: recordPath(info.id, info.private ? invite : null), download: `emporium-${info.game}-${info.id}.json`, 'data-testid': 'record-link' }, t('fairness.record'))),
      howTo(info, invite));
  }

  return { el, render };
}
