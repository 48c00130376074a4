import { inProcessView } from "../in-process-view";

export default await inProcessView("bad-csp");
