/**
 * Reads the skills of a build (the skills extension, SEP-2640) from `skills/` folders: every folder
 * holding a `SKILL.md` is a skill, its path under `skills/` is the skill's path, and every file
 * below it is one of its resources. Everything is read, hashed and checked here, at build time —
 * a serverless bundle may have no file system — and a skill that breaks the extension's rules fails the build.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { parse } from "yaml";

export interface SkillFile {
  /** Path within the skill, with `/` separators (`SKILL.md`, `references/tools.md`). */
  readonly path: string;
  readonly mimeType: string;
  /** UTF-8 text, or base64 for anything else. */
  readonly text?: string;
  readonly blob?: string;
  readonly size: number;
  /** `sha256:` and the hex digest of the file's bytes. */
  readonly digest: string;
}

export interface SkillSource {
  /** The skill's path (`notes-helper`, or `acme/billing/refunds`): its URI is `skill://<path>/SKILL.md`. */
  readonly path: string;
  readonly frontmatter: Record<string, unknown>;
  readonly files: readonly SkillFile[];
}

const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const TEXT_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".csv": "text/csv",
  ".html": "text/html",
  ".js": "text/javascript",
  ".ts": "text/plain",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
};
const BINARY_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".pdf": "application/pdf",
};
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The files below `dir`, in path order. Anything but a file or a folder fails the build: a symbolic
 * link, followed, could serve any file of the build machine as part of a skill (and a pipe would
 * hang the build).
 */
function filesBelow(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith("."))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const entry = lstatSync(path);
      if (entry.isDirectory()) return filesBelow(path);
      if (entry.isFile()) return [path];
      throw new Error(
        entry.isSymbolicLink()
          ? `Skills: ${path} is a symbolic link; skill files are read without following links, so copy the file in instead`
          : `Skills: ${path} is neither a file nor a folder`,
      );
    });
}

function readSkillFile(root: string, file: string): SkillFile {
  const bytes = readFileSync(file);
  const extension = extname(file).toLowerCase();
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const path = relative(root, file).split(sep).join("/");
  let text: string | undefined;
  try {
    text = BINARY_TYPES[extension] ? undefined : utf8.decode(bytes);
  } catch {
    // not UTF-8: served as a blob
  }
  const mimeType =
    TEXT_TYPES[extension] ??
    BINARY_TYPES[extension] ??
    (text === undefined ? "application/octet-stream" : "text/plain");
  return text === undefined
    ? { path, mimeType, blob: bytes.toString("base64"), size: bytes.length, digest }
    : { path, mimeType, text, size: bytes.length, digest };
}

function readSkill(skillsDir: string, skillDir: string): SkillSource {
  const path = relative(skillsDir, skillDir).split(sep).join("/");
  const fail = (reason: string): never => {
    throw new Error(`Skill ${join(skillDir, "SKILL.md")}: ${reason}`);
  };
  const source = readFileSync(join(skillDir, "SKILL.md"), "utf8");
  const block = FRONTMATTER.exec(source)?.[1];
  if (block === undefined) fail("SKILL.md must begin with a YAML frontmatter block between --- lines");
  const frontmatter = parse(block!) as Record<string, unknown>;
  if (
    typeof frontmatter?.name !== "string" ||
    typeof frontmatter.description !== "string" ||
    !frontmatter.description
  ) {
    fail("its frontmatter needs a name and a description");
  }
  const name = path.split("/").at(-1)!;
  if (frontmatter.name !== name) fail(`its name "${frontmatter.name}" must be its folder's name, "${name}"`);
  if (!NAME.test(name)) fail(`"${name}" is not a valid skill name (1-64 lowercase letters, digits and single hyphens)`);
  return { path, frontmatter, files: filesBelow(skillDir).map((file) => readSkillFile(skillDir, file)) };
}

/** The skills in `skillsDir` (nested skills included), in path order. */
export function readSkills(skillsDir: string): SkillSource[] {
  if (!existsSync(skillsDir)) return [];
  const skillDirs = filesBelow(skillsDir)
    .filter((file) => file.endsWith(`${sep}SKILL.md`))
    .map((file) => file.slice(0, -"/SKILL.md".length));
  return skillDirs.map((dir) => readSkill(skillsDir, dir));
}
