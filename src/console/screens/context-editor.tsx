import { CONTEXT_MEMBERS_MAX, contextFault, type EncryptionContext } from '../../wire/encryption-context.js';
import { inputText, PageFault } from '../ui.js';

/** One row of the editor: a member's name and value as typed. */
export interface ContextRow {
  readonly name: string;
  readonly value: string;
}

/**
 * The context the rows hold, checked by the rules the gateway applies (docs/spec.md §4.5b item 1)
 * before anything is sent: undefined for none (no row, or only blank ones). A row at fault is named by
 * its number, never by its name (a name outside the set may hold any text, as the gateway's detail
 * does not repeat it either). Throws PageFault (BAD_REQUEST), shown as the gateway's refusals are.
 */
export function contextOf(rows: readonly ContextRow[]): EncryptionContext | undefined {
  const filled = rows.map((row, index) => ({ ...row, number: index + 1 })).filter((row) => row.name !== '' || row.value !== '');
  if (filled.length === 0) return undefined;
  const context: Record<string, string> = {};
  const numbers = new Map<string, number>();
  for (const row of filled) {
    const earlier = numbers.get(row.name);
    if (earlier !== undefined) throw new PageFault('BAD_REQUEST', `context row ${row.number}: the same name as row ${earlier}`);
    numbers.set(row.name, row.number);
    // An own member even for the name `__proto__`, which an assignment would take for the prototype.
    Object.defineProperty(context, row.name, { value: row.value, enumerable: true, writable: true, configurable: true });
  }
  const fault = contextFault(context);
  if (fault !== undefined) {
    const where = fault.member === '' ? 'context' : `context row ${numbers.get(fault.member)}`;
    throw new PageFault('BAD_REQUEST', `${where}: ${fault.fault}`);
  }
  return context;
}

/**
 * The encryption context's rows (docs/spec.md §4.5b): a name and a value each, at most 16, each
 * removable. Not secret: the context is written to the audit record.
 */
export function ContextEditor({ rows, onRows }: { rows: readonly ContextRow[]; onRows: (rows: ContextRow[]) => void }) {
  const change = (at: number, changed: Partial<ContextRow>) =>
    onRows(rows.map((row, index) => (index === at ? { ...row, ...changed } : row)));
  return (
    <fieldset id="crypto-context">
      <legend>Encryption context</legend>
      {rows.length === 0 ? <p class="muted">None: encrypt and decrypt without a context.</p> : null}
      {rows.map((row, index) => (
        <div class="context-row" key={index} data-row={index}>
          <label>
            Name <input name="context-name" value={row.name} onInput={(e) => change(index, { name: inputText(e) })} />
          </label>
          <label>
            Value <input name="context-value" value={row.value} onInput={(e) => change(index, { value: inputText(e) })} />
          </label>
          <button type="button" name="context-remove" onClick={() => onRows(rows.filter((_, other) => other !== index))}>
            Remove
          </button>
        </div>
      ))}
      <button
        id="crypto-context-add"
        type="button"
        disabled={rows.length >= CONTEXT_MEMBERS_MAX}
        onClick={() => onRows([...rows, { name: '', value: '' }])}
      >
        Add a member
      </button>
    </fieldset>
  );
}
