import {
  clip,
  invalidParams,
  KEY_SEGMENT,
  useAtomicStore,
  type AuthInfo,
  type InputRequest,
  type JsonRpcErrorBody,
  type ValidArguments,
} from "../../mcp/kit";
/**
 * Tasks in the shared store (the atomic store: strongly consistent on every target, so a task is
 * readable from any instance the moment it is created). A record is replaced only by a
 * compare-and-set on its whole value, so two instances racing (a cancel and a completion, two
 * answers) never lose a change, and a terminal status is final.
 */

export type TaskStatus = "working" | "input_required" | "completed" | "cancelled" | "failed";

export const isTerminal = (status: TaskStatus) =>
  status === "completed" || status === "cancelled" || status === "failed";

export interface TaskRecord {
  readonly id: string;
  /** Only this principal can see or touch the task; to anyone else it does not exist. */
  readonly owner: string;
  readonly tool: string;
  /** As the tool's input schema parsed them, never as sent; emptied once the task has ended. */
  readonly arguments: ValidArguments;
  /** What the creating request said about its client, for the rounds that run later (see `task-creation.ts`). */
  readonly caller: {
    readonly auth: AuthInfo;
    /** Whom its task slot counts against (`McpContext.caller`). */
    readonly key: string;
    readonly protocolVersion: string;
    readonly clientCapabilities: Readonly<Record<string, unknown>>;
  };
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** When the instance running a round last reported, in ms (a working task without one for too long has lost it). */
  readonly heartbeatAt: number;
  /** Rounds run so far: each round's questions get keys of their own, never reused over the task's life. */
  readonly round: number;
  /** The author's state from the last round that asked. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** Outstanding questions, by wire key, with the key the author asked under. */
  readonly asks?: Readonly<Record<string, { readonly key: string; readonly request: InputRequest }>>;
  /** Answers received for the current round, by the author's key. */
  readonly answers?: Readonly<Record<string, unknown>>;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: JsonRpcErrorBody;
}

/**
 * A task id from a client becomes a key only if it passes the allow-list every storage key made
 * from client input passes (ids this server issues always do): anything else is -32602 here, before
 * any store sees it, instead of a key a store might refuse (which would read as an outage).
 */
function keyOf(id: string): string {
  if (!KEY_SEGMENT.test(id))
    throw invalidParams(`Invalid task id "${clip(id, 64)}": task ids are 1 to 128 letters, digits, - and _`);
  return `task:${id}`;
}

/** The store keeps a task a little past its TTL: clients are told ttlMs, and clocks differ. */
export const storeTtlSeconds = (record: TaskRecord) =>
  Math.max(1, Math.ceil((Date.parse(record.createdAt) + record.ttlMs - Date.now()) / 1000) + 5);
const MAX_ATTEMPTS = 20;

/** The task ended (completed, failed, cancelled): it keeps what `tasks/get` shows, and drops what only its rounds needed. */
export const endedTask = (
  record: TaskRecord,
  end: Pick<TaskRecord, "status" | "statusMessage" | "result" | "error">,
): TaskRecord => ({
  ...record,
  ...end,
  arguments: {},
  state: undefined,
  asks: undefined,
  answers: undefined,
});

export function taskStore() {
  const atomic = useAtomicStore();
  // The storage plugin refuses to start without one when a tool can run as a task.
  if (!atomic) throw new Error("no atomic store for tasks");
  return atomic;
}

/** Stores a new task; it can be read from any instance once this resolves. */
export async function createTaskRecord(record: TaskRecord): Promise<void> {
  if (!(await taskStore().setIfAbsent(keyOf(record.id), JSON.stringify(record), storeTtlSeconds(record)))) {
    throw new Error(`task id collision: ${record.id}`);
  }
}

/** The task, if it exists, has not expired, and belongs to `owner` (undefined `owner`: the server itself). */
export async function readTaskRecord(id: string, owner?: string): Promise<TaskRecord | undefined> {
  const text = await taskStore().get(keyOf(id));
  const record = text === null ? undefined : (JSON.parse(text) as TaskRecord);
  if (!record || Date.parse(record.createdAt) + record.ttlMs < Date.now()) return undefined;
  return owner === undefined || record.owner === owner ? record : undefined;
}

/**
 * Applies `change` to the stored task, atomically: on a concurrent change it reads again and
 * retries. `change` returns the next record, or undefined to leave it as it is. Returns what is stored.
 */
export async function updateTaskRecord(
  id: string,
  change: (record: TaskRecord) => TaskRecord | undefined,
): Promise<TaskRecord | undefined> {
  const atomic = taskStore();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const text = await atomic.get(keyOf(id));
    if (text === null) return undefined;
    const current = JSON.parse(text) as TaskRecord;
    const next = change(current);
    if (!next) return current;
    const stamped: TaskRecord = { ...next, lastUpdatedAt: new Date().toISOString() };
    if (await atomic.compareAndSet(keyOf(id), text, JSON.stringify(stamped), storeTtlSeconds(stamped))) return stamped;
  }
  throw new Error(`task ${id}: too many concurrent changes`);
}
