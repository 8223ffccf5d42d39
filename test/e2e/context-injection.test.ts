// The hardware context reaches the agent with the prompt: as a resource block when
// the agent takes embedded context, as text otherwise; in full on the first prompt
// and when it changed, as a one-line reminder otherwise.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextService } from '../../bridge/context/context-service.js';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { allProviders } from '../../context-providers/index.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { claudeSession, ofType, standinLaunch, tempSketch } from './run-cli.js';


let session: BridgeSession | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

async function start(env: Record<string, string> = {}, options: { workspace?: (root: string, sketch: string) => string; selection?: { board?: string }; sketch?: string } = {}) {
  const { root, sketch } = tempSketch();
  const events: BridgeEvent[] = [];
  session = await BridgeSession.start({
    launch: standinLaunch,
    env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), ...env },
    workspace: options.workspace?.(root, sketch) ?? sketch,
    selection: options.selection,
    sketch: options.sketch,
    policy: ASK_EVERYTHING,
    contexts: new ContextService(allProviders()),
    onEvent: (e) => events.push(e),
  });
  const echoed = async () => {
    const before = events.length;
    await session!.prompt('echo-blocks');
    const text = ofType(events.slice(before), 'message_chunk').map((e) => e.text).join('');
    return JSON.parse(text) as Array<{ type: string; uri?: string; text?: string }>;
  };
  return { sketch, events, echoed };
}

describe('hardware context injection (stand-in agent echoing the prompt blocks it got)', () => {
  it('sends the Arduino context as a resource first, then a reminder, then in full again after the board changed', async () => {
    const { sketch, events, echoed } = await start();
    const first = await echoed();
    expect(first[0]).toMatchObject({ type: 'resource', uri: expect.stringMatching(/^file:.*#boardbridge-hardware-context$/) });
    expect(first[0].text).toContain('Arduino UNO');
    expect(first[0].text).toContain('PWM (analogWrite): D3, D5, D6, D9–D11');
    expect(first.at(-1)).toEqual({ type: 'text', text: 'echo-blocks' });

    const second = await echoed();
    expect(second[0].type).toBe('text');
    expect(second[0].text).toMatch(/still holds: Arduino UNO/);

    writeFileSync(path.join(sketch, 'sketch.yaml'), 'default_fqbn: arduino:avr:mega:cpu=atmega2560\n');
    const third = await echoed();
    expect(third[0].type).toBe('resource');
    expect(third[0].text).toContain('Mega');
    expect(ofType(events, 'context_sent').map((e) => e.full)).toEqual([true, false, true]);
  });

  it('sends it as text to an agent without embedded context', async () => {
    const { echoed } = await start({ STANDIN_EMBEDDED: '0' });
    const first = await echoed();
    expect(first[0].type).toBe('text');
    expect(first[0].text).toMatch(/^<hardware-context source="boardbridge">\n# Arduino board: Arduino UNO/);
  });
});

describe('hardware context injection finds the sketch of a workspace that is not one, as boardbridge acp does (stand-in agent)', () => {
  it('sends the context of the sketch below a project root, and the face hears which it is', async () => {
    const { events, echoed } = await start({}, { workspace: (root) => root });
    const first = await echoed();
    expect(first[0].text).toMatch(/^> The sketch is .*\.ino, found below the workspace .*\n\n# Arduino board: Arduino UNO/);
    expect(ofType(events, 'context_sent')[0].note).toMatch(/^The sketch is .*\.ino, found below the workspace/);
  });

  it('tells the agent once, and the face, why a prompt goes without context', async () => {
    const { events, echoed } = await start({}, { workspace: (root) => mkdtempSync(path.join(root, 'empty-')) });
    const first = await echoed();
    expect(first[0]).toEqual({ type: 'text', text: expect.stringMatching(/^\[boardbridge\] No hardware context: .* holds no Arduino sketch/) });
    expect((await echoed())[0]).toEqual({ type: 'text', text: 'echo-blocks' });
    expect(ofType(events, 'context_missing')).toHaveLength(1);
  });

  it('sends the board alone for a folder without a sketch when a board is selected', async () => {
    const { echoed } = await start({}, { workspace: (root) => mkdtempSync(path.join(root, 'empty-')), selection: { board: 'arduino:avr:uno' } });
    const first = await echoed();
    expect(first[0].text).toMatch(/^> No sketch in .*board arduino:avr:uno alone.*\n\n# Arduino board: Arduino UNO/);
  });
});

describe('hardware context injection with the real claude-code-acp agent', () => {
  it('puts the board facts in front of the model and lets the agent read the installed variant folder', async () => {
    const { root, sketch } = tempSketch();
    const variant = '/usr/share/arduino/hardware/arduino/avr/variants/standard/pins_arduino.h';
    server = await startModelServer({ turns: [{ replies: [{ tool: { claude: { name: 'Read', input: { file_path: variant } } } }, { say: 'Pin 3 has PWM.' }] }] });
    const events: BridgeEvent[] = [];
    session = await BridgeSession.start({
      ...claudeSession(server.url, root),
      workspace: sketch,
      policy: { reads: true, edits: false, all: false, device: false },
      contexts: new ContextService(allProviders()),
      onEvent: (e) => events.push(e),
    });
    const turn = await session.prompt('Which pins can fade an LED?');
    expect(turn.stopReason).toBe('end_turn');
    const scripted = server.requests.filter((r) => r.handledAs === 'script');
    expect(JSON.stringify(scripted[0].body)).toContain('PWM (analogWrite): D3, D5, D6, D9–D11');
    // The read-only platform folder the context names is readable, and what came back is the real header.
    expect(scripted[1].conversation?.lastToolResult).toContain('digitalPinHasPWM');
    expect(readFileSync(variant, 'utf8')).toContain('digitalPinHasPWM');
  });
});
