/**
 * The skills extension in-process, against the fixture skill (`tests/fixtures/skills/fixture-skill`),
 * read by the build's own function (`server/build/skill-files.ts`):
 * what the conformance scenarios check, plus the digests matching the bytes served, directory
 * reads, pagination limits and the errors for what is not there.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer, type Json, type TestServer } from "../../helpers/in-process";
import { FIXTURES } from "./flows";
import { hasFeature } from "../../helpers/project.mjs";

const ROOT = "skill://fixture-skill";
const SKILL_MD = `${ROOT}/SKILL.md`;
const source = (path: string) => readFileSync(new URL(`../../fixtures/skills/fixture-skill/${path}`, import.meta.url));
const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer(FIXTURES);
});
const post = (method: string, params: Json = {}) => server.connect().request(method, params);

describe("skills", () => {
  it("declares the extension to clients of both eras", async () => {
    const modern = await post("server/discover");
    expect(modern.body.result.capabilities.extensions["io.modelcontextprotocol/skills"]).toEqual({
      directoryRead: true,
    });
    if (!hasFeature("legacy")) return;
    const legacy = await server.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(legacy.body.result.capabilities.extensions).toEqual({
      "io.modelcontextprotocol/skills": { directoryRead: true },
    });
  });

  it("lists the skill with its frontmatter, and every file with the digest and size of the bytes served", async () => {
    const { body } = await post("skills/list");
    const skill = body.result.skills.find((entry: { uri: string }) => entry.uri === SKILL_MD);
    expect(skill.frontmatter).toMatchObject({
      name: "fixture-skill",
      description: "A skill for the template's own tests.",
    });
    const files = Object.fromEntries(skill.resources.map((file: { uri: string }) => [file.uri, file]));
    expect(Object.keys(files).sort()).toEqual([SKILL_MD, `${ROOT}/references/details.md`]);
    for (const path of ["SKILL.md", "references/details.md"]) {
      const read = await post("resources/read", { uri: `${ROOT}/${path}` });
      const text = read.body.result.contents[0].text;
      expect(text).toBe(source(path).toString("utf8"));
      expect(files[`${ROOT}/${path}`]).toMatchObject({ digest: sha256(source(path)), size: source(path).length });
    }
  });

  it("gets one skill by its SKILL.md URI, and answers an unknown one like an unknown resource (-32602, HTTP 200)", async () => {
    const found = await post("skills/get", { uri: SKILL_MD });
    expect(found.body.result.skill.uri).toBe(SKILL_MD);
    const missing = await post("skills/get", { uri: `${ROOT}/missing/SKILL.md` });
    expect(missing.body.error.code).toBe(-32602);
    expect(missing.status).toBe(200);
  });

  it("lists each SKILL.md among the resources under the skill's name, and not its other files", async () => {
    const { body } = await post("resources/list");
    const uris = body.result.resources.map((resource: { uri: string }) => resource.uri);
    expect(body.result.resources.find((resource: { uri: string }) => resource.uri === SKILL_MD)).toMatchObject({
      name: "fixture-skill",
      description: "A skill for the template's own tests.",
      mimeType: "text/markdown",
    });
    expect(uris).not.toContain(`${ROOT}/references/details.md`);
  });

  it("reads a skill's folders as directories, and refuses a file or an unknown folder with -32602", async () => {
    const root = await post("resources/directory/read", { uri: ROOT });
    expect(root.body.result.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: SKILL_MD, name: "SKILL.md" }),
        expect.objectContaining({ uri: `${ROOT}/references`, mimeType: "inode/directory" }),
      ]),
    );
    const nested = await post("resources/directory/read", { uri: `${ROOT}/references` });
    expect(nested.body.result.resources.map((resource: { uri: string }) => resource.uri)).toEqual([
      `${ROOT}/references/details.md`,
    ]);
    for (const uri of [SKILL_MD, `${ROOT}/nowhere`, "skill://../etc"]) {
      const refused = await post("resources/directory/read", { uri });
      expect(refused.body.error.code).toBe(-32602);
    }
  });

  it("answers skill files with a public cache hint, since they change only with a deploy", async () => {
    const { body } = await post("resources/read", { uri: SKILL_MD });
    expect(body.result).toMatchObject({ cacheScope: "public" });
    expect(body.result.ttlMs).toBeGreaterThan(0);
  });
});
