/** Atomics in a Durable Object (one thread), each one synchronous SQLite statement; expired rows read as absent, an alarm deletes them. */
/** The parts of a Durable Object's state this table uses (SQLite-backed storage). */
export interface DurableStorageState {
  readonly storage: {
    readonly sql: { exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] } };
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

/** Expired rows are deleted at most this long after they expire. */
const SWEEP_DELAY_MS = 60_000;

export class AtomicTable {
  /** When the pending alarm fires (cached: each `setAlarm` is a storage write). */
  private alarmAt: number | undefined;

  constructor(private readonly state: DurableStorageState) {
    this.exec(
      "CREATE TABLE IF NOT EXISTS atomic (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL)",
    );
  }

  private exec(query: string, ...bindings: unknown[]): Record<string, unknown>[] {
    return this.state.storage.sql.exec(query, ...bindings).toArray();
  }

  private scheduleSweep(now: number): void {
    if (this.alarmAt !== undefined && this.alarmAt > now) return;
    this.alarmAt = now + SWEEP_DELAY_MS;
    void this.state.storage.setAlarm(this.alarmAt);
  }

  get(key: string): string | null {
    const [row] = this.exec("SELECT value FROM atomic WHERE key = ? AND expires > ?", key, Date.now());
    return row ? String(row.value) : null;
  }

  setIfAbsent(key: string, value: string, ttlSeconds: number): boolean {
    const now = Date.now();
    // Insert, or take over a row that has expired; a live row is left alone.
    const created = this.exec(
      "INSERT INTO atomic (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE atomic.expires <= ? RETURNING key",
      key,
      value,
      now + ttlSeconds * 1000,
      now,
    );
    if (created.length) this.scheduleSweep(now);
    return created.length === 1;
  }

  compareAndSet(key: string, expected: string, next: string, ttlSeconds: number): boolean {
    const now = Date.now();
    const replaced = this.exec(
      "UPDATE atomic SET value = ?, expires = ? WHERE key = ? AND value = ? AND expires > ? RETURNING key",
      next,
      now + ttlSeconds * 1000,
      key,
      expected,
      now,
    );
    return replaced.length === 1;
  }

  delete(key: string): void {
    this.exec("DELETE FROM atomic WHERE key = ?", key);
  }

  /** The alarm: drop what expired, and come back while rows remain. */
  sweep(): void {
    const now = Date.now();
    this.alarmAt = undefined;
    this.exec("DELETE FROM atomic WHERE expires <= ?", now);
    if (this.exec("SELECT 1 FROM atomic LIMIT 1").length) this.scheduleSweep(now);
  }
}

/** The parts of a Durable Object this table needs: its state, as Cloudflare's base class keeps it. */
interface DurableObjectLike {
  readonly ctx: DurableStorageState;
}

const tables = new WeakMap<object, AtomicTable>();

/** The object's own table, made on its first use. */
export const tableOf = (object: DurableObjectLike): AtomicTable =>
  tables.get(object) ?? tables.set(object, new AtomicTable(object.ctx)).get(object)!;

/** The object's side of the atomic operations (`workers.ts` calls them over RPC), and its alarm sweeping the table. */
export const durableMethods = {
  atomicGet(this: DurableObjectLike, key: string): string | null {
    return tableOf(this).get(key);
  },
  atomicSetIfAbsent(this: DurableObjectLike, ...args: Parameters<AtomicTable["setIfAbsent"]>): boolean {
    return tableOf(this).setIfAbsent(...args);
  },
  atomicCompareAndSet(this: DurableObjectLike, ...args: Parameters<AtomicTable["compareAndSet"]>): boolean {
    return tableOf(this).compareAndSet(...args);
  },
  atomicDelete(this: DurableObjectLike, key: string): void {
    tableOf(this).delete(key);
  },
  alarm(this: DurableObjectLike): void {
    tableOf(this).sweep();
  },
};
