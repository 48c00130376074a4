/**
 * The tasks extension, when some tool can run as a task: `tools/call` of such a tool goes through `callTaskTool`,
 * `tasks/get`, `tasks/update` and `tasks/cancel` answer (2026-07-28 only: the extension is not defined on the 2025
 * wire), `subscriptions/listen` carries task status, and `server/discover` declares the extension.
 */
import { addListenSource, addMethods, declareExtension, runTasks } from "../../../mcp/features";
import { EXTENSIONS } from "../../../mcp/protocol";
import { registry } from "../../../mcp/registry";
import { callTaskTool } from "../task-creation";
import { cancelTask, getTask, updateTask } from "../task-methods";
import { taskWatch } from "../task-watch";

export default defineNitroPlugin(() => {
  if (!registry.tools.some((tool) => tool.task)) return;
  runTasks(callTaskTool);
  addMethods(["modern"], { "tasks/get": getTask, "tasks/update": updateTask, "tasks/cancel": cancelTask });
  addListenSource(taskWatch);
  declareExtension(["modern"], EXTENSIONS.tasks, {});
});
