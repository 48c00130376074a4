import { inProcessView } from "../in-process-view";

export default await inProcessView("fixture-view");
