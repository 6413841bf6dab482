/**
 * One handler per operationId. A handler filters and orders the internal records and names the
 * serializer of the requested version; the server pages and wraps the list as the operation's
 * `x-cdas-pagination` says. Inputs arrive already validated (and coerced) against the bundle.
 */
import { randomBytes } from "node:crypto";
import type { OperationInfo } from "./bundle.js";
import { DOCUMENTED_PERSON } from "./data/ids.js";
import type { Account, BankingProduct, DataSet, EndUser, Transaction } from "./data/model.js";
import * as views from "./data/views.js";
import { addDays, instantOf } from "./dates.js";
import { ApiError, InputEcho } from "./errors.js";
import { ExpiringMap } from "./expiring.js";
import type { TokenStore } from "./tokens.js";

/** Days in the default window of the transactions read, ending "today" (inclusive). */
export const DEFAULT_TRANSACTION_WINDOW_DAYS = 90;

/** The first day of the default window that ends `today` (inclusive). */
function defaultWindowStart(today: string): string {
  return addDays(today, -(DEFAULT_TRANSACTION_WINDOW_DAYS - 1));
}

/** Lifetime of an auth session; `expires_at` is in Unix seconds. */
const AUTH_SESSION_TTL_SECONDS = 900;

interface AuthSessionRecord {
  id: string;
  sessionId: string;
  endUserId: string | undefined;
  institutionId: string | undefined;
  expiresAt: number;
}

/** The auth session of the documents' examples: its `sess_id` narrows the institutions list like any other. */
export const DOCUMENTED_SESSION: AuthSessionRecord = {
  id: "as_8d31f0c7",
  sessionId: "sess_b41e9a06",
  endUserId: DOCUMENTED_PERSON,
  institutionId: "inst_westpac",
  expiresAt: Number.POSITIVE_INFINITY,
};

/**
 * The forms the sandbox answers in where the interface gives two: the token response
 * (`{access_token, token_type, expires_in}` or `{token, expires_in}`) and the summary products read
 * (the bare Product, or `{data: [Product]}`).
 */
export interface ResponseForms {
  token: "access_token" | "token";
  product: "bare" | "data";
}

/** The data set, indexes over it and the little runtime state (auth sessions). */
export class SandboxState {
  readonly accountsById: Map<string, Account>;
  readonly productsById: Map<string, BankingProduct>;
  readonly endUsersById: Map<string, EndUser>;
  readonly transactionsByUser: Map<string, Transaction[]>;
  /**
   * Created auth sessions by `session_id`, expiring at their `expires_at`; past `maxAuthSessions`,
   * creating one drops the oldest. The documented session is kept apart, so it is never dropped.
   */
  readonly sessions: ExpiringMap<AuthSessionRecord>;
  /** Results of transaction filters, by filter (the data never changes, so they stay valid). */
  readonly filteredTransactions = new Map<string, Transaction[]>();
  /** How error messages repeat request input (never the clients' secrets). */
  readonly echo: InputEcho;

  constructor(
    readonly data: DataSet,
    readonly today: string,
    readonly clientId: string,
    readonly forms: ResponseForms,
    readonly tokens: TokenStore,
    readonly now: () => number,
    maxAuthSessions: number,
  ) {
    this.accountsById = new Map(data.accounts.map((a) => [a.id, a]));
    this.productsById = new Map(data.products.map((p) => [p.id, p]));
    this.endUsersById = new Map(data.endUsers.map((u) => [u.id, u]));
    this.sessions = new ExpiringMap(now, maxAuthSessions);
    this.echo = new InputEcho(tokens.secrets);
    this.transactionsByUser = new Map();
    for (const transaction of data.transactions) {
      const list = this.transactionsByUser.get(transaction.endUserId) ?? [];
      list.push(transaction);
      this.transactionsByUser.set(transaction.endUserId, list);
    }
  }

  addSession(session: AuthSessionRecord): void {
    this.sessions.set(session.sessionId, session, session.expiresAt * 1000);
  }

  /** The auth session of a `session_id` and whether it has expired (the documented one never does). */
  findSession(sessionId: string): { value: AuthSessionRecord; expired: boolean } | undefined {
    if (sessionId === DOCUMENTED_SESSION.sessionId) return { value: DOCUMENTED_SESSION, expired: false };
    return this.sessions.lookup(sessionId);
  }
}

export interface HandlerContext {
  op: OperationInfo;
  /** Validated query, with the bundle's defaults applied. */
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
  scopes: ReadonlySet<string>;
  state: SandboxState;
}

export type HandlerResult =
  | { kind: "body"; body: unknown }
  | {
      kind: "list";
      items: unknown[];
      serialize: (item: never) => unknown;
      /** Whether `serialize` lives as long as the module (a view of views.ts), so its JSON may be cached. */
      cacheJson: boolean;
      query: Record<string, unknown>;
      /** Cursor paging applies only when the request carries a paging parameter. */
      optInPaging?: boolean;
    };

type Handler = (context: HandlerContext) => HandlerResult;

const MODULE_VIEWS: ReadonlySet<unknown> = new Set(Object.values(views));

function list<T>(
  context: HandlerContext,
  items: T[],
  serialize: (item: T) => unknown,
  optInPaging = false,
): HandlerResult {
  return {
    kind: "list",
    items,
    serialize: serialize as (item: never) => unknown,
    cacheJson: MODULE_VIEWS.has(serialize as (item: never) => unknown),
    query: context.query,
    optInPaging,
  };
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A cache key for a list of filter values: each length-prefixed, so no two lists share a key. */
function filterKey(values: (string | number | undefined)[]): string {
  let key = "";
  for (const value of values) {
    if (value === undefined) key += "-";
    else {
      const part = String(value);
      key += `${part.length}:${part}`;
    }
  }
  return key;
}

function byUser<T extends { endUserId: string }>(items: T[], context: HandlerContext): T[] {
  const endUserId = text(context.query.end_user_id);
  return items.filter((item) => item.endUserId === endUserId);
}

function byAccount<T extends { accountId: string }>(items: T[], context: HandlerContext): T[] {
  const accountId = text(context.query.account_id);
  return accountId === undefined ? items : items.filter((item) => item.accountId === accountId);
}

/** The institution of an id, if the data set has it. */
function institutionById(state: SandboxState, id: string) {
  return state.data.institutions.find((i) => i.id === id);
}

export const handlers: Record<string, Handler> = {
  createToken(context) {
    const body = context.body as { client_id: string; client_secret: string };
    const client = context.state.tokens.authenticate(body.client_id, body.client_secret);
    if (!client) throw new ApiError(401, "invalid client credentials", "unauthorized");
    const issued = context.state.tokens.issue(client);
    const response =
      context.state.forms.token === "token"
        ? { token: issued.token, expires_in: issued.expiresIn }
        : { access_token: issued.token, token_type: "Bearer", expires_in: issued.expiresIn };
    return { kind: "body", body: response };
  },

  createAuthSession(context) {
    const body = (context.body ?? {}) as { end_user_id?: string; institution_id?: string };
    const { state } = context;
    if (body.end_user_id !== undefined && !state.endUsersById.has(body.end_user_id)) {
      throw new ApiError(400, "body field end_user_id names no end user of this team", "bad_request");
    }
    if (
      body.institution_id !== undefined &&
      !state.data.institutions.some((i) => i.id === body.institution_id)
    ) {
      throw new ApiError(400, "body field institution_id names no institution", "bad_request");
    }
    const id = `as_${randomBytes(4).toString("hex")}`;
    const sessionId = `sess_${randomBytes(4).toString("hex")}`;
    const expiresAt = Math.floor(state.now() / 1000) + AUTH_SESSION_TTL_SECONDS;
    state.addSession({
      id,
      sessionId,
      endUserId: body.end_user_id,
      institutionId: body.institution_id,
      expiresAt,
    });
    return {
      kind: "body",
      body: {
        auth_url: `https://auth.cdas.example/consent/${id}?sess_id=${sessionId}`,
        expires_at: expiresAt,
        id,
        session_id: sessionId,
      },
    };
  },

  listInstitutions(context) {
    const { query, state } = context;
    if (query.client_id !== state.clientId)
      throw new ApiError(400, "parameter client_id is not this team's client identifier", "bad_request");
    let institutions = state.data.institutions;
    if (query.industry !== undefined)
      institutions = institutions.filter((i) => i.industry === query.industry);
    if (query.institution_mode === "recommended") institutions = institutions.filter((i) => i.recommended);
    const sessId = text(query.sess_id);
    if (sessId !== undefined) {
      const found = state.findSession(sessId);
      if (!found) throw new ApiError(400, "parameter sess_id names no auth session", "bad_request");
      if (found.expired)
        throw new ApiError(400, "parameter sess_id names an auth session that has expired", "bad_request");
      const session = found.value;
      const chosen = session.institutionId ? institutionById(state, session.institutionId) : undefined;
      if (chosen) institutions = institutions.filter((i) => i.industry === chosen.industry);
    }
    return list(context, institutions, views.institutionView);
  },

  listAccounts(context) {
    const { query } = context;
    let accounts = byUser(context.state.data.accounts, context);
    if (query.institution_id !== undefined)
      accounts = accounts.filter((a) => a.institutionId === query.institution_id);
    if (query.product_category !== undefined)
      accounts = accounts.filter((a) => a.category === query.product_category);
    if (query.open_status !== undefined)
      accounts = accounts.filter((a) => a.openStatus === query.open_status);
    return list(context, accounts, views.summaryAccount);
  },

  listTransactions(context) {
    const { query, state } = context;
    let from = text(query.from_date);
    let to = text(query.to_date);
    if (from === undefined && to === undefined) {
      from = defaultWindowStart(state.today);
      to = state.today;
    }
    if (from !== undefined && to !== undefined && from > to) {
      throw new ApiError(400, "parameter from_date must not be after to_date", "bad_request");
    }
    const min = query.min_amount as number | undefined;
    const max = query.max_amount as number | undefined;
    if (min !== undefined && max !== undefined && min > max) {
      throw new ApiError(400, "parameter min_amount must not be greater than max_amount", "bad_request");
    }
    // Every filter, read from here alone: the cache key is made of this whole record, so a filter
    // added to it is in the key (one read from the query directly would get another filter's list).
    const filter = {
      endUserId: text(query.end_user_id) ?? "",
      accountId: text(query.account_id),
      from,
      to,
      min,
      max,
      status: text(query.status),
    };
    const key = filterKey(Object.values(filter));
    const cached = state.filteredTransactions.get(key);
    if (cached) return list(context, cached, views.summaryTransaction);
    const { accountId, status } = filter;
    const source = state.transactionsByUser.get(filter.endUserId) ?? [];
    const matching = source.filter(
      (t) =>
        (accountId === undefined || t.accountId === accountId) &&
        (from === undefined || t.postedDate >= from) &&
        (to === undefined || t.postedDate <= to) &&
        (status === undefined || t.status === status) &&
        (min === undefined || t.amountCents / 100 >= min) &&
        (max === undefined || t.amountCents / 100 <= max),
    );
    if (state.filteredTransactions.size >= 512) state.filteredTransactions.clear();
    state.filteredTransactions.set(key, matching);
    return list(context, matching, views.summaryTransaction);
  },

  listServicePoints: (context) =>
    list(
      context,
      byAccount(byUser(context.state.data.servicePoints, context), context),
      views.summaryServicePoint,
    ),

  listConcessions: (context) =>
    list(
      context,
      byAccount(byUser(context.state.data.concessions, context), context),
      views.summaryConcession,
    ),

  listIdentities(context) {
    const { state, query } = context;
    const endUser = state.endUsersById.get(text(query.end_user_id) ?? "");
    if (!endUser) return list(context, [], (x) => x);
    const consents = state.data.consents.filter(
      (c) =>
        c.endUserId === endUser.id &&
        c.active &&
        (query.consent_id === undefined || c.id === query.consent_id),
    );
    const identities = consents.flatMap((consent) =>
      views.summaryIdentities(
        endUser,
        consent,
        institutionById(state, consent.institutionId)?.industry ?? "banking",
      ),
    );
    return list(context, identities, (identity) => identity);
  },

  listIncome: (context) =>
    list(context, byAccount(byUser(context.state.data.incomes, context), context), views.summaryIncome),

  listScheduledPayments: (context) =>
    list(
      context,
      byAccount(byUser(context.state.data.scheduledPayments, context), context),
      views.summaryScheduledPayment,
    ),

  listPayees(context) {
    const payees = byUser(context.state.data.payees, context).filter(
      (p) => context.query.type === undefined || p.type === context.query.type,
    );
    return list(context, payees, views.summaryPayee);
  },

  listProducts(context) {
    const { state } = context;
    const accountId = text(context.query.account_id);
    const account = byUser(state.data.accounts, context).find(
      (a) => accountId === undefined || a.id === accountId,
    );
    if (!account)
      throw new ApiError(
        404,
        "no account of this end user matches; there is no product to show",
        "not_found",
      );
    const product = views.summaryProduct(state.productsById.get(account.productId)!, account);
    return { kind: "body", body: state.forms.product === "data" ? { data: [product] } : product };
  },

  listEnergyBalances(context) {
    const accountId = text(context.query.account_id);
    const accounts = byUser(context.state.data.energyAccounts, context).filter(
      (a) => accountId === undefined || a.id === accountId,
    );
    return list(context, accounts, views.summaryEnergyBalance);
  },

  listBankingAccounts(context) {
    const { state } = context;
    const shape = context.op.shape;
    return list(context, byUser(state.data.accounts, context), (account) =>
      views.bankingAccountView(
        account,
        state.productsById.get(account.productId)!,
        state.endUsersById.get(account.endUserId)!,
        shape,
      ),
    );
  },

  listDirectDebits: (context) =>
    list(context, byUser(context.state.data.directDebits, context), views.directDebitView),

  listBankingScheduledPayments(context) {
    const payees = new Map(context.state.data.payees.map((p) => [p.id, p]));
    return list(context, byUser(context.state.data.scheduledPayments, context), (payment) =>
      views.bankingScheduledPaymentView(payment, payees.get(payment.payeeId)),
    );
  },

  listBankingProducts(context) {
    const institutionId = text(context.query.institution_id);
    const products = context.state.data.products.filter(
      (p) => institutionId === undefined || p.institutionId === institutionId,
    );
    return list(context, products, views.bankingProductView);
  },

  getBankingProduct(context) {
    const product = context.state.productsById.get(String(context.params.product_id));
    if (!product) throw new ApiError(404, "parameter product_id names no product", "not_found");
    return {
      kind: "body",
      body: {
        product: views.bankingProductDetailView(product, context.state.data.products, context.op.shape),
      },
    };
  },

  listBankingTransactions(context) {
    // No documented parameters: the team's transactions of the default window, newest first.
    const { state } = context;
    const shape = context.op.shape;
    const from = defaultWindowStart(state.today);
    const recent = state.data.transactions.filter((t) => t.postedDate >= from && t.postedDate <= state.today);
    return {
      kind: "body",
      body: {
        transactions: recent.map((t) => views.bankingTransactionView(t, shape)),
      },
    };
  },

  listDerRecords: (context) =>
    list(context, byUser(context.state.data.derRecords, context), views.derRecordView),

  listEnergyAccountBalances: (context) =>
    list(context, byUser(context.state.data.energyAccounts, context), views.energyAccountBalanceView),

  listEnergyPlans(context) {
    const { query, state } = context;
    const retailerId = text(query.retailer_id);
    const institutionId = text(query.institution_id);
    if ((retailerId === undefined) === (institutionId === undefined)) {
      throw new ApiError(
        400,
        "exactly one of the parameters retailer_id and institution_id is required",
        "bad_request",
      );
    }
    const institution = state.data.institutions.find((i) =>
      retailerId !== undefined ? i.industry === "energy" && i.brand === retailerId : i.id === institutionId,
    );
    if (institution?.industry !== "energy") {
      throw new ApiError(
        400,
        `parameter ${retailerId !== undefined ? "retailer_id" : "institution_id"} names no energy retailer`,
        "bad_request",
      );
    }
    const all = query.status === "all";
    // Timestamps compared as instants: a documented plan's end carries a zone (`+10:00`).
    const now = Date.parse(`${state.today}T00:00:00Z`);
    const plans = state.data.plans.filter(
      (p) =>
        p.institutionId === institution.id &&
        (all || p.effectiveTo === null || Date.parse(p.effectiveTo) > now),
    );
    return list(context, plans, (plan) => views.energyPlanView(plan, institution));
  },

  getCommonIdentity(context) {
    const users = context.state.data.endUsers.filter((u) => u.hasData);
    return { kind: "body", body: views.commonIdentityResponse(users, context.op.shape) };
  },

  listConsents(context) {
    const { state, query } = context;
    const shape = context.op.shape;
    let consents = state.data.consents;
    const expiresBefore = text(query.expires_before);
    if (expiresBefore !== undefined) {
      const cutOff = instantOf(expiresBefore);
      if (cutOff === undefined)
        throw new ApiError(
          400,
          "parameter expires_before must be a date (YYYY-MM-DD) or an RFC 3339 date-time",
          "bad_request",
        );
      consents = consents.filter((c) => Date.parse(c.expiresAt) < cutOff);
    }
    return list(context, consents, (consent) => views.consentView(consent, shape), true);
  },

  listEndUsers: (context) => list(context, context.state.data.endUsers, views.endUserView, true),
};
