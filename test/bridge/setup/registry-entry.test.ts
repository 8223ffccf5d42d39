// The ACP Registry entry for boardbridge (acp-registry/boardbridge), checked
// against the rules the registry documents in its CONTRIBUTING.md, FORMAT.md and
// agent.schema.json (draft-07). The schema file itself is not copied into this
// project: the checks below are written from those documents.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoRoot } from '../../e2e/run-cli.js';

const folder = path.join(repoRoot, 'acp-registry', 'boardbridge');
const entry: unknown = JSON.parse(readFileSync(path.join(folder, 'agent.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; license: string; bin: Record<string, string> };

const PackageDistribution = z.object({ package: z.string().min(1), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }).strict();
const Platform = z.enum(['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64']);
const BinaryTarget = z.object({ archive: z.url(), sha256: z.string().regex(/^[a-fA-F0-9]{64}$/).optional(), cmd: z.string(), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }).strict();
const AgentEntry = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/),
    name: z.string().min(1),
    version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+/),
    description: z.string().min(1),
    repository: z.url().optional(),
    website: z.url().optional(),
    authors: z.array(z.string()).optional(),
    license: z.string().optional(),
    license_url: z.url().optional(),
    icon: z.string().optional(),
    distribution: z
      .object({ binary: z.partialRecord(Platform, BinaryTarget).optional(), npx: PackageDistribution.optional(), uvx: PackageDistribution.optional() })
      .strict()
      .refine((d) => Object.keys(d).length >= 1, 'at least one distribution method'),
  })
  .passthrough();

describe('the ACP Registry entry for boardbridge (checked against the registry\'s documented format; the registry\'s CI does not run here)', () => {
  it('has the documented fields, id boardbridge matching its folder, and an npx distribution', () => {
    const parsed = AgentEntry.parse(entry);
    expect(parsed.id).toBe('boardbridge');
    expect(path.basename(folder)).toBe(parsed.id);
    expect(Object.keys(parsed.distribution)).toEqual(['npx']);
  });

  it('names this package at its version (never @latest) and runs its acp command', () => {
    const parsed = AgentEntry.parse(entry);
    const npx = parsed.distribution.npx!;
    expect(npx.package).toBe(`${pkg.name}@${pkg.version}`);
    expect(parsed.version).toBe(pkg.version);
    expect(parsed.license).toBe(pkg.license);
    // npx <package> runs the package's bin of the same name, with these args.
    const bin = pkg.bin[pkg.name];
    expect(bin).toBeDefined();
    expect(npx.args?.[0]).toBe('acp');
    const help = spawnSync(process.execPath, [path.join(repoRoot, bin), ...(npx.args ?? []), '--help'], { encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('run as an ACP agent on stdio');
  });

  it('has a 16x16 square monochrome icon.svg drawn in currentColor', () => {
    const svg = readFileSync(path.join(folder, 'icon.svg'), 'utf8');
    expect(svg).toMatch(/<svg[^>]*\bwidth="16"[^>]*\bheight="16"/);
    expect(svg).toMatch(/viewBox="0 0 16 16"/);
    const paints = [...svg.matchAll(/\b(fill|stroke)="([^"]*)"/g)].map((m) => m[2]);
    expect(paints.length).toBeGreaterThan(0);
    for (const paint of paints) expect(['currentColor', 'none', 'inherit']).toContain(paint);
    expect(svg).not.toMatch(/style="[^"]*(fill|stroke)\s*:/);
  });
});
