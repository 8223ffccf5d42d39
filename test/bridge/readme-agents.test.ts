// The README's agent table says what the agent profiles do: the same agents in the same order
// (the default's), the command each runs, its npm package, the keys and files that count as
// logged in, and the login a person runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileLogin, KNOWN_AGENTS } from '../../bridge/agents/profiles.js';

const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

function agentTable(): Array<{ id: string; runs: string; loggedIn: string }> {
  const start = readme.indexOf('| `--agent` |');
  expect(start, 'the README has the agent table').toBeGreaterThan(0);
  const rows = readme.slice(start).split('\n\n')[0].split('\n').slice(2);
  return rows.map((row) => {
    const [id, runs, loggedIn] = row.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, ''));
    return { id: id.replace(/`/g, ''), runs, loggedIn };
  });
}

describe("the README's agent table", () => {
  const table = agentTable();

  it('lists the known agents in the order the default tries them', () => {
    expect(table.map((r) => r.id)).toEqual(KNOWN_AGENTS.map((p) => p.id));
  });

  it.each(KNOWN_AGENTS.map((p) => [p.id, p] as const))('says how %s runs, what logs it in and the login it needs', (id, profile) => {
    const row = table.find((r) => r.id === id)!;
    expect(row.runs).toContain(`\`${[profile.executables[0], ...profile.args].join(' ')}`);
    for (const name of profile.executables) expect(row.runs).toContain(name);
    if (profile.npmPackage) expect(row.runs).toContain(`\`${profile.npmPackage}\``);
    if (profile.minNode) expect(row.runs).toContain(`Node ≥ ${profile.minNode}`);
    for (const { env } of profile.authEnv) expect(row.loggedIn).toContain(`\`${env}\``);
    for (const file of profile.credentialFiles.filter((f) => !f.expired)) {
      const fallback = file.dir.split('|').at(-1)!;
      expect(row.loggedIn).toContain(`\`${path.posix.join('~', fallback, file.file)}`);
    }
    const { login } = profileLogin(profile);
    if (login) expect(row.loggedIn).toContain(`\`${login}\``);
  });
});
