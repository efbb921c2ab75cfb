import { MAX_KEY_NAME, normalizeKeyName } from '../account/keys.ts';
import { AddressTakenError } from '../errors.ts';
import type { Account, AccountStore, ApiKeyRecord } from '../storage/accounts/interface.ts';
import { isPlan, PLANS, PLAN_NAMES, type Plan } from '../quota/plans.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.ts';

/** A refusal says what is wrong; `noAccount` when the account named is not in the store. */
export type AdminResult<T> = { ok: true; value: T } | { ok: false; message: string; noAccount?: true };

const noAccount = (accountId: string) => ({
  ok: false as const,
  message: `no account ${accountId}`,
  noAccount: true as const,
});

const EMAIL = /^[^\s\p{Cc}@<>()",;]{1,64}@[^\s\p{Cc}@<>()",;]{1,255}$/u;

/**
 * Creates a key, named as a customer names one on the account pages when `rawName` is given; the
 * plaintext is returned this once and only its digest is stored.
 */
export async function issueApiKey(
  store: AccountStore,
  accountId: string,
  now: number,
  rawName?: string,
): Promise<AdminResult<{ key: ApiKeyRecord; apiKey: string }>> {
  const name = rawName === undefined ? null : normalizeKeyName(rawName);
  if (rawName !== undefined && name === null)
    return {
      ok: false,
      message: `a key name is 1 to ${MAX_KEY_NAME} characters, without control characters or bidi overrides`,
    };
  if (!(await store.getAccount(accountId))) return noAccount(accountId);
  const apiKey = generateApiKey();
  const key = await store.createKey({ accountId, hash: hashApiKey(apiKey), prefix: displayPrefix(apiKey), now, name });
  return { ok: true, value: { key, apiKey } };
}

export async function createAccountWithKey(
  store: AccountStore,
  input: { email: string; plan?: string },
  now: number,
): Promise<AdminResult<{ account: Account; key: ApiKeyRecord; apiKey: string }>> {
  if (!EMAIL.test(input.email)) return { ok: false, message: `"${input.email}" is not an e-mail address` };
  const plan = input.plan ?? 'free';
  if (!isPlan(plan)) return { ok: false, message: `unknown plan "${plan}" (plans: ${PLAN_NAMES.join(', ')})` };
  const account = await createAccountOnce(store, input.email, plan, now);
  if (account instanceof AddressTakenError) return { ok: false, message: account.message };
  const issued = await issueApiKey(store, account.id, now);
  if (!issued.ok) return issued;
  return { ok: true, value: { account, ...issued.value } };
}

/** One account per address (any case): sign-in at /account finds an account by its address. */
async function createAccountOnce(
  store: AccountStore,
  email: string,
  plan: Plan,
  now: number,
): Promise<Account | AddressTakenError> {
  try {
    return await store.createAccount({ email, plan, now });
  } catch (err) {
    if (err instanceof AddressTakenError) return err;
    throw err;
  }
}

/**
 * Moving from the free allowance to a paid plan starts a billing month today; moving between
 * paid plans keeps the anchor (same period, new limit); moving to free keeps the anchor too.
 */
export async function changePlan(
  store: AccountStore,
  accountId: string,
  plan: string,
  now: number,
): Promise<AdminResult<Account>> {
  if (!isPlan(plan)) return { ok: false, message: `unknown plan "${plan}" (plans: ${PLAN_NAMES.join(', ')})` };
  const account = await store.getAccount(accountId);
  if (!account) return noAccount(accountId);
  const startsBilling = PLANS[account.plan].period === 'one_time' && PLANS[plan as Plan].period === 'monthly';
  const updated = await store.setPlan(accountId, plan, startsBilling ? now : account.anchor);
  return updated ? { ok: true, value: updated } : noAccount(accountId);
}
