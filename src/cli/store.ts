import type { Config } from '../config.ts';
import { openAccountStore } from '../container.ts';
import type { AccountStore } from '../storage/accounts/interface.ts';

/** Opens the configured account store for one CLI command and closes it afterwards. */
export async function openStoreForCli<T>(
  config: Readonly<Config>,
  run: (store: AccountStore) => Promise<T>,
): Promise<T> {
  const store = await openAccountStore(config);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
