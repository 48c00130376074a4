/**
 * At most NITRO_MCP_TASK_MAX_ACTIVE active tasks (working or input_required) per caller (its principal, or for
 * anonymous callers their address: `McpContext.caller`), across every instance. A caller has that many slots in the atomic store; a slot names the task that
 * holds it and expires with it. A new task claims a free slot (`setIfAbsent`: of two instances
 * racing for one, one wins) or takes over, by compare-and-set, one whose task has ended, failed on
 * a lost heartbeat, or expired. Nothing ever has to free a slot, so none can leak.
 */
import { SETTINGS } from "./settings";
import { isTerminal, readTaskRecord, storeTtlSeconds, taskStore, type TaskRecord } from "./task-records";
import { checkedHeartbeat } from "./task-rounds";
import { digestKeySegment, useSettings } from "../../mcp/kit";

/** A slot whose task is not in the store yet is left to its claimant this long (at most the task's TTL): it may still be writing the task. */
const CLAIM_GRACE_MS = 30_000;

interface Slot {
  readonly taskId: string;
  /** Until when the slot holds without its task in the store. */
  readonly pendingUntil: number;
}

async function stillHeld(slot: Slot): Promise<boolean> {
  const task = await readTaskRecord(slot.taskId);
  if (!task) return Date.now() < slot.pendingUntil;
  return !isTerminal((await checkedHeartbeat(task)).status);
}

/** Claims one of its owner's slots for `task`, before the task is stored; false when every slot holds an active task. */
export async function claimTaskSlot(task: TaskRecord): Promise<boolean> {
  const atomic = taskStore();
  const owner = await digestKeySegment(task.caller.key);
  const claim = JSON.stringify({
    taskId: task.id,
    pendingUntil: Date.now() + Math.min(CLAIM_GRACE_MS, task.ttlMs),
  } satisfies Slot);
  const ttlSeconds = storeTtlSeconds(task);
  for (let index = 0; index < useSettings(SETTINGS).taskMaxActive; index++) {
    const key = `task-slot:${owner}:${index}`;
    if (await atomic.setIfAbsent(key, claim, ttlSeconds)) return true;
    const held = await atomic.get(key);
    if (held === null) {
      if (await atomic.setIfAbsent(key, claim, ttlSeconds)) return true; // it expired meanwhile
    } else if (
      !(await stillHeld(JSON.parse(held) as Slot)) &&
      (await atomic.compareAndSet(key, held, claim, ttlSeconds))
    ) {
      return true;
    }
  }
  return false;
}
