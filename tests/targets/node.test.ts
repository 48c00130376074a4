import { startServer } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Node build (npm run build)", () => startServer());
