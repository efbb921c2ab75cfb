import { type AdminResult, changePlan, createAccountWithKey, issueApiKey } from '../auth/admin.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { QuotaService } from '../quota/quota.ts';
import type { Account, AccountStore } from '../storage/accounts/interface.ts';
import { redactUrl } from '../util/redact-url.ts';
import { CliError, type CliIo } from './index.ts';
import { openStoreForCli } from './store.ts';

type Flags = { json?: boolean; email?: string; plan?: string; name?: string };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function accountJson(a: Account) {
  return { id: a.id, email: a.email, plan: a.plan, anchor: iso(a.anchor), createdAt: iso(a.createdAt) };
}

// "No account" (and "no key") names the database searched: the commands read POSTSHOT_DATA_DIR (./data by
// default), so an operator pointed at another data dir than the service's can tell.
const inDatabase = (config: Readonly<Config>) => ` in ${redactUrl(config.databaseUrl)}`;
const noAccount = (config: Readonly<Config>, id: string | undefined) =>
  new CliError(`no account ${id}${inDatabase(config)}`);

function unwrap<T>(result: AdminResult<T>, config: Readonly<Config>): T {
  if (!result.ok) throw new CliError(result.noAccount ? `${result.message}${inDatabase(config)}` : result.message);
  return result.value;
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`missing ${what}`);
  return value;
}

async function usageJson(store: AccountStore, account: Account) {
  const u = await new QuotaService(store, systemClock).usage(account);
  return { ...u, periodStart: iso(u.periodStart), periodEnd: iso(u.periodEnd) };
}

type KeyRow = {
  id: string;
  prefix: string;
  name: string | null;
  createdAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

async function keyRows(store: AccountStore, accountId: string): Promise<KeyRow[]> {
  return (await store.listKeys(accountId)).map((k) => ({
    id: k.id,
    prefix: k.prefix,
    name: k.name,
    createdAt: iso(k.createdAt),
    revokedAt: iso(k.revokedAt),
    lastUsedAt: iso(k.lastUsedAt),
  }));
}

// JSON escapes controls but not bidi controls, which would reorder the rest of the line.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const quoteName = (name: string) =>
  JSON.stringify(name).replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A key as a line: id, prefix, state, dates, and the name its customer gave it, quoted as JSON
 * (a name is the customer's text: a control character in it must not reach the terminal; a
 * name kept from before such names were refused may hold one).
 */
const describeKey = (k: KeyRow) =>
  [
    k.id,
    `${k.prefix}…`,
    k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
    `created ${k.createdAt}`,
    `last used ${k.lastUsedAt ?? 'never'}`,
    ...(k.name === null ? [] : [quoteName(k.name)]),
  ].join('\t');

/** An account's usage as two lines for a reader: the credits, then the period. */
function describeUsage(accountId: string, u: Awaited<ReturnType<typeof usageJson>>): string[] {
  return [
    `${accountId} (${u.plan}): ${u.used} used, ${u.remaining} of ${u.limit} remaining`,
    `period ${u.periodStart} → ${u.periodEnd ?? 'never resets'}`,
  ];
}

const ACCOUNTS_COMMANDS = ['create', 'list', 'show', 'set-plan'];
const KEYS_COMMANDS = ['create', 'list', 'revoke'];

function unknownCommand(group: string, sub: string | undefined, known: string[]): CliError {
  const list = known.join(', ');
  return new CliError(sub ? `unknown ${group} command "${sub}" (${list})` : `missing the ${group} command (${list})`);
}

export async function runAccountsCommand(config: Readonly<Config>, args: string[], flags: Flags, io: CliIo) {
  const [sub, id, plan] = args;
  // Before the database is opened: a mistyped command says so, wherever the database is.
  if (!ACCOUNTS_COMMANDS.includes(sub)) throw unknownCommand('accounts', sub, ACCOUNTS_COMMANDS);
  return openStoreForCli(
    config,
    async (store) => {
      const now = systemClock();
      switch (sub) {
        case 'create': {
          const created = unwrap(
            await createAccountWithKey(store, { email: need(flags.email, '--email'), plan: flags.plan }, now),
            config,
          );
          if (flags.json) io.out(JSON.stringify({ accountId: created.account.id, apiKey: created.apiKey }));
          else {
            io.out(`account ${created.account.id} (${created.account.email}, ${created.account.plan})`);
            io.out(`API key ${created.key.id}: ${created.apiKey}`);
            io.out('The key is shown once; store it now.');
          }
          return 0;
        }
        case 'list': {
          const accounts = await store.listAccounts();
          if (flags.json) io.out(JSON.stringify(accounts.map(accountJson)));
          else if (accounts.length === 0) io.out(`no accounts${inDatabase(config)}`);
          else for (const a of accounts) io.out(`${a.id}\t${a.plan}\t${a.email}\t${iso(a.createdAt)}`);
          return 0;
        }
        case 'show': {
          const account = await store.getAccount(need(id, 'ACCOUNT_ID'));
          if (!account) throw noAccount(config, id);
          const keys = await keyRows(store, account.id);
          const usage = await usageJson(store, account);
          if (flags.json) io.out(JSON.stringify({ ...accountJson(account), usage, keys }));
          else {
            io.out(`account ${account.id} (${account.email}, ${account.plan}), created ${iso(account.createdAt)}`);
            for (const line of describeUsage(account.id, usage)) io.out(line);
            io.out(keys.length ? 'keys:' : 'no keys');
            for (const k of keys) io.out(describeKey(k));
          }
          return 0;
        }
        case 'set-plan': {
          const updated = unwrap(await changePlan(store, need(id, 'ACCOUNT_ID'), need(plan, 'PLAN'), now), config);
          io.out(flags.json ? JSON.stringify(accountJson(updated)) : `account ${updated.id} is now on ${updated.plan}`);
          return 0;
        }
        default:
          throw unknownCommand('accounts', sub, ACCOUNTS_COMMANDS);
      }
    },
    { create: sub === 'create' },
  );
}

export async function runKeysCommand(config: Readonly<Config>, args: string[], flags: Flags, io: CliIo) {
  const [sub, id] = args;
  if (!KEYS_COMMANDS.includes(sub)) throw unknownCommand('keys', sub, KEYS_COMMANDS);
  return openStoreForCli(config, async (store) => {
    switch (sub) {
      case 'create': {
        const issued = await issueApiKey(store, need(id, 'ACCOUNT_ID'), systemClock(), flags.name);
        const { key, apiKey } = unwrap(issued, config);
        io.out(
          flags.json
            ? JSON.stringify({ keyId: key.id, accountId: key.accountId, apiKey })
            : `API key ${key.id}: ${apiKey}`,
        );
        return 0;
      }
      case 'list': {
        const accountId = need(id, 'ACCOUNT_ID');
        if (!(await store.getAccount(accountId))) throw noAccount(config, accountId);
        const rows = await keyRows(store, accountId);
        if (flags.json) io.out(JSON.stringify(rows));
        else for (const k of rows) io.out(describeKey(k));
        return 0;
      }
      case 'revoke': {
        const now = systemClock();
        const key = await store.revokeKey(need(id, 'KEY_ID'), now);
        if (!key) throw new CliError(`no key ${id}${inDatabase(config)}`);
        // A key revoked before keeps its first revocation time: say so rather than "revoked" again.
        const said =
          key.revokedAt === now ? `key ${key.id} revoked` : `key ${key.id} was already revoked ${iso(key.revokedAt)}`;
        io.out(flags.json ? JSON.stringify({ keyId: key.id, revokedAt: iso(key.revokedAt) }) : said);
        return 0;
      }
      default:
        throw unknownCommand('keys', sub, KEYS_COMMANDS);
    }
  });
}

export async function runUsageCommand(config: Readonly<Config>, args: string[], flags: Flags, io: CliIo) {
  return openStoreForCli(config, async (store) => {
    const account = await store.getAccount(need(args[0], 'ACCOUNT_ID'));
    if (!account) throw noAccount(config, args[0]);
    const u = await usageJson(store, account);
    if (flags.json) io.out(JSON.stringify(u));
    else for (const line of describeUsage(account.id, u)) io.out(line);
    return 0;
  });
}
