/** The build's skill reader (server/features/skills/skill-files.ts) on folders made for each test: links are never followed. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { readSkills } from "../../server/features/skills/skill-files";

/** A `skills/` folder with one valid skill, `demo`, and a secret beside it (outside every skill). */
function skillsFolder() {
  const root = mkdtempSync(join(tmpdir(), "skills-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const skills = join(root, "skills");
  const skill = join(skills, "demo");
  mkdirSync(join(skill, "references"), { recursive: true });
  writeFileSync(join(skill, "SKILL.md"), "---\nname: demo\ndescription: A demo skill.\n---\n\n# Demo\n");
  writeFileSync(join(skill, "references", "guide.md"), "# Guide\n");
  const secret = join(root, "secret.txt");
  writeFileSync(secret, "the build machine's secret\n");
  return { skills, skill, secret };
}

describe("readSkills", () => {
  it("reads a skill's files", () => {
    const { skills } = skillsFolder();
    expect(readSkills(skills).map((skill) => [skill.path, skill.files.map((file) => file.path)])).toEqual([
      ["demo", ["SKILL.md", "references/guide.md"]],
    ]);
  });

  it.each([
    ["a link to a file outside the skill", "references/secret.md", ({ secret }: { secret: string }) => secret],
    ["a link to a folder outside the skill", "outside", ({ secret }: { secret: string }) => join(secret, "..")],
    ["a link to a file inside the skill", "copy.md", ({ skill }: { skill: string }) => join(skill, "SKILL.md")],
  ])("fails the build on %s, naming the link", (_, link, target) => {
    const folder = skillsFolder();
    symlinkSync(target(folder), join(folder.skill, link));
    expect(() => readSkills(folder.skills)).toThrow(`Skills: ${join(folder.skill, link)} is a symbolic link`);
  });

  it("fails the build on a link to a skill folder", () => {
    const { skills, skill } = skillsFolder();
    symlinkSync(skill, join(skills, "alias"));
    expect(() => readSkills(skills)).toThrow(`Skills: ${join(skills, "alias")} is a symbolic link`);
  });

  it.skipIf(process.platform === "win32")("fails the build on a named pipe instead of hanging on it", () => {
    const { skills, skill } = skillsFolder();
    execFileSync("mkfifo", [join(skill, "pipe")]);
    expect(() => readSkills(skills)).toThrow(`Skills: ${join(skill, "pipe")} is neither a file nor a folder`);
  });
});
