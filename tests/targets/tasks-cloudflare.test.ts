import { startWorker } from "../helpers/server.mjs";
import { describeTasks } from "./tasks";

describeTasks("Cloudflare build in workerd", (env) => startWorker({ env }));
