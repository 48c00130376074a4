/**
 * The `ui` option exists only with the apps feature, by declaration merging (server/features/apps/tool-ui.ts): a tool
 * that sets it, in a program without that declaration (a fork that removed the feature and kept the tool), does not
 * compile, and for that one reason. With the declaration, the same tool is type-checked by `npx tsc --noEmit`.
 */
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const ROOT = process.cwd();
/** A tool that sets `ui` and imports nothing of the feature. */
const TOOL = join(ROOT, "tests/fixtures-apps/tools/refresh_fixture.ts");

it("a tool's ui option does not compile without the apps feature", () => {
  const { options } = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  )!;
  // The tool and what it imports (the helpers, the core's kit), not the rest of server/: no feature is in the program.
  const program = ts.createProgram({ rootNames: [TOOL], options });
  expect(program.getSourceFiles().some((file) => file.fileName.includes("/server/features/"))).toBe(false);
  const complaints = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(TOOL))
    .filter((diagnostic) => diagnostic.file?.fileName === TOOL)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
  expect(complaints).toEqual([expect.stringMatching(/'ui' does not exist in type/)]);
});
