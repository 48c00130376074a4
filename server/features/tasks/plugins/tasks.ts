/**
 * The tasks extension, when some tool can run as a task: `tools/call` of such a tool goes through `callTaskTool` (a
 * middleware around dispatch), `tasks/get`, `tasks/update` and `tasks/cancel` answer (2026-07-28 only: the extension is not
 * defined on the 2025 wire), `subscriptions/listen` carries task status, and `server/discover` declares the extension.
 */
import {
  addListenSource,
  addMethods,
  declareNameFields,
  declareExtension,
  registry,
  useAtomicStore,
  useStore,
  wrapDispatch,
  type ToolEntry,
} from "../../../mcp/kit";
import { callTaskTool, TASKS_EXTENSION } from "../task-creation";
import { cancelTask, getTask, updateTask } from "../task-methods";
import { taskWatch } from "../task-watch";

export default defineNitroPlugin(() => {
  const tools = registry().tools.filter((tool) => tool.options.task);
  const taskTools = tools.map((tool) => tool.descriptor.name);
  if (!taskTools.length) return;
  // Tasks live in the store's atomic operations, strongly consistent on every target: without them, none can be kept.
  if (!useAtomicStore()) {
    throw new Error(
      `${useStore()?.name} cannot keep a task atomically, which ${taskTools.join(", ")} need${taskTools.length === 1 ? "s" : ""}. ${useStore()?.missingAtomic ?? ""}`,
    );
  }
  // The whole tools/call of a task tool is this feature's: as a task, or, without the extension, as a plain call.
  wrapDispatch((mcp) => callTaskTool(mcp.target!.entry as ToolEntry, mcp), { methods: ["tools/call"], entries: tools });
  addMethods({ "tasks/get": getTask, "tasks/update": updateTask, "tasks/cancel": cancelTask });
  // The tasks extension's routing header: Mcp-Name mirrors the task's id.
  declareNameFields({ "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" });
  addListenSource(taskWatch);
  declareExtension(TASKS_EXTENSION, {});
});
