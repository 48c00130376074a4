import { startWorker } from "../helpers/worker.mjs";
import { describeTasks } from "./tasks";

describeTasks("Cloudflare build in workerd", (env) => startWorker({ env }));
