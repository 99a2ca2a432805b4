// One change at a time for a part of the account page: it says it is working, runs the request, says how it went,
// lets the part settle its own state, and draws the page again from a fresh answer (GET /api/account).
import { t } from '../../core/i18n/index.js';

/**
 * `status`: the part's formStatus; `reload`: asks for the account again; `describe(err)`: an error in the part's
 * words; `settle(err, options)`: the part's state after the request (`err` null when it went), `options` being
 * what the caller passed with it (e.g. `after`, where focus goes next). Returns `act(work, options)`, where
 * `options.ok` says what went well.
 */
export function createActor({ status, reload, describe, settle }) {
  let busy = false;
  return async function act(work, options) {
    if (busy) return;
    busy = true;
    status.set('busy', () => t('account.working'));
    try {
      await work();
      status.set('ok', options.ok);
      settle(null, options);
    } catch (err) {
      status.set('error', () => describe(err));
      settle(err, options);
    } finally {
      busy = false;
    }
    await reload();
  };
}
