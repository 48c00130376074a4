/**
 * The skills this server ships (the skills extension, `io.modelcontextprotocol/skills`, SEP-2640),
 * read at build time from `server/skills/<path>/` (see `skill-files.ts` and `module.ts`):
 * - each skill's entry for `skills/list` and `skills/get`: its `SKILL.md` URI, its frontmatter, and
 *   every file with its SHA-256 digest and size;
 * - every file as a resource (`skill://<path>/<file>`), read with `resources/read`; each `SKILL.md`
 *   is also listed in `resources/list`, under the skill's name and description (`plugins/skills.ts` serves them);
 * - every folder as a directory (`inode/directory`) for `resources/directory/read`.
 */
import { skills as sources } from "#mcp-skills";
import { entryBase, type Resource, type ResourceEntry } from "../../mcp/kit";

export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly { readonly uri: string; readonly digest: string; readonly size: number }[];
}

export const DIRECTORY_MIME_TYPE = "inode/directory";
/** Skills change only with a deploy: anyone may cache their files for five minutes. */
const SKILL_CACHE = { ttlMs: 300_000, cacheScope: "public" } as const;

function fileEntry(
  uri: string,
  file: (typeof sources)[number]["files"][number],
  metadata: Partial<Resource>,
): ResourceEntry {
  const content = file.text !== undefined ? { text: file.text } : { blob: file.blob! };
  return {
    ...entryBase({}),
    kind: "resource",
    descriptor: { uri, name: file.path, mimeType: file.mimeType, size: file.size, ...metadata },
    cache: SKILL_CACHE,
    completers: {},
    read: async () => ({ contents: [{ uri, mimeType: file.mimeType, ...content }] }),
  };
}

function buildCatalog() {
  const skills: SkillEntry[] = [];
  const files = new Map<string, ResourceEntry>();
  const listed: Resource[] = [];
  const directories = new Map<string, Map<string, Resource>>();
  const addToDirectory = (directory: string, child: Resource) => {
    if (!directories.has(directory)) directories.set(directory, new Map());
    directories.get(directory)!.set(child.uri, child);
  };
  for (const skill of sources) {
    const root = `skill://${skill.path}`;
    const skillMd = `${root}/SKILL.md`;
    skills.push({
      uri: skillMd,
      frontmatter: skill.frontmatter,
      resources: skill.files.map((file) => ({ uri: `${root}/${file.path}`, digest: file.digest, size: file.size })),
    });
    for (const file of skill.files) {
      const uri = `${root}/${file.path}`;
      const isSkillMd = file.path === "SKILL.md";
      // Each SKILL.md is listed in resources/list; the other files are read through skills/get.
      const metadata = isSkillMd
        ? { name: String(skill.frontmatter.name), description: String(skill.frontmatter.description) }
        : {};
      const entry = fileEntry(uri, file, metadata);
      files.set(uri, entry);
      if (isSkillMd) listed.push(entry.descriptor as Resource);
      // Each folder on the way, from the skill's root to the file, lists its direct children.
      const segments = file.path.split("/");
      let directory = root;
      for (const [index, segment] of segments.entries()) {
        const child = `${directory}/${segment}`;
        const last = index === segments.length - 1;
        addToDirectory(
          directory,
          last
            ? { uri: child, name: segment, mimeType: file.mimeType, size: file.size }
            : { uri: child, name: segment, mimeType: DIRECTORY_MIME_TYPE },
        );
        directory = child;
      }
    }
    if (!directories.has(root)) directories.set(root, new Map());
  }
  return {
    skills,
    bySkillUri: new Map(skills.map((skill) => [skill.uri, skill])),
    /** Every skill file, by URI, and the SKILL.md files `resources/list` shows. */
    files,
    listed,
    directories: new Map([...directories].map(([uri, children]) => [uri, [...children.values()]])),
  };
}

export const skillCatalog = buildCatalog();
