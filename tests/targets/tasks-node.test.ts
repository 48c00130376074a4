import { startServer } from "../helpers/server.mjs";
import { describeTasks } from "./tasks";

describeTasks("Node build", (env) => startServer({ env }));
