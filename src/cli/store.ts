import type { Config } from '../config.ts';
import { describeCause } from '../errors.ts';
import { openAccountStore } from '../container.ts';
import type { AccountStore } from '../storage/accounts/interface.ts';
import { redactUrl } from '../util/redact-url.ts';
import { CliError } from './index.ts';

/**
 * Opens the configured account store for one CLI command and closes it afterwards. A command is
 * one-shot: a database out of reach, or not made yet, fails it at once, as one line naming it.
 */
export async function openStoreForCli<T>(
  config: Readonly<Config>,
  run: (store: AccountStore) => Promise<T>,
  /** Only the command that makes an account makes the database: a typo elsewhere is refused. */
  { create = false } = {},
): Promise<T> {
  let store: AccountStore;
  try {
    store = await openAccountStore(config, { create });
  } catch (err) {
    throw new CliError(`cannot open the database ${redactUrl(config.databaseUrl)}: ${describeCause(err)}`);
  }
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
