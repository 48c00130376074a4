import { startWorker } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Cloudflare build in workerd (npm run build:cloudflare)", () => startWorker());
