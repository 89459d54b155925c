import type { KeyPageQuery } from '../engine/engine-model.js';

/** The SQL of one durable store: SQLite's or PostgreSQL's. */
export type KeyPageDialect = 'sqlite' | 'postgres';

/** A statement and its values, in the order of its placeholders. */
export interface KeyPageStatement {
  readonly text: string;
  readonly values: unknown[];
}

/**
 * The key list's page as one SELECT over `keys k` (docs/spec.md §4.23 item 1), the same rules as
 * key-page-filter.ts. Built from fixed fragments and placeholders only (no value is ever spliced in),
 * so each shape of query is one statement text that a store prepares once. The indexes of engine schema
 * 10 (SQLite) and 6 (PostgreSQL) serve it: a page of every key walks `keys_by_created` backwards from
 * the cursor; a caller's page starts from the keys it owns (`keys_by_owner`) and those its ACL entries
 * reach (`key_acl_by_principal`), then sorts those alone; an owner filter walks `keys_by_owner`; a tag
 * filter is a lookup in `key_tags_by_value`. `select` names the columns answered besides `k.*`.
 */
export function keyPageStatement(query: KeyPageQuery, dialect: KeyPageDialect, select = ''): KeyPageStatement {
  const values: unknown[] = [];
  const pg = dialect === 'postgres';
  const param = (value: unknown) => {
    values.push(value);
    return pg ? `$${values.length}` : '?';
  };
  /** A list of texts, as one value: a JSON array SQLite opens with json_each, a text[] for PostgreSQL. */
  const inList = (column: string, list: readonly string[]) =>
    pg ? `${column} = ANY(${param(list)}::text[])` : `${column} IN (SELECT value FROM json_each(${param(JSON.stringify(list))}))`;
  const ttag = pg ? 'k.ttag COLLATE "C"' : 'k.ttag';
  const where: string[] = [];
  let from = 'keys k';
  if (query.visibleTo !== undefined) {
    // The keys the principals reach, then those rows: a caller's few keys are never found by a walk of all.
    // An entry with conditions does not count (docs/spec.md §4.5b item 4: the list counts unconditioned rights).
    const reached = `SELECT o.ttag FROM keys o WHERE ${inList('o.owner', query.visibleTo)}
      UNION SELECT a.ttag FROM key_acl a WHERE ${inList('a.principal_id', query.visibleTo)} AND a.conditions IS NULL`;
    from = `(${reached}) v ${pg ? 'JOIN' : 'CROSS JOIN'} keys k ON k.ttag = v.ttag`;
  }
  if (query.ttags !== undefined) where.push(inList('k.ttag', query.ttags));
  if (query.owner !== undefined) where.push(`k.owner = ${param(query.owner)}`);
  if (query.labelPrefix !== undefined) {
    // A range of `keys_by_label` (from the prefix to the first string past every one it begins), then
    // the exact check: the range alone is an index's bound, not the rule.
    const label = pg ? 'k.label COLLATE "C"' : 'k.label';
    const length = pg ? 'char_length' : 'length';
    const past = pastPrefix(query.labelPrefix);
    where.push(`${label} >= ${param(query.labelPrefix)}`);
    if (past !== undefined) where.push(`${label} < ${param(past)}`);
    where.push(`substr(k.label, 1, ${length}(${param(query.labelPrefix)})) = ${param(query.labelPrefix)}`);
  }
  for (const tag of query.tags) {
    // Placeholders are numbered in the order written (SQLite's `?` by position): the name's first.
    const name = `t.name = ${param(tag.name)}`;
    const value = tag.value === undefined ? '' : ` AND t.value = ${param(tag.value)}`;
    where.push(`k.ttag IN (SELECT t.ttag FROM key_tags t WHERE ${name}${value})`);
  }
  where.push(stateCondition(query, param));
  if (query.createdAfter !== undefined) where.push(`k.created_at > ${param(query.createdAfter)}`);
  if (query.createdBefore !== undefined) where.push(`k.created_at < ${param(query.createdBefore)}`);
  if (query.after !== undefined) {
    const { createdAt, ttag: last } = query.after;
    where.push(`k.created_at <= ${param(createdAt)} AND (k.created_at < ${param(createdAt)} OR ${ttag} < ${param(last)})`);
  }
  const text = `SELECT k.*${select} FROM ${from} WHERE ${where.join(' AND ')}
    ORDER BY k.created_at DESC, ${ttag} DESC LIMIT ${param(query.limit)}`;
  return { text, values };
}

/**
 * The least string above every string that begins with `prefix`, in code-unit order and in UTF-8 byte
 * order alike (SQLite's and PostgreSQL's "C"): the prefix with its last unit one higher. Undefined when
 * that unit is a surrogate or U+FFFF, where the two orders part: the range then has no upper bound.
 */
function pastPrefix(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  if ((last >= 0xd7ff && last <= 0xdfff) || last === 0xffff) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** docs/spec.md §4.23 item 4: the first that holds of deleted, pending deletion, expired, disabled, active. */
function stateCondition(query: KeyPageQuery, param: (value: unknown) => string): string {
  if (query.state === undefined) return 'k.deleted_at IS NULL';
  if (query.state === 'deleted') return 'k.deleted_at IS NOT NULL';
  const waiting = 'k.deleted_at IS NULL AND k.deletion_at IS NOT NULL';
  if (query.state === 'pending-deletion') return waiting;
  const expired = `(k.expired = 1 OR (k.expires_at IS NOT NULL AND k.expires_at <= ${param(query.now)}))`;
  const live = 'k.deleted_at IS NULL AND k.deletion_at IS NULL';
  if (query.state === 'expired') return `${live} AND ${expired}`;
  return `${live} AND NOT ${expired} AND k.disabled = ${query.state === 'disabled' ? 1 : 0}`;
}

/** Rows by their `ttag`, each key's in the order read. */
export function groupedBy<R extends { readonly ttag: string }>(rows: readonly R[]): Map<string, R[]> {
  const grouped = new Map<string, R[]>();
  for (const row of rows) {
    const list = grouped.get(row.ttag);
    if (list === undefined) grouped.set(row.ttag, [row]);
    else list.push(row);
  }
  return grouped;
}
